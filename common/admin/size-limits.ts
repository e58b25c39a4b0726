// The limits of a plant's sizes, shared by the product form's schema and its page (which must not load zod first).

/** At most this many sizes per plant: the product page lists them all as choices. */
export const MAX_SIZES = 20;
/** A size's label, such as 'Extra large · 12" pot'. */
export const MAX_SIZE_LABEL = 60;
/** A SKU: letters, digits, '-', '_' and '.'. */
export const MAX_SKU = 40;
