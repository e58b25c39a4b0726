import type { ImageRef } from "#common/catalog/catalog-types.ts";

const PLACEHOLDER: ImageRef = { url: "/illustrations/placeholder.svg", width: 800, height: 800, alt: "" };

/**
 * An image with its intrinsic size (no layout shift), lazy unless it is above the fold.
 * A missing image shows the placeholder illustration.
 */
export function Picture({
  image,
  alt,
  eager = false,
  className,
  sizes,
}: {
  image: ImageRef | null;
  alt?: string;
  eager?: boolean;
  className?: string;
  sizes?: string;
}) {
  const shown = image ?? PLACEHOLDER;
  return (
    <img
      src={shown.url}
      width={shown.width}
      height={shown.height}
      alt={alt ?? shown.alt}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className={className}
      sizes={sizes}
      {...(eager ? { fetchPriority: "high" as const } : {})}
    />
  );
}
