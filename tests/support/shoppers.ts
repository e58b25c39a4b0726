import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../server/platform/db/schema.ts";
import type { SessionUser } from "../../server/platform/session-user.ts";

/** A verified shopper written straight into the users table, for service tests that need many of them. */
export async function createShopper(db: Kysely<DB>, dialect: "sqlite" | "postgres", overrides: Partial<SessionUser> = {}): Promise<SessionUser> {
  const id = randomUUID();
  const user: SessionUser = {
    id,
    name: "Shopper",
    email: `shopper-${id}@example.com`,
    username: `s_${id.slice(0, 12)}`,
    image: null,
    emailVerified: true,
    isAdmin: false,
    ...overrides,
  };
  const now = new Date().toISOString();
  await db
    .insertInto("users")
    .values({
      id,
      name: user.name,
      email: user.email,
      username: user.username,
      emailVerified: dialect === "sqlite" ? Number(user.emailVerified) : user.emailVerified,
      role: user.isAdmin ? "admin" : "user",
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return user;
}

export const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", pin: "411001" };
export const checkoutInput = (key: string = randomUUID()) => ({ ...shipping, idempotencyKey: key });
