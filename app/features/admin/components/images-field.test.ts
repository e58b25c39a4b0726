import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseImageFieldValue } from "#common/shared/uploads.ts";
import { ImagesField } from "./images-field.tsx";

// What <ImagesField> submits before any change: the kept images as `image:<id>`, in order, the first the cover.

const existing = [
  { id: "img-a", url: "/media/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-640.webp", alt: "Fern, front" },
  { id: "img-b", url: "/illustrations/products/snake-plant-1.svg", alt: "Fern, side" },
];

const hiddenValues = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`, "g"))].map((match) => match[1]);

describe("ImagesField", () => {
  it("renders one hidden image:<id> input per kept image, in order, and marks the first as the cover", () => {
    const html = renderToString(createElement(ImagesField, { name: "images", label: "Product Images", multiple: true, initial: existing }));
    expect(hiddenValues(html, "images")).toEqual(["image:img-a", "image:img-b"]);
    expect(html).toContain("Cover");
    expect(html).toContain('aria-label="Move Fern, side earlier"');
    expect(html).toContain('aria-label="Remove Fern, front"');
    expect(html).toMatch(/<input[^>]*type="file"[^>]*multiple/);
  });

  it("in single mode offers one file, no cover mark and no reordering", () => {
    const html = renderToString(createElement(ImagesField, { name: "categoryImage", label: "Category Image", purpose: "category", initial: existing.slice(0, 1) }));
    expect(hiddenValues(html, "categoryImage")).toEqual(["image:img-a"]);
    expect(html).not.toContain("Cover");
    expect(html).not.toContain("earlier");
    expect(html).not.toMatch(/<input[^>]*type="file"[^>]*multiple/);
  });
});

describe("parseImageFieldValue", () => {
  it("reads upload:<32 hex> and image:<id>, and nothing else", () => {
    expect(parseImageFieldValue("upload:0123456789abcdef0123456789abcdef")).toEqual({ kind: "upload", uploadId: "0123456789abcdef0123456789abcdef" });
    expect(parseImageFieldValue("image:3f2c9a1e-8d4b-4c6f-9e2a-1b7d5c3e9f00")).toEqual({ kind: "image", imageId: "3f2c9a1e-8d4b-4c6f-9e2a-1b7d5c3e9f00" });
    for (const bad of ["upload:../../etc/passwd", "upload:XYZ", "image:", "image:a/b", "file:1", 42, null]) {
      expect(parseImageFieldValue(bad)).toBeNull();
    }
  });
});
