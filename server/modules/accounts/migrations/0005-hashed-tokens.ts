import type { Kysely } from "kysely";

/**
 * From here on Better Auth stores only a SHA-256 of each reset token (`verification.storeIdentifier`, decision
 * 015). Rows written before hold tokens in clear, and Better Auth would still accept them (it falls back to the
 * clear identifier): they are deleted. Every row is a short-lived link (reset links last an hour; verification
 * links are signed tokens and never stored), so the cost is that a link mailed just before the upgrade must be
 * asked for again.
 */
export function hashedTokensMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await (db as Kysely<{ verifications: { id: string } }>).deleteFrom("verifications").execute();
    },
    async down() {
      // Nothing to restore: the deleted links are gone either way.
    },
  };
}
