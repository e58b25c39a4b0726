import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openDatabase } from "../server/platform/db/client.ts";
import { migrateToLatest } from "../server/migrations.ts";
import { createProduct } from "../tests/support/factories.ts";
import { createPostgresDatabase, insertShoppers } from "../tests/support/shop-process.ts";
import { runPhase, SHOPPERS, withOrderDesk, type Measured, type Tally } from "./checkout.ts";

// The checkout's own SQL, run by a plain script: node-postgres alone (no HTTP, no Hono, no Kysely, no services),
// the same statements in the same transactions, with the same locks, the same isolation (PostgreSQL's default,
// read committed) and the same concurrency as the checkout bench: fifty shoppers, each with a session and cart
// rows of their own, over a pool of ten connections (the shop's default pool), every parameterised statement
// prepared by name on its connection as the shop's pool does (docs/decisions/030). The checkout bench prints the
// shop's orders per second as a ratio of this script's, measured in the same run: a faster or busier machine
// moves both alike.
//
// How the statements were captured: a production server (build/server/main.js) on a fresh PostgreSQL database
// whose `log_statement` was 'all' (`ALTER DATABASE … SET log_statement = 'all'`), one signed-in shopper adding a
// plant to the cart and ordering it, three times over, then three times more with a 10 % code applied between the
// two, its orders confirmed after each by a connection opened before the logging began (so not in the log; five
// pending orders would refuse the sixth); every statement the server sent, as PostgreSQL logged it with its
// parameters, is below, in its order, with the texts as they were logged. The plant has one size, and the adds name
// none, as the checkout bench's do. Per add to the cart and order:
//
//   add to cart  the session (its last use written only when 5 minutes old); BEGIN with the shopper's advisory
//                lock (one simple query); the conditional upsert of the line of the product's first size (found
//                inside the statement); COMMIT; the cart read back (lines, sizes, products) and the code applied to it
//   apply a code the session; the guessing limit's hit; BEGIN with the lock; the cart; the code by its text (its
//                terms, the shopper's use, its categories); the code put on the cart; COMMIT (the answer is
//                summarised from those reads)
//   order        the session; the idempotency key's claim and the checkout count; BEGIN with the lock; the
//                earlier order, the pending count, the applied code and the cart; the order, its lines, its mail
//                and the emptied cart in one statement; the stock taken, the product's total then the size's, and
//                the day counted (with a code, also its use counted, its row written and the code taken off the
//                cart); COMMIT
//   afterwards   the change feed's NOTIFY, one for all the changes committed while one is in flight; the mail
//                worker's claim of up to ten due mails and their marking as sent (LISTEN for the feed, as the
//                shop's one connection does)
//
// The refusals' paths (a short stock on adding, the line removed after a refused order) are stand-ins, not captured:
// the plenty phase whose rate the ratio uses refuses nothing. So is the stock statement of a line that is not an
// order's last (the captured carts held one line; it is the last line's without the day counted).
//
// What the shop does besides SQL is left out on purpose, as that is what the ratio measures: HTTP, the signed
// cookie, routing, validation, sealing the mail's bodies (the script stores random text of the sealed bodies'
// length instead, so PostgreSQL writes as much), the order's JSON, the mail file the worker writes.

/** The shopper's advisory lock's first key ('PS' + 1), as the shop takes it. */
const SHOPPER_LOCKS = 0x5053_0001;
/** The shop's default pool of PostgreSQL connections. */
const POOL_SIZE = 10;
const SHIPPING_FEE_PAISE = 2000;
const MAX_PENDING_ORDERS = 5;
const CART_LINE_CAP = 999;
/** The checkout limit (10 an hour) at the checkout bench's RATE_LIMIT_SCALE of 10000. */
const CHECKOUT_LIMIT = 10 * 10_000;
const HOUR_MS = 60 * 60_000;
const SESSION_TOUCH_MS = 5 * 60_000;
const MAIL_BATCH = 10;
const MAIL_LEASE_MS = 10 * 60_000;
/** The lengths of a placed order's sealed text and HTML bodies as the capture logged them. */
const SEALED_TEXT_CHARS = 592;
const SEALED_HTML_CHARS = 2908;
const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001" };

