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
}

export function toSessionUser(user: AuthUser): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.displayUsername ?? user.username ?? "",
    image: user.image ?? null,
    emailVerified: user.emailVerified,
    isAdmin: user.role === "admin",
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
