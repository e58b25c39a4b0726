import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { z } from "zod";
import { emailSchema, idSchema } from "#common/shared/fields.ts";
import { messages } from "#common/shared/messages.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError, InvalidInputError, NotFoundError, parseInput } from "../../platform/errors.ts";
import type { MailOutbox } from "../../platform/mail/mail-outbox.ts";
import type { RateLimiter, RateRule } from "../../platform/rate-limit/rate-limit.ts";
import type { Sealer } from "../../platform/sealed-values.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { readStock, type RestockListener } from "../catalog/index.ts";
import { backInStockEmail, confirmAlertEmail, plantAndSize } from "./alerts-mail.ts";

// Back-in-stock alerts (docs/decisions/051): asked for on a sold-out size, confirmed by visitors from a mail, and
// mailed, oldest first and a few per unit, inside the transaction that restocked the size.

/** A restock of N units mails at most this many times N of the oldest subscribers; the rest wait for the next. */
export const ALERTS_PER_UNIT = 3;
/** However many units come back, one restock mails at most this many (its transaction is the owner's save). */
export const MAX_ALERTS_PER_RESTOCK = 300;
/** Alerts one address (or account) may wait on at once. */
export const MAX_ALERTS_PER_PERSON = 20;
/** A visitor's address not confirmed within this long is forgotten, and its link refused. */
export const UNCONFIRMED_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How many forgotten addresses one statement of the sweep deletes. */
const FORGET_BATCH = 500;
/** How many waiting people the overview counts per size; more shows as "N+". */
export const WAITING_COUNT_CAP = 1000;

/** Alerts asked for from one address on the network: what keeps the form from mailing strangers in bulk. */
export const alertRateRule: RateRule = { name: "stock-alert", limit: 10, windowMs: 10 * 60 * 1000, message: messages.alerts.tooManyRequests };
/** Confirmation mails to one address: a few, however many networks ask. */
export const alertConfirmationRateRule: RateRule = { name: "stock-alert-mail", limit: 3, windowMs: 60 * 60 * 1000, message: messages.alerts.tooManyRequests };

const subscribeSchema = z.object({ variantId: idSchema, email: z.string().optional() });
const visitorEmailSchema = z.object({ email: emailSchema });
const tokenSchema = z.object({ token: z.string().min(1).max(512) });

/**
 * The page of the mails' unsubscribe link. A POST to it, the mail programs' one-click unsubscribe (RFC 8058) among
 * them, is authorized by the link's token alone, so the server takes it from any origin (server/app.ts).
 */
export const UNSUBSCRIBE_PATH = "/alerts/unsubscribe";

/** The purpose the unsubscribe links' sealed addresses are sealed for (they are good for no other). */
const UNSUBSCRIBE_PURPOSE = "stock alert unsubscribe";

const digest = (token: string) => createHash("sha256").update(token).digest("base64url");

export interface AlertsOptions {
  outbox: MailOutbox;
  sealer: Sealer;
  rateLimiter: RateLimiter;
  shopName: string;
  publicUrl: URL;
  /** Now, in milliseconds: the tests move it a week on. */
  now?: () => number;
}

export type AlertsService = ReturnType<typeof createAlertsService>;

export type SubscribeOutcome = { state: "subscribed" } | { state: "confirmationSent" };