const SQL = {
  session: `select "s"."id" as "sessionId", "s"."lastUsedAt", "s"."expiresAt", "s"."createdAt", "u"."id", "u"."name", "u"."email", "u"."image", "u"."emailVerified", "u"."username", "u"."displayUsername", "u"."role", "u"."twoFactorEnabled" from "sessions" as "s" inner join "users" as "u" on "u"."id" = "s"."userId" where "s"."token" = $1`,
  touchSession: `update "sessions" set "lastUsedAt" = $1 where "id" = $2 and ("lastUsedAt" is null or "lastUsedAt" <= $3)`,
  addLine: `insert into "cart_items" ("id", "user_id", "product_id", "variant_id", "quantity", "created_at") select $1 as "id", $2 as "user_id", "v"."product_id", "v"."id", coalesce(ci.quantity, 0) + $3 as "quantity", $4 as "created_at" from (select "id", "product_id", "label", "sku", "price_paise", "compare_at_paise", "stock" from "product_variants") as "v" left join "cart_items" as "ci" on "ci"."variant_id" = "v"."id" and "ci"."user_id" = $5 where "v"."product_id" = $6 and "v"."id" = coalesce($7, ((select "id" from "product_variants" where "product_id" = $8 order by "position", "id" limit $9))) and coalesce(ci.quantity, 0) + $10 <= "v"."stock" and coalesce(ci.quantity, 0) + $11 <= $12 on conflict ("user_id", "variant_id") do update set "quantity" = "excluded"."quantity" returning "quantity"`,
  cart: `select "ci"."id", "ci"."quantity", "v"."product_id" as "product_id", "v"."id" as "variant_id", "v"."label" as "variant_label", "v"."sku", "p"."name", "v"."price_paise", "v"."compare_at_paise", "p"."sale_starts_at", "p"."sale_ends_at", "v"."stock", "p"."category_id", "img"."url", "img"."width", "img"."height", "img"."media_key" from "cart_items" as "ci" left join (select "id", "product_id", "label", "sku", "price_paise", "compare_at_paise", "stock" from "product_variants") as "v" on "v"."id" = "ci"."variant_id" left join (select "id", "name", "sale_starts_at", "sale_ends_at", "category_id" from "products") as "p" on "p"."id" = "v"."product_id" left join (select "product_id", "url", "width", "height", "media_key" from "product_images" where "position" = $1) as "img" on "img"."product_id" = "p"."id" where "ci"."user_id" = $2 order by "ci"."created_at", "ci"."id"`,
  /** The code applied to the cart, read with the cart's answer (no row without one). */
  appliedCode: `select "c"."id" as "coupon_id", "c"."code" as "coupon_code", "c"."kind" as "coupon_kind", "c"."amount" as "coupon_amount", "c"."min_subtotal_paise" as "coupon_min_subtotal_paise", "c"."starts_at" as "coupon_starts_at", "c"."ends_at" as "coupon_ends_at", "c"."max_uses" as "coupon_max_uses", "c"."used_count" as "coupon_used_count", "c"."once_per_customer" as "coupon_once_per_customer", "c"."paused" as "coupon_paused", exists (select 1 as "one" from "coupon_uses" as "u" where "u"."coupon_id" = "c"."id" and "u"."user_id" = $1) as "coupon_used_by_shopper", (select string_agg(cc.category_id, ',') as "ids" from "coupon_categories" as "cc" where "cc"."coupon_id" = "c"."id") as "coupon_category_ids" from "coupons" as "c" inner join "cart_coupons" as "a" on "a"."coupon_id" = "c"."id" where "a"."user_id" = $2`,
  removeLine: `delete from "cart_items" where "id" = $1 and "user_id" = $2`,
  claimCheckout: `with "claim" as (insert into "rate_limits" ("key", "hits", "resets_at") values ($1, $2, $3) on conflict ("key") do update set "hits" = case when rate_limits.resets_at <= $4 then 1 else rate_limits.hits + 1 end, "resets_at" = case when rate_limits.resets_at <= $5 then $6 else rate_limits.resets_at end returning "hits", "resets_at"), "counted" as (insert into "rate_limits" ("key", "hits", "resets_at") select $7, $8, $9 where exists (select "hits" from "claim" where "hits" <= $10) on conflict ("key") do update set "hits" = case when rate_limits.resets_at <= $11 then 1 else rate_limits.hits + 1 end, "resets_at" = case when rate_limits.resets_at <= $12 then $13 else rate_limits.resets_at end returning "hits", "resets_at") select (select "hits" from "claim") as "claimHits", (select "hits" from "counted") as "hits", (select "resets_at" from "counted") as "resetsAt"`,
  keyPendingAndCart: `select "cp".*, "k"."earlier", "k"."pending", "line"."id", "line"."quantity", "line"."product_id", "line"."variant_id", "line"."variant_label", "line"."sku", "line"."name", "line"."price_paise", "line"."compare_at_paise", "line"."sale_starts_at", "line"."sale_ends_at", "line"."stock", "line"."category_id" from (select (select "id" from "orders" where "user_id" = $1 and "idempotency_key" = $2) as "earlier", (select count(*) as "n" from (select "id" from "orders" where "user_id" = $3 and "status" = $4 and "payment_method" = $5 limit $6) as "p") as "pending") as "k" left join (select "c"."id" as "coupon_id", "c"."code" as "coupon_code", "c"."kind" as "coupon_kind", "c"."amount" as "coupon_amount", "c"."min_subtotal_paise" as "coupon_min_subtotal_paise", "c"."starts_at" as "coupon_starts_at", "c"."ends_at" as "coupon_ends_at", "c"."max_uses" as "coupon_max_uses", "c"."used_count" as "coupon_used_count", "c"."once_per_customer" as "coupon_once_per_customer", "c"."paused" as "coupon_paused", exists (select 1 as "one" from "coupon_uses" as "u" where "u"."coupon_id" = "c"."id" and "u"."user_id" = $7) as "coupon_used_by_shopper", (select string_agg(cc.category_id, ',') as "ids" from "coupon_categories" as "cc" where "cc"."coupon_id" = "c"."id") as "coupon_category_ids" from "coupons" as "c" inner join "cart_coupons" as "a" on "a"."coupon_id" = "c"."id" where "a"."user_id" = $8) as "cp" on true left join (select "ci"."id", "ci"."quantity", "v"."product_id" as "product_id", "v"."id" as "variant_id", "v"."label" as "variant_label", "v"."sku", "p"."name", "v"."price_paise", "v"."compare_at_paise", "p"."sale_starts_at", "p"."sale_ends_at", "v"."stock", "p"."category_id" from "cart_items" as "ci" left join (select "id", "product_id", "label", "sku", "price_paise", "compare_at_paise", "stock" from "product_variants") as "v" on "v"."id" = "ci"."variant_id" left join (select "id", "name", "sale_starts_at", "sale_ends_at", "category_id" from "products") as "p" on "p"."id" = "v"."product_id" where "ci"."user_id" = $9) as "line" on true order by "line"."product_id", "line"."variant_id"`,
  storeOrder: `with "o" as (insert into "orders" ("id", "user_id", "status", "subtotal_paise", "shipping_paise", "discount_paise", "coupon_code", "total_paise", "ship_name", "ship_phone", "ship_address", "payment_method", "idempotency_key", "number", "counted_on", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)), "l" as (insert into "order_lines" ("id", "order_id", "position", "product_id", "variant_id", "variant_label", "sku", "name", "unit_price_paise", "quantity") select l.id, $18, l.position - 1, l.product_id, l.variant_id, l.variant_label, l.sku, l.name, l.unit_price_paise, l.quantity
            from unnest($19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::bigint[], $26::integer[])
            with ordinality as l(id, product_id, variant_id, variant_label, sku, name, unit_price_paise, quantity, position)), "m" as (insert into "mail_outbox" ("id", "kind", "reference", "recipient", "subject", "text_body", "html_body", "status", "next_attempt_at", "created_at") values ($27, $28, $29, $30, $31, $32, $33, $34, $35, $36)) delete from "cart_items" where id = any($37::text[])`,
  /** The apply: the guessing limit's hit, the code read by its text, the code put on the cart. */
  couponGuess: `insert into "rate_limits" ("key", "hits", "resets_at") values ($1, $2, $3) on conflict ("key") do update set "hits" = case when rate_limits.resets_at <= $4 then 1 else rate_limits.hits + 1 end, "resets_at" = case when rate_limits.resets_at <= $5 then $6 else rate_limits.resets_at end returning "hits", "resets_at"`,
  couponByCode: `select "c"."id" as "coupon_id", "c"."code" as "coupon_code", "c"."kind" as "coupon_kind", "c"."amount" as "coupon_amount", "c"."min_subtotal_paise" as "coupon_min_subtotal_paise", "c"."starts_at" as "coupon_starts_at", "c"."ends_at" as "coupon_ends_at", "c"."max_uses" as "coupon_max_uses", "c"."used_count" as "coupon_used_count", "c"."once_per_customer" as "coupon_once_per_customer", "c"."paused" as "coupon_paused", exists (select 1 as "one" from "coupon_uses" as "u" where "u"."coupon_id" = "c"."id" and "u"."user_id" = $1) as "coupon_used_by_shopper", (select string_agg(cc.category_id, ',') as "ids" from "coupon_categories" as "cc" where "cc"."coupon_id" = "c"."id") as "coupon_category_ids" from "coupons" as "c" where "c"."code" = $2`,
  applyCode: `insert into "cart_coupons" ("user_id", "coupon_id") values ($1, $2) on conflict ("user_id") do update set "coupon_id" = $3`,
  /** The last line's stock taken and the day counted, with a code: also its use counted (after the stock), its row written and the code taken off the cart. */
  takeStockCountDayAndClaimCode: `with "taken_product" as (update "products" set "stock" = stock - $1, "updated_at" = $2 where "id" = $3 and "stock" >= $4 returning "stock"), "taken" as (update "product_variants" set "stock" = stock - $5, "updated_at" = $6 where "id" = $7 and "product_id" = $8 and "stock" >= $9 and exists (select 1 from taken_product) returning "price_paise", "stock", (select stock from taken_product) as "product_stock"), "counted" as (insert into "order_daily_totals" ("day", "orders_placed", "orders_cancelled", "revenue_paise") select $10, $11, $12, $13 where exists (select 1 as "one" from "taken") on conflict ("day") do update set "orders_placed" = order_daily_totals.orders_placed + 1, "revenue_paise" = order_daily_totals.revenue_paise + excluded.revenue_paise), "claimed_use" as (update "coupons" set "used_count" = used_count + 1 where "id" = $14 and "paused" = $15 and ("max_uses" is null or "used_count" < "max_uses") and exists (select 1 as "one" from taken as "t") returning "id"), "use_row" as (insert into "coupon_uses" ("order_id", "coupon_id", "user_id", "created_at") select $16 as "order_id", "claimed_use"."id", $17 as "user_id", $18 as "created_at" from "claimed_use"), "code_off_cart" as (delete from "cart_coupons" where "user_id" = $19) select t.price_paise as "price_paise", t.stock as "stock", t.product_stock as "product_stock", (select id from claimed_use) as "claimed" from taken as "t"`,
  takeStock: `with "taken_product" as (update "products" set "stock" = stock - $1, "updated_at" = $2 where "id" = $3 and "stock" >= $4 returning "stock"), "taken" as (update "product_variants" set "stock" = stock - $5, "updated_at" = $6 where "id" = $7 and "product_id" = $8 and "stock" >= $9 and exists (select 1 from taken_product) returning "price_paise", "stock", (select stock from taken_product) as "product_stock") select "price_paise", "stock", "product_stock" from "taken"`,
  takeStockAndCountDay: `with "taken_product" as (update "products" set "stock" = stock - $1, "updated_at" = $2 where "id" = $3 and "stock" >= $4 returning "stock"), "taken" as (update "product_variants" set "stock" = stock - $5, "updated_at" = $6 where "id" = $7 and "product_id" = $8 and "stock" >= $9 and exists (select 1 from taken_product) returning "price_paise", "stock", (select stock from taken_product) as "product_stock"), "counted" as (insert into "order_daily_totals" ("day", "orders_placed", "orders_cancelled", "revenue_paise") select $10, $11, $12, $13 where exists (select 1 as "one" from "taken") on conflict ("day") do update set "orders_placed" = order_daily_totals.orders_placed + 1, "revenue_paise" = order_daily_totals.revenue_paise + excluded.revenue_paise) select "price_paise", "stock", "product_stock" from "taken"`,
  notify: `select pg_notify($1, payload) from unnest($2::text[]) with ordinality as p(payload, n) order by n`,
  claimMail: `update "mail_outbox" set "next_attempt_at" = $1, "attempts" = "attempts" + $2, "claim" = $3 where id = any(array((select "id" from "mail_outbox" where "status" = $4 and "next_attempt_at" <= $5 order by "next_attempt_at" limit $6 for update skip locked))) and "status" = $7 returning "id", "kind", "reference", "recipient", "subject", "text_body", "html_body", "attempts"`,
  /** Its `in (…)` list has one parameter per mail, as the shop's has. */
  markSent: (mails: number) =>
    `update "mail_outbox" set "status" = $1, "claim" = $2, "finished_at" = $3, "text_body" = $4, "html_body" = $5, "last_error" = $6 where "id" in (${Array.from({ length: mails }, (_, i) => `$${i + 7}`).join(", ")}) and "claim" = $${mails + 7}`,
};

