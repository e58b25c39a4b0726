import { fileTypeFromBuffer } from "file-type";
import { messages } from "#common/shared/messages.ts";
import { InvalidInputError, ServiceError } from "../errors.ts";

// What can be told of an upload without decoding it: its type by content, and for a drawing whether it is
// self-contained and cheap enough to draw. Plain JavaScript, no sharp: the server process runs these before it
// hands the bytes to a decoder process (./decoder-pool.ts), so that what is refused here costs no decoder time.

/** Pixels sharp may decode from one upload (up to 160 MB as RGBA); more is refused as a decompression bomb. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** A drawing is rendered at most this large (the stored picture is 256 px): its cost grows with the area. */
export const MAX_SVG_RENDER_PIXELS = 1024 * 1024;
/**
 * Elements librsvg may draw for one drawing, counting each `<use>` and `url(#…)` reference as a copy of what
 * it points at: nested references multiply (a 2 KB drawing of nested `<use>` cost 3.9 s before this count, and
 * librsvg's own cap is 500,000). Every element is drawn into a canvas of at most the size above, so one costs at
 * most what covering that canvas costs, ~40-70 µs measured here: ~0.7 s in all. Filters, whose cost grows with
 * the filtered area times their radius and is not bounded that way, are refused outright (checkSvgCost).
 */
export const MAX_SVG_RENDERED_ELEMENTS = 10_000;
/** Characters of text drawn per counted element: 39,000 characters, just within the limit, took 0.7-0.9 s of CPU here. */
const SVG_TEXT_CHARACTERS_PER_ELEMENT = 4;
/**
 * Numbers of a path's `d` or a polygon's `points` per counted element (four line segments). Every edge of a path
 * is visited on every row it crosses: a 10,000-segment path of lines across the canvas took 1.6 s of CPU here.
 */
const SVG_PATH_NUMBERS_PER_ELEMENT = 8;
const SVG_NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;

export type ImageType = "png" | "jpeg" | "gif" | "webp" | "tiff" | "bmp" | "ico" | "svg";

/** file-type's extension → the type we handle; anything missing here is refused (common/shared/images.ts names them to people). */
const BINARY_TYPES = new Map<string, ImageType>([
  ["png", "png"],
  ["apng", "png"], // an animated PNG is still a PNG; sharp takes its first frame
  ["jpg", "jpeg"],
  ["gif", "gif"],
  ["webp", "webp"],
  ["tif", "tiff"],
  ["bmp", "bmp"],
  ["ico", "ico"],
]);

export function productTooLarge(): ServiceError {
  return new ServiceError(413, messages.images.productTooLarge, { image: messages.images.productTooLarge });
}

export function tooManyPixels(): InvalidInputError {
  return new InvalidInputError(messages.images.tooManyPixels, { image: messages.images.tooManyPixels });
}

export function unsupportedImage(): InvalidInputError {
  return new InvalidInputError(messages.images.unsupported, { image: messages.images.unsupported });
}

export function svgTooComplex(): InvalidInputError {
  return new InvalidInputError(messages.images.tooComplex, { image: messages.images.tooComplex });
}

export function svgWithFilters(): InvalidInputError {
  return new InvalidInputError(messages.images.svgFilters, { image: messages.images.svgFilters });
}

/**
 * The type of an upload by its content, one we handle, or a refusal; a drawing must also be self-contained, free
 * of filters and cheap enough to draw (checked here, before any decoder sees it).
 */
export async function detectType(data: Uint8Array): Promise<ImageType> {
  const detected = await fileTypeFromBuffer(data);
  const binary = detected && BINARY_TYPES.get(detected.ext);
  if (binary) return binary;
  if ((detected === undefined || detected.ext === "xml") && isSafeSvg(data)) {
    checkSvgCost(new TextDecoder().decode(data));
    return "svg";
  }
  throw unsupportedImage();
}


// ---------------------------------------------------------------------------------------------------------
// SVG. The rasteriser (librsvg) can follow references to other files and URLs and expand entities; only
// self-contained documents are let through.