export function createAlertsService(database: Pick<Database, "db" | "dialect">, options: AlertsOptions) {
  const { db } = database;
  const { outbox, sealer, rateLimiter, shopName, publicUrl } = options;
  const now = options.now ?? Date.now;
  const link = (path: string, params: Record<string, string>) => {
    const url = new URL(path, publicUrl);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  };
  const unsubscribeUrl = (email: string) => link(UNSUBSCRIBE_PATH, { token: sealer.seal(UNSUBSCRIBE_PURPOSE, email) });

  /** The address an unsubscribe link is for (the page asks before it acts); 404 for a link this shop did not make. */
  function unsubscribeAddress(input: unknown): string {
    const { token } = parseInput(tokenSchema, input);
    const email = sealer.open(UNSUBSCRIBE_PURPOSE, token);
    if (email === null) throw new NotFoundError(messages.alerts.linkInvalid);
    return email;
  }

  /** The size asked for, refused when it is gone or has stock now. */
  async function soldOutSize(trx: Kysely<DB>, variantId: string) {
    const size = await readStock(trx, variantId);
    if (!size) throw new NotFoundError(messages.product.notFound);
    if (size.stock > 0) throw new ConflictError(messages.alerts.inStockNow);
    return size;
  }

  /** Refuses one alert more for an address that already waits on the most it may (a count of at most the limit). */
  async function checkLimit(trx: Kysely<DB>, email: string) {
    const held = trx.selectFrom("stock_alerts").select("id").where("email", "=", email).limit(MAX_ALERTS_PER_PERSON).as("held");
    const { n } = await trx.selectFrom(held).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    if (Number(n) >= MAX_ALERTS_PER_PERSON) throw new ConflictError(messages.alerts.tooMany(MAX_ALERTS_PER_PERSON));
  }

  /**
   * Tells `restocked` sizes' oldest confirmed subscribers, in the restock's own transaction (the catalog calls it
   * while it holds the size's row): at most ALERTS_PER_UNIT per unit back are taken off the list and mailed; the
   * rest stay for the next restock. The delete answers only the rows it removed, so even two transactions
   * reaching the same alerts could not mail one twice.
   */
  const restocked: RestockListener = async (trx, { productId, variantId, unitsBack }) => {
    const count = Math.min(MAX_ALERTS_PER_RESTOCK, ALERTS_PER_UNIT * unitsBack);
    const oldest = trx
      .selectFrom("stock_alerts")
      .select("id")
      .where("variant_id", "=", variantId)
      .where("confirmed_at", "is not", null)
      .orderBy("created_at")
      .orderBy("id")
      .limit(count);
    const due = await trx.deleteFrom("stock_alerts").where("id", "in", oldest).returning(["id", "email", "created_at"]).execute();
    if (!due.length) return;
    const size = await readStock(trx, variantId);
    if (!size) return;
    const plant = plantAndSize(size.name, size.label);
    const productUrl = link(`/product/${productId}`, { variant: variantId });
    // Oldest first into the outbox too, so the worker sends them in the order they waited.
    due.sort((a, b) => toIsoString(a.created_at).localeCompare(toIsoString(b.created_at)) || a.id.localeCompare(b.id));
    for (const alert of due) {
      // With the one-click unsubscribe headers: the outbox keeps them with the mail until it is sent.
      const mail = backInStockEmail({ shopName, plant, productUrl, unsubscribeUrl: unsubscribeUrl(alert.email) });
      await outbox.enqueue(trx, { kind: "stock-alert", reference: variantId, to: alert.email, ...mail });
    }
  };

  return {
    restocked,

    /**
     * "Notify me when it's back" on a sold-out size. A signed-in shopper with a verified address is subscribed at
     * once; anyone else gets a confirmation mail and nothing more until its link is followed. Asking again for the
     * same size is answered as the first time (a visitor's unconfirmed ask sends a fresh link).
     */
    async subscribe(viewer: SessionUser | null, input: unknown, origin: { clientIp: string | null }): Promise<SubscribeOutcome> {
      const { variantId, email: typed } = parseInput(subscribeSchema, input);
      const signedIn = viewer !== null && viewer.emailVerified;
      const email = (signedIn ? viewer.email : parseInput(visitorEmailSchema, { email: viewer?.email ?? typed }).email).toLowerCase();
      if (!signedIn) {
        await rateLimiter.hit(alertRateRule, origin.clientIp ?? "unknown");
        await rateLimiter.hit(alertConfirmationRateRule, email);
      }
      const at = new Date(now()).toISOString();
      const token = randomBytes(32).toString("base64url");
      const outcome = await inWriteTransaction(database, async (trx) => {
        const size = await soldOutSize(trx, variantId);
        const existing = await trx.selectFrom("stock_alerts").select(["id", "confirmed_at"]).where("variant_id", "=", variantId).where("email", "=", email).executeTakeFirst();
        if (existing?.confirmed_at) return { state: "subscribed" as const };
        if (!existing) await checkLimit(trx, email);
        if (signedIn) {
          if (existing) await trx.updateTable("stock_alerts").set({ confirmed_at: at, token_hash: null, user_id: viewer.id }).where("id", "=", existing.id).execute();
          else {
            await trx
              .insertInto("stock_alerts")
              .values({ id: randomUUID(), variant_id: variantId, user_id: viewer.id, email, confirmed_at: at, token_hash: null, created_at: at })
              .onConflict((oc) => oc.columns(["variant_id", "email"]).doNothing())
              .execute();
          }
          return { state: "subscribed" as const };
        }
        // A fresh link each time; the week to follow it still counts from the first ask.
        if (existing) await trx.updateTable("stock_alerts").set({ token_hash: digest(token) }).where("id", "=", existing.id).execute();
        else {
          await trx
            .insertInto("stock_alerts")
            .values({ id: randomUUID(), variant_id: variantId, user_id: null, email, confirmed_at: null, token_hash: digest(token), created_at: at })
            .execute();
        }
        const mail = confirmAlertEmail({ shopName, plant: plantAndSize(size.name, size.label), confirmUrl: link("/alerts/confirm", { token }) });
        await outbox.enqueue(trx, { kind: "stock-alert-confirmation", reference: variantId, to: email, ...mail });
        return { state: "confirmationSent" as const };
      });
      return outcome;
    },

    /**
     * What a confirmation link is, before anything is done with it (the page asks for a press, so a mail scanner
     * following links confirms nothing): the plant it is for, or why it cannot be used.
     */
    async readConfirmLink(input: unknown): Promise<{ state: "valid"; plant: string } | { state: "invalid" | "expired" }> {
      const parsed = tokenSchema.safeParse(input);
      if (!parsed.success) return { state: "invalid" };
      const alert = await db.selectFrom("stock_alerts").select(["variant_id", "created_at"]).where("token_hash", "=", digest(parsed.data.token)).executeTakeFirst();
      if (!alert) return { state: "invalid" };
      if (Date.parse(toIsoString(alert.created_at)) <= now() - UNCONFIRMED_TTL_MS) return { state: "expired" };
      const size = await readStock(db, alert.variant_id);
      return size ? { state: "valid", plant: plantAndSize(size.name, size.label) } : { state: "invalid" };
    },

    /** A confirmation link followed: the alert waits from now on. Answers the size to link back to. */
    async confirm(input: unknown): Promise<{ productId: string; variantId: string; plant: string }> {
      const { token } = parseInput(tokenSchema, input);
      return inWriteTransaction(database, async (trx) => {
        const alert = await trx.selectFrom("stock_alerts").select(["id", "variant_id", "created_at"]).where("token_hash", "=", digest(token)).executeTakeFirst();
        if (!alert) throw new NotFoundError(messages.alerts.linkInvalid);
        // The sweep forgets it (forgetUnconfirmed); until then the link is refused all the same.
        if (Date.parse(toIsoString(alert.created_at)) <= now() - UNCONFIRMED_TTL_MS) throw new InvalidInputError(messages.alerts.linkExpired);
        await trx.updateTable("stock_alerts").set({ confirmed_at: new Date(now()).toISOString(), token_hash: null }).where("id", "=", alert.id).execute();
        const size = await readStock(trx, alert.variant_id);
        if (!size) throw new NotFoundError(messages.alerts.linkInvalid);
        return { productId: size.productId, variantId: alert.variant_id, plant: plantAndSize(size.name, size.label) };
      });
    },

    unsubscribeAddress,

    /** Stops every alert of the link's address (at most MAX_ALERTS_PER_PERSON rows); following it twice is harmless. */
    async unsubscribe(input: unknown): Promise<{ removed: number }> {
      const email = unsubscribeAddress(input);
      const removed = await db.deleteFrom("stock_alerts").where("email", "=", email).executeTakeFirst();
      return { removed: Number(removed.numDeletedRows) };
    },

    /**
     * Forgets visitors' addresses not confirmed within a week, FORGET_BATCH at a time through the unconfirmed index,
     * until none is left. Answers how many were forgotten. Run now and then by the server (and safe on every copy).
     */
    async forgetUnconfirmed(): Promise<number> {
      const before = new Date(now() - UNCONFIRMED_TTL_MS).toISOString();
      let forgotten = 0;
      for (;;) {
        const stale = db.selectFrom("stock_alerts").select("id").where("confirmed_at", "is", null).where("created_at", "<=", before).orderBy("created_at").limit(FORGET_BATCH);
        const result = await db.deleteFrom("stock_alerts").where("id", "in", stale).executeTakeFirst();
        forgotten += Number(result.numDeletedRows);
        if (result.numDeletedRows < BigInt(FORGET_BATCH)) return forgotten;
      }
    },
  };
}

/**
 * How many confirmed people wait for each of `variantIds` (the overview's low-stock list), each counted up to
 * WAITING_COUNT_CAP through the waiting index: one statement, its cost bounded by the sizes listed.
 */
export async function countWaiting(db: Kysely<DB>, variantIds: readonly string[]): Promise<Map<string, { count: number; atLeast: boolean }>> {
  const counts = new Map<string, { count: number; atLeast: boolean }>();
  if (!variantIds.length) return counts;
  const rows = await sql<{ variant_id: string; n: number | string }>`
    select v.id as variant_id, (select count(*) from (select 1 from stock_alerts a where a.variant_id = v.id and a.confirmed_at is not null limit ${WAITING_COUNT_CAP}) capped) as n
    from (${sql.join(variantIds.map((id) => sql`select cast(${id} as text) as id`), sql` union all `)}) v`.execute(db);
  for (const row of rows.rows) {
    const n = Number(row.n);
    if (n > 0) counts.set(row.variant_id, { count: n, atLeast: n >= WAITING_COUNT_CAP });
  }
  return counts;
}