/** The shop's prepared statements: each text gets a name once, so each connection parses it once. */
const names = new Map<string, string>();
const named = (text: string, values: unknown[]) => {
  let name = names.get(text);
  if (name === undefined) names.set(text, (name = `bare_${names.size}`));
  return { name, text, values };
};

interface Session {
  sessionId: string;
  lastUsedAt: Date | null;
  expiresAt: Date;
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

/** One shopper of the script: the session token their cookie carries. */
export interface BareShopper {
  token: string;
}

/** The shop's day of an order (its time zone's date). */
const shopDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata", year: "numeric", month: "2-digit", day: "2-digit" });
const CODE = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const orderNumber = () => `PS-${Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => CODE[randomInt(32)]).join("")).join("-")}`;
/** Random text of `chars` characters, as incompressible as a sealed body. */
const sealedText = (chars: number) => randomBytes(Math.ceil((chars * 3) / 4)).toString("base64url").slice(0, chars);

const fail = (tally: Tally, what: string) => tally.failures.set(what, (tally.failures.get(what) ?? 0) + 1);

/** The checkout's statements over one pool, with the change feed's and the mail worker's beside them. */
export function bareCheckout(pool: pg.Pool) {
  const query = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => pool.query<R>(named(text, values));

  /** The session behind a token; its last use written when 5 minutes old. Undefined when signed out. */
  async function session(token: string): Promise<Session | undefined> {
    const { rows } = await query<Session>(SQL.session, [token]);
    const found = rows[0];
    const now = Date.now();
    if (!found || found.expiresAt.getTime() <= now) return undefined;
    if (!found.lastUsedAt || found.lastUsedAt.getTime() <= now - SESSION_TOUCH_MS) await query(SQL.touchSession, [new Date(now), found.sessionId, new Date(now - SESSION_TOUCH_MS)]);
    return found;
  }

  /** BEGIN and the shopper's lock in one simple query, `work`, then COMMIT (ROLLBACK when it throws). */
  async function inShopperTransaction<T>(userId: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query(`begin; select pg_advisory_xact_lock(${SHOPPER_LOCKS}, hashtext('${userId}'))`);
      try {
        const value = await work(client);
        await client.query("commit");
        return value;
      } catch (error) {
        await client.query("rollback");
        throw error;
      }
    } finally {
      client.release();
    }
  }

