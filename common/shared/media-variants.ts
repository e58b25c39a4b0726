// Product and category images are stored at a few widths in two formats (decision 022); their names derive
// from one random key and the largest width, so a row needs only those two to list every file.

/** The widths a stored image is made at (never wider than the picture sent). */
export const IMAGE_WIDTHS = [320, 640, 1280] as const;
export const MAX_IMAGE_WIDTH = 1280;
export const IMAGE_FORMATS = ["avif", "webp"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const MEDIA_PATH = "/media";

const MEDIA_KEY = /^[0-9a-f]{32}$/;

export function isMediaKey(value: unknown): value is string {
  return typeof value === "string" && MEDIA_KEY.test(value);
}

/** The widths stored for an image whose largest copy is `width` wide: the standard ones below it, and itself. */
export function variantWidths(width: number): number[] {
  const largest = Math.min(Math.max(1, Math.round(width)), MAX_IMAGE_WIDTH);
  return [...IMAGE_WIDTHS.filter((standard) => standard < largest), largest];
}

export function variantName(key: string, width: number, format: ImageFormat): string {
  return `${key}-${width}.${format}`;
}

export function variantUrl(key: string, width: number, format: ImageFormat): string {
  return `${MEDIA_PATH}/${variantName(key, width, format)}`;
}

/** `srcset` for one format: every stored width with its descriptor, so the browser picks by `sizes`. */
export function variantSrcSet(key: string, width: number, format: ImageFormat): string {
  return variantWidths(width)
    .map((w) => `${variantUrl(key, w, format)} ${w}w`)
    .join(", ");
}
