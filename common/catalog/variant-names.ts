// How a size is named where the plant's name alone would be ambiguous (docs/decisions/048): a message about stock,
// an order's line, a mail. A product sold in one size has no label, and is named as it always was.

/** 'Fiddle Leaf Fig (Large · 10" pot)', or the name alone for a product's only variant. */
export function sellableName(name: string, label: string | null | undefined): string {
  return label ? `${name} (${label})` : name;
}

/** 'Size: Large · 10" pot', as a cart or order line names its size under the plant's name; none for a one-size plant. */
export function sizeLine(label: string | null | undefined): string | null {
  return label ? `Size: ${label}` : null;
}

/**
 * The size a product page shows (docs/decisions/048): the one its `?variant=` names, or the first when that names
 * none of the product's (absent, mistyped, or a size since removed), so an old link still opens the plant.
 */
export function chosenVariant<V extends { id: string }>(variants: readonly V[], requested: string | null | undefined): V {
  const first = variants[0];
  if (!first) throw new Error("a product has at least one size");
  return (requested ? variants.find((variant) => variant.id === requested) : undefined) ?? first;
}