  // The change feed: a NOTIFY carries every change committed while the one before it was in flight.
  let waiting = new Set<string>();
  let sending = false;
  const feedId = randomUUID();
  function publish(productId: string) {
    waiting.add(productId);
    if (sending) return;
    const send = () => {
      if (!waiting.size) return void (sending = false);
      const changes = [...waiting].map((id) => ({ type: "product", productId: id, aspects: ["stock"] }));
      waiting = new Set();
      sending = true;
      query(SQL.notify, ["plant_shop_changes", [JSON.stringify({ from: feedId, changes })]]).then(send, send);
    };
    send();
  }

  // The mail worker: woken by each order queued, it claims due mails ten at a time until none is left.
  let mailRunning: Promise<void> | undefined;
  let mailWoken = false;
  function wakeMailWorker() {
    mailWoken = true;
    mailRunning ??= (async () => {
      while (mailWoken) {
        mailWoken = false;
        for (;;) {
          const now = Date.now();
          const token = randomUUID();
          const { rows } = await query<{ id: string }>(SQL.claimMail, [new Date(now + MAIL_LEASE_MS), 1, token, "pending", new Date(now), MAIL_BATCH, "pending"]);
          if (!rows.length) break;
          await query(SQL.markSent(rows.length), ["sent", null, new Date(), null, null, null, ...rows.map((row) => row.id), token]);
        }
      }
    })().finally(() => (mailRunning = undefined));
  }

