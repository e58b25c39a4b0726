// How a size is named where the plant's name alone would be ambiguous (docs/decisions/048): a message about stock,
// an order's line, a mail. A product sold in one size has no label, and is named as it always was.

/** 'Fiddle Leaf Fig (Large · 10" pot)', or the name alone for a product's only variant. */
export function sellableName(name: string, label: string | null | undefined): string {
  return label ? `${name} (${label})` : name;
}
