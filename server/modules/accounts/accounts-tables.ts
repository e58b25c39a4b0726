import type { ColumnType } from "kysely";
import type { Timestamp } from "../../platform/db/values.ts";

// The accounts' tables as Kysely sees them, created by ./migrations and added to the database's type (DB) here, so
// that the platform names no feature. They are Better Auth's tables and keep its camelCase column names
// (migration 0002-accounts); verifications is Better Auth's alone and not typed here.

/** A boolean column: 0/1 on SQLite, true/false on PostgreSQL. */
type Flag = ColumnType<boolean | number, boolean | number, boolean | number>;

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
  /** The PIN code of the saved delivery details (migration 0031). */
  shipPin: ColumnType<string | null, string | null | undefined, string | null>;
  location: string | null;
  /** Set by Better Auth's two-factor plugin once an authenticator app is confirmed (migration 0016-two-factor). */
  twoFactorEnabled: Flag | null;
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
  /** Migration 0020-session-last-used: written by session-last-use.ts only (Better Auth leaves it empty). */
  lastUsedAt: ColumnType<string | Date | null, string | null | undefined, string | null>;
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

/** Better Auth's two-factor plugin's table: the authenticator secret and recovery codes, both encrypted by the library. */
export interface TwoFactorTable {
  id: string;
  secret: string;
  backupCodes: string;
  userId: string;
  verified: Flag | null;
  failedVerificationCount: number | null;
  lockedUntil: Timestamp | null;
}

/** Better Auth's stored one-time values: reset links (by the account's id), sign-in codes (by a hash of the address). */
export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Migration 0015-security-events: what the account's owner sees in its activity list (security-events.ts). */
export interface SecurityEventTable {
  id: string;
  user_id: string;
  kind: string;
  method: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    users: UserTable;
    security_events: SecurityEventTable;
    sessions: SessionTable;
    accounts: AccountTable;
    two_factors: TwoFactorTable;
    verifications: VerificationTable;
  }
}