  /** POST /api/cart/items: answers the cart's line of the product, or undefined when the stock is short. */
  async function addToCart(token: string, productId: string, quantity: number): Promise<{ id: string } | undefined | "signed out"> {
    const user = await session(token);
    if (!user) return "signed out";
    const stored = await inShopperTransaction(user.id, async (client) => {
      // No size named (as the checkout bench's adds): the product's first size, found inside the statement.
      const { rows } = await client.query(named(SQL.addLine, [randomUUID(), user.id, quantity, new Date(), user.id, productId, null, productId, 1, quantity, quantity, CART_LINE_CAP]));
      return rows.length > 0;
    });
    if (!stored) return undefined;
    const cart = await readCart(user.id);
    return cart.find((line) => line.product_id === productId);
  }

  /** DELETE /api/cart/items/:id, under the shopper's lock. */
  async function removeLine(token: string, lineId: string) {
    const user = await session(token);
    if (!user) return;
    await inShopperTransaction(user.id, (client) => client.query(named(SQL.removeLine, [lineId, user.id])));
    await readCart(user.id);
  }

  /** The cart as the API answers it: its lines, then the code applied to it. */
  async function readCart(userId: string) {
    const cart = await query<{ id: string; product_id: string; variant_id: string }>(SQL.cart, [0, userId]);
    await query(SQL.appliedCode, [userId, userId]);
    return cart.rows;
  }