const SVG_FORBIDDEN = /<!ENTITY|<!DOCTYPE|<script|<foreignObject|<\?xml-stylesheet|@import|xml:base/i;
const SVG_REFERENCE = /href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const SVG_CSS_URL = /url\(\s*["']?(?!#|data:)/i;
const SVG_ENCODING = /encoding\s*=\s*["']([^"']*)["']/i;

function isSafeSvg(data: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return false;
  }
  const root = rootElementStart(text);
  if (root < 0 || !/^<svg[\s/>]/.test(text.slice(root, root + 5))) return false;
  if (SVG_FORBIDDEN.test(text) || SVG_CSS_URL.test(text)) return false;
  if (!/^(utf-8|us-ascii)$/i.test(SVG_ENCODING.exec(text.slice(0, root))?.[1] ?? "utf-8")) return false;
  for (const [, double, single] of text.matchAll(SVG_REFERENCE)) {
    const target = double ?? single ?? "";
    if (!target.startsWith("#") && !/^data:/i.test(target)) return false;
  }
  return true;
}

/** Where the root element starts, after a BOM, the XML declaration, comments and whitespace; -1 if unclosed. */
function rootElementStart(text: string): number {
  let at = text.startsWith("\uFEFF") ? 1 : 0;
  if (/^<\?xml\s/.test(text.slice(at, at + 6))) {
    const end = text.indexOf("?>", at);
    if (end < 0) return -1;
    at = end + 2;
  }
  for (;;) {
    while (at < text.length && /\s/.test(text.charAt(at))) at++;
    if (!text.startsWith("<!--", at)) return at;
    const end = text.indexOf("-->", at + 4);
    if (end < 0) return -1;
    at = end + 3;
  }
}

/**
 * sharp renders a drawing straight at the output size, but first checks the pixel limit against the size the
 * drawing declares (at 72 dpi), which can be anything: one declared larger is loaded at a lower density.

/**
 * Filters, in any spelling librsvg reads: a `<filter>` or filter primitive (`<feMorphology>`, `<feGaussianBlur>`…),
 * or the `filter` property as an attribute or in CSS (which also takes functions such as `blur(…)` without any
 * element). Their cost grows with the filtered area times the radius, which the file does not bound: a 600-byte
 * drawing of five rectangles and three feMorphology filters kept librsvg busy for minutes.
 */
const SVG_FILTER_USE = /<(?:[\w.-]+:)?(?:filter|fe[A-Z][\w]*)[\s/>]|\bfilter\s*[:=]/;

/** Refuses a drawing that uses filters, or that would draw more than MAX_SVG_RENDERED_ELEMENTS elements. */
export function checkSvgCost(text: string): void {
  if (SVG_FILTER_USE.test(text.replace(/<!--[\s\S]*?-->/g, ""))) throw svgWithFilters();
  if (svgRenderCost(text) > MAX_SVG_RENDERED_ELEMENTS) throw svgTooComplex();
}

// Tags with their attributes (quoted values may hold ">"), and the references an attribute value can make.
// ("<" ends an unquoted run, so that no start of a tag scans past the next one: the scan stays linear.)
const SVG_TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:[^<>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const SVG_ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const SVG_URL_REFERENCE = /url\(\s*["']?#([^"')\s]+)/g;

/** Elements whose character data librsvg draws. */
const TEXT_ELEMENTS = new Set(["text", "tspan", "textPath"]);

interface SvgNode {
  weight: number;
  children: SvgNode[];
  references: string[];
}

/**
 * How many elements librsvg would draw, each reference expanded into what it points at (memoised, so the
 * count itself is linear), text counting one element per few characters and a path one per few segments; a reference cycle or a document we
 * cannot follow counts as endless. Stylesheets that reference (`url(#…)` in `<style>`) may apply to every
 * element, so they count as endless too.
 */
export function svgRenderCost(text: string): number {
  const source = text.replace(/<!--[\s\S]*?-->/g, "");
  const root: SvgNode = { weight: 0, children: [], references: [] };
  const ids = new Map<string, SvgNode>();
  const open: Array<{ name: string; node: SvgNode }> = [];
  let parent = root;
  let textDepth = 0;
  let previousEnd = 0;
  for (const match of source.matchAll(SVG_TAG)) {
    const [tag, closing, name = "", attributes = "", selfClosing] = match;
    if (textDepth > 0) parent.weight += source.slice(previousEnd, match.index).replace(/\s+/g, "").length / SVG_TEXT_CHARACTERS_PER_ELEMENT;
    previousEnd = match.index + tag.length;
    if (closing) {
      if (TEXT_ELEMENTS.has(name.replace(/^.*:/, ""))) textDepth--;
      const top = open.pop();
      if (!top || top.name !== name) return Infinity;
      parent = open.at(-1)?.node ?? root;
      continue;
    }
    const local = name.replace(/^.*:/, "");
    if (local === "style" && /url\(/i.test(source.slice(match.index + tag.length, source.indexOf("</", match.index)))) return Infinity;
    const node: SvgNode = { weight: 1, children: [], references: [] };
    for (const [, attribute = "", double, single] of attributes.matchAll(SVG_ATTRIBUTE)) {
      const value = double ?? single ?? "";
      if (attribute === "id") ids.set(value, node);
      else if (attribute === "d" || attribute === "points") node.weight += (value.match(SVG_NUMBER)?.length ?? 0) / SVG_PATH_NUMBERS_PER_ELEMENT;
      else if (/(^|:)href$/.test(attribute) && value.startsWith("#")) node.references.push(value.slice(1));
      for (const [, target = ""] of value.matchAll(SVG_URL_REFERENCE)) node.references.push(target);
    }
    parent.children.push(node);
    if (!selfClosing) {
      if (TEXT_ELEMENTS.has(local)) textDepth++;
      open.push({ name, node });
      parent = node;
    }
  }
  if (open.length) return Infinity;

  const cost = new Map<SvgNode, number>();
  const visiting = new Set<SvgNode>();
  const costOf = (node: SvgNode): number => {
    const known = cost.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) return Infinity;
    visiting.add(node);
    let total = node.weight;
    for (const child of node.children) total += costOf(child);
    for (const id of node.references) {
      const target = ids.get(id);
      if (target) total += costOf(target);
    }
    visiting.delete(node);
    cost.set(node, total);
    return total;
  };
  return costOf(root);
}
