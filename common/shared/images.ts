/**
 * The picture files a person may choose, by name (docs/product.md, Pictures). The server decides by content, never by the name:
 * server/platform/media/media.ts decodes exactly these kinds; the form's file picker offers them.
 */
export const ACCEPTED_IMAGE_TYPES = ["png", "jpg", "jpeg", "svg", "gif", "webp", "bmp", "tiff", "ico"] as const;

/** The `accept` attribute of a picture field: each accepted type (and TIFF's short name), or any image. */
export const IMAGE_FILE_ACCEPT = [...ACCEPTED_IMAGE_TYPES, "tif"].map((type) => `.${type}`).concat("image/*").join(",");