  /** PUT /api/cart/coupon: the guessing limit's hit, then under the lock the cart and the code read and the code put on the cart; answered from those reads. */
  async function applyCode(token: string, code: string): Promise<"applied" | "unknown" | "signed out"> {
    const user = await session(token);
    if (!user) return "signed out";
    const now = Date.now();
    await query(SQL.couponGuess, [`coupon-guess:${user.id}`, 1, now + HOUR_MS, now, now, now + HOUR_MS]);
    return inShopperTransaction(user.id, async (client) => {
      await client.query(named(SQL.cart, [0, user.id]));
      const { rows } = await client.query<{ coupon_id: string }>(named(SQL.couponByCode, [user.id, code]));
      const coupon = rows[0];
      if (!coupon) return "unknown";
      await client.query(named(SQL.applyCode, [user.id, coupon.coupon_id, coupon.coupon_id]));
      return "applied";
    });
  }

  /** POST /api/orders, Cash on Delivery: the order's lines, or why it was refused. */
  async function placeOrder(token: string, key: string): Promise<{ placed: { productId: string; quantity: number }[] } | { refused: string }> {
    const user = await session(token);
    if (!user) return { refused: "signed out" };
    if (!user.emailVerified) return { refused: "unverified" };
    const now = Date.now();
    const { rows: claimed } = await query<{ claimHits: number; hits: number | null }>(SQL.claimCheckout, [
      `checkout-key:${user.id} ${key}`, 1, now + HOUR_MS, now, now, now + HOUR_MS,
      `checkout:${user.id}`, 1, now + HOUR_MS, 1, now, now, now + HOUR_MS,
    ]);
    if (claimed[0]!.claimHits === 1 && (claimed[0]!.hits ?? 0) > CHECKOUT_LIMIT) return { refused: "rate limited" };
    const orderId = randomUUID();
    type Row = { coupon_id: string | null; coupon_kind: "percent" | "amount" | null; coupon_amount: string | null; coupon_code: string | null; earlier: string | null; pending: string; id: string | null; quantity: number | null; product_id: string | null; variant_id: string | null; variant_label: string | null; sku: string | null; name: string | null; price_paise: number | null; stock: number | null };
    return inShopperTransaction(user.id, async (client) => {
      const run = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => client.query<R>(named(text, values));
      const { rows } = await run<Row>(SQL.keyPendingAndCart, [user.id, key, user.id, "pending", "Cash on Delivery", MAX_PENDING_ORDERS, user.id, user.id, user.id]);
      if (rows[0]!.earlier) return { placed: [] };
      if (Number(rows[0]!.pending) >= MAX_PENDING_ORDERS) throw new Refused("too many pending");
      const lines = rows.filter((row) => row.id !== null);
      if (!lines.length) throw new Refused("empty cart");
      if (lines.some((line) => line.variant_id === null || line.stock! < line.quantity!)) throw new Refused("short");
      const subtotal = lines.reduce((sum, line) => sum + line.price_paise! * line.quantity!, 0);
      // The code as the shop takes it: a percentage rounded half-up once of the subtotal, or an amount, capped.
      const coupon = rows[0]!;
      const amount = Number(coupon.coupon_amount ?? 0);
      const discount = coupon.coupon_id === null ? 0 : Math.min(subtotal, coupon.coupon_kind === "percent" ? Math.floor((subtotal * amount + 50) / 100) : amount);
      const total = subtotal - discount + SHIPPING_FEE_PAISE;
      const at = new Date();
      const day = shopDay.format(at);
      const number = orderNumber();
      const rowsOfOrder = [
        orderId, user.id, "pending", subtotal, SHIPPING_FEE_PAISE, discount, coupon.coupon_code, total, shipping.name, shipping.phone, shipping.address, "Cash on Delivery", key, number, day, at, at,
        orderId, lines.map(() => randomUUID()), lines.map((line) => line.product_id), lines.map((line) => line.variant_id), lines.map((line) => line.variant_label || null), lines.map((line) => line.sku),
        lines.map((line) => line.name), lines.map((line) => line.price_paise), lines.map((line) => line.quantity),
        randomUUID(), "order-placed", orderId, user.email, `Order ${number} is placed`, sealedText(SEALED_TEXT_CHARS), sealedText(SEALED_HTML_CHARS), "pending", at, at,
        lines.map((line) => line.id),
      ];
      await run(SQL.storeOrder, rowsOfOrder);
      for (const [i, line] of lines.entries()) {
        const last = i === lines.length - 1;
        // The product's total, then the size's stock (withStockTaken), in one statement.
        const taking = [line.quantity, at, line.product_id, line.quantity, line.quantity, at, line.variant_id, line.product_id, line.quantity];
        const counting = [...taking, day, 1, 0, total];
        const { rows: taken } = await (last && coupon.coupon_id !== null
          ? run<{ price_paise: number; claimed?: string | null }>(SQL.takeStockCountDayAndClaimCode, [...counting, coupon.coupon_id, false, orderId, user.id, at, user.id])
          : last
            ? run<{ price_paise: number; claimed?: string | null }>(SQL.takeStockAndCountDay, counting)
            : run<{ price_paise: number; claimed?: string | null }>(SQL.takeStock, taking));
        if (!taken.length) throw new Refused("short");
        if (taken[0]!.price_paise !== line.price_paise) throw new Refused("cart changed");
        if (last && coupon.coupon_id !== null && !taken[0]!.claimed) throw new Refused("code used up");
      }
      return { placed: lines.map((line) => ({ productId: line.product_id!, quantity: line.quantity! })) };
    }).then(
      (result) => {
        for (const line of result.placed) publish(line.productId);
        if (result.placed.length) wakeMailWorker();
        return result;
      },
      (error: unknown) => {
        if (error instanceof Refused) return { refused: error.message };
        throw error;
      },
    );
  }

