// The accounts module's operator events (docs/decisions/014-abuse-limits-and-operator-logs.md), declared here, not in
// the platform's event log, so that the platform names no feature.

declare module "../../platform/event-log.ts" {
  interface EventNames {
    /** A wrong password or unknown account at sign-in. */
    "sign-in.failed": true;
    /** Too many failed sign-ins: a sign-in code was mailed instead of another password try. */
    "sign-in.code-sent": true;
    /** A wrong current password on the change-password form. */
    "password-change.failed": true;
    /** Admin rights granted or revoked (the owner's command). */
    "admin.role-changed": true;
    /** A password was reset through a mailed link. */
    "password-reset.completed": true;
    /** A wrong password on the forms that change the e-mail address or delete the account. */
    "account-change.failed": true;
    /** An account's e-mail address changed (its new address confirmed the link). */
    "account.email-changed": true;
    /** An account was deleted by its owner. */
    "account.deleted": true;
  }
}

export {};
