import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { APIError } from "better-auth/api";
import type { Kysely } from "kysely";
import { deleteAccountSchema } from "#common/accounts/account-change-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import type { DB } from "../../platform/db/schema.ts";
import { inShopperTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError, parseInput } from "../../platform/errors.ts";
import { requireSignedIn, type SessionCaller, type SessionOutcome, type SessionUser } from "../../platform/session-user.ts";
import { accountDeletedEmail } from "./account-change-mails.ts";
import type { AccountChangesContext } from "./account-changes-context.ts";
import { authHeaders, callAuth, sessionOutcome } from "./auth-calls.ts";
import { asProvenOwner } from "./owner-proof.ts";

// Deleting an account (decision 040), through Better Auth's own deleteUser, called in-process (its endpoints are
// closed to HTTP): the library checks the session and the password, then calls our beforeDelete, which removes
// everything of the person in ONE transaction of ours, the account's own rows included (the library runs its
// statements here without a transaction, so its own removal could not be part of one). The library's removal
// then finds nothing left, and expires the session cookie. The picture's files go once the transaction committed.

const ac = messages.accountChanges;

/** A deletion the accounts service started, for beforeDelete to carry out; any other call of the library's is refused. */
interface DeletionInProgress {
  ctx: AccountChangesContext;
  userId: string;
  /** The uploaded picture the account had, removed after commit. */
  picture: string | null;
}

const deletions = new AsyncLocalStorage<DeletionInProgress>();

/** Deletes the signed-in person's account, proven by its password (or a recent login for an account without one). */
export async function deleteAccount(ctx: AccountChangesContext, viewer: SessionUser | null, input: unknown, caller: SessionCaller): Promise<{ session: SessionOutcome }> {
  const user = requireSignedIn(viewer);
  const { password } = parseInput(deleteAccountSchema, input);
  // Asked again, under lock, in the transaction; asked here first so that the last admin's password costs nothing.
  if (user.isAdmin && !(await anotherAdminRemains(ctx.db, user.id, { lock: false }))) throw new ConflictError(ac.lastAdmin);
  const headers = await authHeaders(ctx.auth, caller);
  const deletion: DeletionInProgress = { ctx, userId: user.id, picture: null };
  const { headers: answer } = await callAuth(() =>
    asProvenOwner(ctx, user, password, caller, (typedPassword) =>
      deletions.run(deletion, () => ctx.auth.api.deleteUser({ body: typedPassword ? { password: typedPassword } : {}, headers, returnHeaders: true })),
    ),
  );
  ctx.events.info("account.deleted", { accountId: user.id });
  // Only a picture this service stored for this person is removed (anything else the column may hold is left).
  if (deletion.picture) await ctx.media.remove(deletion.picture, { owner: user.id });
  return { session: await sessionOutcome(ctx.auth, answer) };
}

/** Better Auth's beforeDelete: the deletion the accounts service started for `user`, in one transaction. */
export async function removeAccountRecords(user: { id: string }): Promise<void> {
  const deletion = deletions.getStore();
  if (deletion?.userId !== user.id) throw new APIError("FORBIDDEN", { message: "Accounts are deleted through the shop's own page." });
  // The shopper's lock: a checkout or cart change of theirs in flight finishes first, or waits and finds no account.
  deletion.picture = await inShopperTransaction(deletion.ctx, user.id, (trx) => removeRecords(deletion.ctx, trx, user.id));
}

async function removeRecords(ctx: AccountChangesContext, trx: Kysely<DB>, userId: string): Promise<string | null> {
  const account = await trx.selectFrom("users").select(["id", "name", "email", "image", "role"]).where("id", "=", userId).executeTakeFirst();
  if (!account) return null;
  if (account.role === "admin" && !(await anotherAdminRemains(trx, userId, { lock: ctx.dialect === "postgres" }))) throw new ConflictError(ac.lastAdmin);
  const { detachCustomer, detachReviews, emptyCart } = ctx.recordsElsewhere;
  await detachCustomer(trx, userId);
  const reviewed = await detachReviews(trx, userId);
  await emptyCart(trx, userId);
  // Reset links are stored by the account's id; a sign-in code by a hash of the address it was mailed to.
  await trx
    .deleteFrom("verifications")
    .where((eb) => eb.or([eb("value", "=", userId), eb("identifier", "=", hashedIdentifier(`sign-in-otp-${account.email.toLowerCase()}`))]))
    .execute();
  await trx.deleteFrom("sessions").where("userId", "=", userId).execute();
  await trx.deleteFrom("accounts").where("userId", "=", userId).execute();
  // Whatever else is keyed to the account (its activity log, its second factor) goes with it by the cascade of
  // its foreign key.
  await trx.deleteFrom("users").where("id", "=", userId).execute();
  await ctx.outbox.enqueue(trx, { kind: "account-deleted", reference: userId, to: account.email, ...accountDeletedEmail({ shopName: ctx.shopName, name: account.name }) });
  announce(ctx, trx, userId, reviewed);
  return account.image;
}

/**
 * Whether an admin other than `userId` remains. In the transaction on PostgreSQL (`lock`), every admin's row is
 * locked first, in one order, so two admins deleting themselves at once take turns and the second sees the first gone.
 */
async function anotherAdminRemains(db: Kysely<DB>, userId: string, { lock }: { lock: boolean }): Promise<boolean> {
  let admins = db.selectFrom("users").select("id").where("role", "=", "admin").orderBy("id");
  if (lock) admins = admins.forUpdate();
  return (await admins.execute()).some((admin) => admin.id !== userId);
}

/** How Better Auth stores a verification's identifier here (`storeIdentifier: "hashed"`): SHA-256, base64url. */
const hashedIdentifier = (identifier: string) => createHash("sha256").update(identifier).digest("base64url");

/** Beyond this many reviewed products, the deletion makes every listener re-read at once (as a rename does). */
const PRODUCT_EVENTS_MAX = 100;

/** After commit: the profile page is gone, and the pages of the products the person reviewed now say 'Anonymous'. */
function announce(ctx: Pick<AccountChangesContext, "changes">, trx: Kysely<DB>, userId: string, reviewed: string[]) {
  ctx.changes.publish(trx, { type: "profile", userId });
  if (reviewed.length > PRODUCT_EVENTS_MAX) return ctx.changes.publish(trx, { type: "resync" });
  for (const productId of new Set(reviewed)) ctx.changes.publish(trx, { type: "product", productId, aspects: ["reviews"] });
}

