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

/** What the personal parts of a page show (docs/decisions/045): who is signed in, and their cart's count. */
export interface PersonalData {
  user: NavUser | null;
  cartCount: number;
}

/** The navigation's view of a signed-in person. */
export function navUser(user: SessionUser): NavUser {
  return { id: user.id, name: user.name, isAdmin: user.isAdmin, avatarUrl: avatarUrl(user) };
}

/**
 * The marker a page shared by every signed-in shopper leaves in each personal part's place (its name captured);
 * the server puts the part rendered for the person there.
 */
export const PERSONAL_PART_MARKER = /<template data-personal-part="([a-z-]+)"><\/template>/g;
