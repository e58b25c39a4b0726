import { createHash, randomBytes } from "node:crypto";
import { MAX_IMAGE_BYTES } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { ServiceError, TooManyRequestsError } from "../errors.ts";
import { detectType } from "./image-checks.ts";
import type { MediaContext } from "./media-context.ts";

// Single square pictures (profile pictures): sent whole in a request, stored as one WebP under a name that says
// whom it was stored for, so that only its owner's requests can remove it.

export interface StoredImage {
  url: string;
  width: number;
  height: number;
}

const DEFAULT_SIZE = 256;
const STORED_NAME = /^(?:([0-9a-f]{16})-)?[0-9a-f]{32}\.webp$/;

/**
 * Validates by content, re-encodes to a square WebP (cover-cropped, centred) of `size` px (default 256),
 * metadata stripped, stored under a random name, marked as stored for `owner` when one is given.
 */
export async function saveSquareImage(ctx: MediaContext, data: Uint8Array, saveOptions: { size?: number; owner?: string } = {}): Promise<StoredImage> {
  const size = saveOptions.size ?? DEFAULT_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > 4096) throw new RangeError(`Invalid image size: ${size}`);
  const webp = await encodeSquareWebp(ctx, data, size);
  const tag = ownerTag(saveOptions.owner);
  const name = `${tag ? `${tag}-` : ""}${randomBytes(16).toString("hex")}.webp`;
  await ctx.store.put(name, webp);
  return { url: `${ctx.publicPath}/${name}`, width: size, height: size };
}

/**
 * Deletes a file this service stored for the same `owner` (or for none), given its url; ignores any other
 * url (another owner's file, one outside publicPath) and files already gone.
 */
export async function removeSquareImage(ctx: Pick<MediaContext, "store" | "publicPath">, url: string, removeOptions: { owner?: string } = {}): Promise<void> {
  const prefix = `${ctx.publicPath}/`;
  const name = url.startsWith(prefix) ? url.slice(prefix.length) : "";
  // Only names this service makes, so no url can reach outside mediaDir ("../", sub-folders).
  const stored = STORED_NAME.exec(name);
  if (!stored || stored[1] !== ownerTag(removeOptions.owner)) return;
  await ctx.store.delete(name);
}

/**
 * A square WebP (cover-cropped, centred) of `size` px. The type (and a drawing's cost) is checked here, so
 * what is refused by its content never waits for a decoder.
 */
async function encodeSquareWebp(ctx: Pick<MediaContext, "decoders" | "closed">, data: Uint8Array, size: number): Promise<Buffer> {
  if (data.byteLength > MAX_IMAGE_BYTES) throw new ServiceError(413, messages.images.tooLarge, { image: messages.images.tooLarge });
  await detectType(data);
  if (ctx.closed) throw new TooManyRequestsError(messages.images.restarting, 5);
  const webp = await ctx.decoders().run<Uint8Array>({ kind: "square", data, size });
  return Buffer.from(webp.buffer, webp.byteOffset, webp.byteLength);
}

/** Who a file was stored for, as the start of its name: a hash, so any owner id makes the same shape of name. */
function ownerTag(owner: string | undefined): string | undefined {
  return owner === undefined ? undefined : createHash("sha256").update(owner).digest("hex").slice(0, 16);
}
