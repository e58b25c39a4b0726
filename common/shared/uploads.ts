// Resumable uploads of product and category images: 5 MiB chunks, at most 20 MB (docs/product.md, Pictures;
// docs/decisions/022).

/** Each PATCH of a tus upload carries at most this much: small enough that a dropped connection loses little. */
export const UPLOAD_CHUNK_BYTES = 5 * 1024 * 1024;
/** The largest product or category image. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Where the tus endpoint lives. */
export const UPLOADS_PATH = "/api/uploads";

/**
 * What an upload is for: product and category images, sent by admins. A profile picture is not among them: the
 * profile form sends it whole (at most 10 MB), so a resumable upload for it would only hold disk nothing uses.
 */
export const UPLOAD_PURPOSES = ["product", "category"] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** How a form names an image: a finished upload to turn into a stored image, or an image it already has. */
export type ImageFieldValue = { kind: "upload"; uploadId: string } | { kind: "image"; imageId: string };

const UPLOAD_VALUE = /^upload:([0-9a-f]{32})$/;
const IMAGE_VALUE = /^image:([A-Za-z0-9_-]{1,64})$/;

/** Reads one hidden input of <ImagesField> (`upload:<id>` or `image:<id>`); null for anything else. */
export function parseImageFieldValue(value: unknown): ImageFieldValue | null {
  if (typeof value !== "string") return null;
  const upload = UPLOAD_VALUE.exec(value);
  if (upload?.[1]) return { kind: "upload", uploadId: upload[1] };
  const image = IMAGE_VALUE.exec(value);
  if (image?.[1]) return { kind: "image", imageId: image[1] };
  return null;
}
