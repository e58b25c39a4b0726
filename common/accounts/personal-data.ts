import { avatarUrl } from "./avatar-url.ts";
import type { SessionUser } from "../shared/session-user.ts";

/** Who is looking, as far as the navigation cares (null means a visitor). */
export interface NavUser {
  id: string;
  name: string;
  isAdmin: boolean;
  /** The uploaded picture, else the initials avatar. */
  avatarUrl: string;
}

/**
 * What the personal parts of a page show (docs/decisions/045): who is signed in, their cart's count, and which of
 * the plants on the page they saved (their wishlist's hearts; only those the page shows, so it stays small).
 */
export interface PersonalData {
  user: NavUser | null;
  cartCount: number;
  saved: string[];
}

/** The navigation's view of a signed-in person. */
export function navUser(user: SessionUser): NavUser {
  return { id: user.id, name: user.name, isAdmin: user.isAdmin, avatarUrl: avatarUrl(user) };
}

/**
 * The marker a page shared by every signed-in shopper leaves in each personal part's place (its name captured, and
 * for a part of one card, such as a heart, its props as JSON in an attribute); the server puts the part rendered
 * for the person there.
 */
export const PERSONAL_PART_MARKER = /<template data-personal-part="([a-z-]+)"(?: data-props="([^"]*)")?><\/template>/g;

/** One marked place of a shared page: which part goes there, and the props of a card's part (undefined for the others). */
export interface MarkedPart {
  name: string;
  props: Record<string, unknown> | undefined;
}

/** The characters React escapes in an attribute's value, and what each stands for. */
const ATTRIBUTE_ESCAPES: Record<string, string> = { "&quot;": '"', "&#x27;": "'", "&lt;": "<", "&gt;": ">", "&amp;": "&" };

/** A marker found by PERSONAL_PART_MARKER, read back: its props are JSON that React wrote escaped into the attribute. */
export function readMarkedPart(match: RegExpMatchArray): MarkedPart {
  const attribute = match[2];
  if (attribute === undefined) return { name: match[1]!, props: undefined };
  const json = attribute.replace(/&(?:quot|#x27|lt|gt|amp);/g, (entity) => ATTRIBUTE_ESCAPES[entity]!);
  return { name: match[1]!, props: JSON.parse(json) as Record<string, unknown> };
}

/** Every marked place of a shared page, in order. */
export const markedPartsOf = (html: string): MarkedPart[] => [...html.matchAll(PERSONAL_PART_MARKER)].map(readMarkedPart);