  return { addToCart, removeLine, applyCode, placeOrder, drained: () => mailRunning ?? Promise.resolve() };
}

class Refused extends Error {}

/**
 * The bench's step, as checkout.ts's `buy`: 1–3 units in the cart, then the order; after a refusal, the line removed.
 * With a `code`, applied between the two, as the checkout bench's coupon phase does.
 */
function buyBare(checkout: ReturnType<typeof bareCheckout>, productId: string, code?: string) {
  return async (shopper: BareShopper, tally: Tally) => {
    let line: { id: string } | undefined | "signed out";
    try {
      line = await checkout.addToCart(shopper.token, productId, randomInt(1, 4));
      if (line && line !== "signed out" && code && (await checkout.applyCode(shopper.token, code)) !== "applied") return void fail(tally, "coupon refused");
    } catch {
      return void fail(tally, "cart error");
    }
    if (line === "signed out") return void fail(tally, "cart 401");
    if (!line) return void tally.addsRefused++;
    const started = performance.now();
    try {
      const answer = await checkout.placeOrder(shopper.token, `bench-${randomUUID()}`);
      tally.latencies.push(performance.now() - started);
      tally.requests++;
      if ("placed" in answer) {
        tally.placed++;
        tally.unitsSold += answer.placed.filter((l) => l.productId === productId).reduce((n, l) => n + l.quantity, 0);
      } else if (answer.refused === "short" || answer.refused === "too many pending" || answer.refused === "cart changed") {
        tally.refused++;
        await checkout.removeLine(shopper.token, line.id);
      } else {
        fail(tally, `order ${answer.refused}`);
      }
    } catch {
      fail(tally, "order error");
    }
  };
}

