/**
 * The name of a wishlist heart's place in a page every signed-in shopper shares (docs/decisions/050): the page
 * marks each card's heart with it and the plant's id, and the server fills it with the person's heart.
 */
export const HEART_PART_NAME = "heart";
