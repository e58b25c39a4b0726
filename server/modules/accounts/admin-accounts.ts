import { randomInt } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toFlag } from "../../platform/db/values.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { NotFoundError } from "../../platform/errors.ts";
import { ADMIN_COMMAND, recordAdminChange } from "../audit/index.ts";
import type { Auth } from "./auth/auth.ts";
import { findUser } from "./account-records.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { callAuth } from "./auth-calls.ts";

// The admin role: the account made or promoted from ADMIN_EMAIL at start-up, and the admin command's grants.

/** The name an admin account made from ADMIN_EMAIL starts with (editable on its profile). */
const ADMIN_NAME = "Shop Admin";

/**
 * ADMIN_EMAIL + ADMIN_PASSWORD at start-up: create that account, or promote it; e-mail counts as verified.
 * An unverified account under that address may be anybody's (whoever registered it first), so it takes
 * ADMIN_PASSWORD and loses its sessions before it is promoted.
 */
export async function ensureAdmin(
  { auth, db, dialect, events }: Pick<AccountsContext, "auth" | "db" | "dialect" | "events">,
  { email, password }: { email: string; password: string },
): Promise<"created" | "promoted"> {
  const existing = await findUser(db, email);
  if (!existing) {
    const username = await freeUsername(db, email);
    await callAuth(() => auth.api.createUser({ body: { email, password, name: ADMIN_NAME, role: "admin", data: { username } } }));
  } else if (!existing.emailVerified) {
    // Whoever registered the address first never proved it: their password, sessions and profile go.
    await resetAccount(auth, existing.id, password);
    const username = await freeUsername(db, email);
    await db
      .updateTable("users")
      .set({ name: ADMIN_NAME, username, displayUsername: username, image: null, phone: null, address: null, location: null })
      .where("id", "=", existing.id)
      .execute();
  }
  await setRole(db, dialect, email, "admin", { verify: true }, "ADMIN_EMAIL at start-up");
  const outcome = existing ? "promoted" : "created";
  events.info("admin.role-changed", { accountId: existing?.id ?? (await findUser(db, email))?.id ?? null, role: "admin", by: "ADMIN_EMAIL", outcome });
  return outcome;
}

/** For the admin CLI: grant (e-mail then counts as verified, as with ADMIN_EMAIL) or revoke the admin role. */
export async function setAdmin({ db, dialect, events }: Pick<AccountsContext, "db" | "dialect" | "events">, email: string, isAdmin: boolean): Promise<void> {
  const user = await findUser(db, email);
  if (!user) throw new NotFoundError(`There is no account with the e-mail ${email}.`);
  await setRole(db, dialect, email, isAdmin ? "admin" : "user", { verify: isAdmin }, "admin command");
  events.info("admin.role-changed", { accountId: user.id, role: isAdmin ? "admin" : "user", by: "admin command" });
}

/** A new password through Better Auth's own hasher, and every session of the account signed out. */
async function resetAccount(auth: Auth, userId: string, password: string) {
  const context = await auth.$context;
  const hash = await context.password.hash(password);
  if (await context.internalAdapter.findCredentialAccount(userId)) await context.internalAdapter.updatePassword(userId, hash);
  else await context.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hash });
  await context.internalAdapter.deleteUserSessions(userId);
}

/** Sets the role, recording a change of it in the activity (by whom: `by`, the command or the setting). */
async function setRole(db: Kysely<DB>, dialect: Dialect, email: string, role: "admin" | "user", { verify }: { verify: boolean }, by: string) {
  await inWriteTransaction({ db, dialect }, async (trx) => {
    const before = await trx.selectFrom("users").select(["id", "name", "email", "role"]).where(sql<string>`lower(email)`, "=", email.toLowerCase()).executeTakeFirst();
    await trx
      .updateTable("users")
      .set({ role, ...(verify ? { emailVerified: toFlag(dialect, true) } : {}), updatedAt: new Date().toISOString() })
      .where(sql<string>`lower(email)`, "=", email.toLowerCase())
      .execute();
    const was = before?.role === "admin" ? "admin" : "user";
    if (!before || was === role) return;
    const label = `${before.name} <${before.email}>`;
    const summary = role === "admin" ? `Admin role granted to ${label}` : `Admin role taken from ${label}`;
    await recordAdminChange(trx, { ...ADMIN_COMMAND, name: by }, { thing: { kind: "account", id: before.id, label }, summary, changes: { role: { before: was, after: role } } });
  });
}

/** A username for an account made from the environment: the e-mail's local part, made unique. */
async function freeUsername(db: Kysely<DB>, email: string): Promise<string> {
  const base = (email.split("@")[0] ?? "admin").replace(/[^A-Za-z0-9_.]/g, "").slice(0, 24).padEnd(3, "_").toLowerCase();
  for (let candidate = base; ; candidate = `${base}${randomInt(1000, 9999)}`) {
    const taken = await db.selectFrom("users").select("id").where("username", "=", candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
}
