import { sql, type Kysely } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import type { SessionUser } from "../../platform/session-user.ts";

interface AuthUser {
  id: string;
  name: string;
  email: string;
  image?: string | null | undefined;
  emailVerified: boolean;
  username?: string | null | undefined;
  displayUsername?: string | null | undefined;
  role?: string | null | undefined;
  twoFactorEnabled?: boolean | number | null | undefined;
}

/** What the shop asks of accounts beyond their role (REQUIRE_ADMIN_2FA). */
export interface AccountPolicy {
  requireAdminTwoFactor: boolean;
}

export function toSessionUser(user: AuthUser, policy: AccountPolicy = { requireAdminTwoFactor: false }): SessionUser {
  // An admin without two-factor keeps none of the admin's rights while the shop asks for it, so no check of isAdmin
  // anywhere can let them through; requireAdmin says why.
  const adminNeedsTwoFactor = policy.requireAdminTwoFactor && user.role === "admin" && !user.twoFactorEnabled;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.displayUsername ?? user.username ?? "",
    image: user.image ?? null,
    emailVerified: user.emailVerified,
    isAdmin: user.role === "admin" && !adminNeedsTwoFactor,
    ...(adminNeedsTwoFactor ? { adminNeedsTwoFactor: true as const } : {}),
  };
}

/** The account under an e-mail address, whatever its case. */
export async function findUser(db: Kysely<DB>, email: string) {
  const row = await db
    .selectFrom("users")
    .select(["id", "emailVerified"])
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
  return row && { id: row.id, emailVerified: Boolean(row.emailVerified) };
}
