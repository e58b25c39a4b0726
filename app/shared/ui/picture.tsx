import type { ImageRef } from "#common/catalog/catalog-types.ts";
import { isMediaKey, variantSrcSet } from "#common/shared/media-variants.ts";

const PLACEHOLDER: ImageRef = { url: "/illustrations/placeholder.svg", width: 800, height: 800, alt: "" };

/** A card in the shop's grids: two columns on a phone, three from `sm`, four from `lg` (container max 80rem). */
export const CARD_SIZES = "(min-width: 1024px) 300px, (min-width: 640px) 33vw, 50vw";

/**
 * An image with its intrinsic size (no layout shift), lazy unless it is above the fold.
 * An uploaded image offers AVIF and WebP at every stored width, and `sizes` tells the browser how wide it is
 * shown, so a phone picks the 320 or 640 px file (decision 022). A missing image shows the placeholder illustration.
 */
export function Picture({
  image,
  alt,
  eager = false,
  className,
  sizes = "100vw",
}: {
  image: ImageRef | null;
  alt?: string;
  eager?: boolean;
  className?: string;
  /** How wide the image is shown at each viewport width; without it the browser assumes the whole viewport. */
  sizes?: string;
}) {
  const shown = image ?? PLACEHOLDER;
  const img = (
    <img
      src={shown.url}
      width={shown.width}
      height={shown.height}
      alt={alt ?? shown.alt}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className={className}
      {...(isMediaKey(shown.mediaKey) ? { srcSet: variantSrcSet(shown.mediaKey, shown.width, "webp"), sizes } : {})}
      {...(eager ? { fetchPriority: "high" as const } : {})}
    />
  );
  if (!isMediaKey(shown.mediaKey)) return img;
  return (
    // display: contents, so the <img> lays out exactly as it would alone.
    <picture className="contents">
      <source type="image/avif" srcSet={variantSrcSet(shown.mediaKey, shown.width, "avif")} sizes={sizes} />
      {img}
    </picture>
  );
}