/**
 * Checkouts by the plain script on a fresh database of its own (the shop's schema, migrated as the shop migrates):
 * `warmupSeconds` not counted, then `seconds` counted, the fifty shoppers buying one well-stocked plant over and over
 * while the order desk confirms their orders, as in the checkout bench's "plenty" phase. Its CPU is this process's.
 */
export async function benchCheckoutBare(adminUrl: string, seconds: number, warmupSeconds: number, { withCode = false }: { withCode?: boolean } = {}): Promise<Measured> {
  const target = await createPostgresDatabase(adminUrl, "plant_shop_bare");
  const harness = openDatabase({ databaseUrl: target.url, poolSize: 2 });
  const pool = new pg.Pool({ connectionString: target.url, max: POOL_SIZE, keepAlive: true });
  // The feed's one listening connection, as each shop process keeps.
  const listener = new pg.Client({ connectionString: target.url });
  // A connection lost while idle is reported as an 'error' event, which would end the process unheard; a query on
  // a lost connection fails by itself and is counted as a failure.
  pool.on("error", () => undefined);
  listener.on("error", () => undefined);
  try {
    await migrateToLatest(harness);
    const { db } = harness;
    await listener.connect();
    listener.on("notification", () => undefined);
    await listener.query("listen plant_shop_changes");
    const plenty = await createProduct(db, { name: "Bench Monstera", price_paise: 49_900, stock: 100_000 });
    const shoppers: BareShopper[] = (await insertShoppers(db, SHOPPERS, { password: "monstera-deliciosa-77", prefix: "bare" })).map(({ cookie }) => ({
      token: decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)).split(".")[0]!,
    }));
    const checkout = bareCheckout(pool);
    if (warmupSeconds > 0) {
      const warmUp = await createProduct(db, { name: "Bench Warm-up Fern", price_paise: 19_900, stock: 100_000 });
      await withOrderDesk({ db }, () => runPhase(shoppers, warmupSeconds, buyBare(checkout, warmUp.id), [process.pid]));
      await checkout.drained();
    }
    // With a code: a 10 % code without a use limit applied before every order, as in the checkout bench's coupon phase.
    if (withCode) {
      await db
        .insertInto("coupons")
        .values({ id: randomUUID(), code: "BENCH10", kind: "percent", amount: 10, min_subtotal_paise: null, starts_at: null, ends_at: null, max_uses: null, once_per_customer: false, paused: false, created_at: new Date().toISOString() })
        .execute();
    }
    const measured = await withOrderDesk({ db }, () => runPhase(shoppers, seconds, buyBare(checkout, plenty.id, withCode ? "BENCH10" : undefined), [process.pid]));
    await checkout.drained();
    // Both rows: the plant's only size (its id is the product's) and the product's total.
    for (const table of ["products", "product_variants"] as const) {
      const { stock } = await db.selectFrom(table).select("stock").where("id", "=", plenty.id).executeTakeFirstOrThrow();
      if (stock + measured.tally.unitsSold !== 100_000) throw new Error(`bare checkout: ${table} stock ${stock} + sold ${measured.tally.unitsSold} is not the initial 100000`);
    }
    return measured;
  } finally {
    await listener.end().catch(() => undefined);
    await pool.end();
    await harness.destroy();
    await target.drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.error("usage: TEST_DATABASE_URL=postgres://… npx tsx bench/checkout-bare.ts");
    process.exit(2);
  }
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  // Alone, the script also runs the coupon phase's statements (add, apply, order with the code), after the plain one.
  for (const withCode of [false, true]) {
    const { tally, seconds: took, cpu } = await benchCheckoutBare(adminUrl, seconds, Number(process.env.BENCH_CHECKOUT_WARMUP_SECONDS ?? 3), { withCode });
    const failures = [...tally.failures].map(([what, n]) => `${what}: ${n}`).join(", ");
    console.log(
      `bare SQL checkout${withCode ? " with a code" : ""}: ${(tally.requests / took).toFixed(1)} orders/s (${tally.placed} placed, ${tally.refused} refused, ${tally.addsRefused} adds refused${failures ? `, ${failures}` : ""}), ` +
        `CPU per order: ${cpu ? (cpu.server / tally.requests).toFixed(2) : "?"} ms this script, ${cpu ? (cpu.postgres / tally.requests).toFixed(2) : "?"} ms PostgreSQL`,
    );
  }
}
