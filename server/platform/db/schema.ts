import type { ColumnType, Generated } from "kysely";
import type { MAIL_STATUSES } from "./migrations/0006-mail-outbox.ts";
import type { Timestamp } from "./values.ts";

// Kysely's view of the tables created in ./migrations (docs/decisions/002-database-portability.md).
export interface CategoryTable {
  id: string;
  name: string;
  description: string;
  image_url: string;
  image_width: number;
  image_height: number;
  /** Set when the image was made from an upload: the key of its variants (migration 0009, decision 022). */
  image_media_key: string | null;
  created_at: Timestamp;
}

export interface ProductTable {
  id: string;
  name: string;
  description: string;
  price_paise: number;
  stock: number;
  category_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Maintained with every review write (migration 0008-reviews): the average needs no aggregate. */
  review_count: Generated<number>;
  rating_total: Generated<number>;
}

export interface ProductImageTable {
  id: string;
  product_id: string;
  position: number;
  url: string;
  width: number;
  height: number;
  /** Set when the image was made from an upload: the key of its variants (migration 0009, decision 022). */
  media_key: string | null;
}

export interface ContactMessageTable {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  client_ip: string | null;
  created_at: Timestamp;
  /** When an admin marked it handled; null while it waits (migration 0011-admin-overview). */
  handled_at: ColumnType<string | Date | null, string | null | undefined, string | null>;
  /** A digest of the sender's address and the text, to find a repeat; null for messages stored before 0014. */
  content_hash: ColumnType<string | null, string | null | undefined, never>;
}

export interface RateLimitTable {
  key: string;
  hits: number;
  /** Milliseconds since the epoch when the current window ends. */
  resets_at: number;
}

/** A boolean column: 0/1 on SQLite, true/false on PostgreSQL. */
type Flag = ColumnType<boolean | number, boolean | number, boolean | number>;

// Tables owned by Better Auth keep its camelCase column names (migration 0002-accounts).
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Flag;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  username: string | null;
  displayUsername: string | null;
  role: string | null;
  banned: Flag | null;
  banReason: string | null;
  banExpires: Timestamp | null;
  phone: string | null;
  address: string | null;
  location: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  impersonatedBy: string | null;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface CartItemTable {
  id: string;
  user_id: string;
  /** Null once the product is gone: the line stays, unavailable, until the shopper removes it. */
  product_id: string | null;
  quantity: number;
  created_at: Timestamp;
}


export interface OrderTable {
  id: string;
  user_id: string;
  /**
   * One of ORDER_STATUSES (common/orders/order-schemas.ts). A string here: the platform knows no feature's
   * types (eslint's platform-reach); the orders module parses what it reads with that list.
   */
  status: string;
  subtotal_paise: number;
  shipping_paise: number;
  total_paise: number;
  ship_name: string;
  ship_phone: string;
  ship_address: string;
  payment_method: string;
  idempotency_key: string;
  /** The day of order_daily_totals this order is counted on (migration 0011-admin-overview). */
  counted_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** The number people quote; null for orders placed before 0014, whose number is made from their id. */
  number: ColumnType<string | null, string | null | undefined, never>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderLineTable {
  id: string;
  order_id: string;
  position: number;
  product_id: string | null;
  name: string;
  unit_price_paise: number;
  quantity: number;
}

/** The statuses the table's check constraint allows, from the one list that constraint is built from. */
export type MailStatus = (typeof MAIL_STATUSES)[number];

export interface MailOutboxTable {
  id: string;
  kind: string;
  reference: string | null;
  recipient: string;
  subject: string;
  text_body: string | null;
  html_body: string | null;
  status: MailStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  claim: string | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: ColumnType<string | Date | null, string | null | undefined, string | null>;
}

/** One row per one-time seed that has run (migration 0007-seeding-record). */
export interface SeedRunTable {
  name: string;
  ran_at: Timestamp;
  categories_created: number;
  products_created: number;
}

/** Migration 0008-reviews. user_id is NULL once the author's account is gone ('Anonymous'). */
export interface ReviewTable {
  id: string;
  product_id: string;
  user_id: string | null;
  rating: number;
  text: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One day's orders in the shop's time zone, kept by the orders module as orders are placed and cancelled. */
export interface OrderDailyTotalTable {
  /** YYYY-MM-DD in the shop's time zone. */
  day: string;
  orders_placed: number;
  orders_cancelled: number;
  /** Totals of the day's orders that were not cancelled. */
  revenue_paise: number;
}

export interface DB {
  cart_items: CartItemTable;
  orders: OrderTable;
  order_lines: OrderLineTable;
  users: UserTable;
  sessions: SessionTable;
  accounts: AccountTable;
  categories: CategoryTable;
  products: ProductTable;
  product_images: ProductImageTable;
  contact_messages: ContactMessageTable;
  rate_limits: RateLimitTable;
  mail_outbox: MailOutboxTable;
  seed_runs: SeedRunTable;
  reviews: ReviewTable;
  order_daily_totals: OrderDailyTotalTable;
}
