// What an account's activity list may show (server/modules/accounts/security-events.ts records them; the account's
// security page names them). Shared, so the page and the server agree on the words.

export const SECURITY_EVENT_KINDS = [
  "signed-in",
  "sign-in-failed",
  "password-changed",
  "password-reset",
  "email-changed",
  "two-factor-enabled",
  "two-factor-disabled",
  "recovery-code-used",
  "session-ended",
  "provider-linked",
  "provider-unlinked",
] as const;

export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** How each event reads in the list; `method` (how someone signed in, which provider…) follows it when there is one. */
export const SECURITY_EVENT_LABELS: Record<SecurityEventKind, string> = {
  "signed-in": "Signed in",
  "sign-in-failed": "Failed sign-in",
  "password-changed": "Password changed",
  "password-reset": "Password reset",
  "email-changed": "E-mail address changed",
  "two-factor-enabled": "Two-factor authentication turned on",
  "two-factor-disabled": "Two-factor authentication turned off",
  "recovery-code-used": "Recovery code used",
  "session-ended": "Session ended",
  "provider-linked": "Sign-in provider linked",
  "provider-unlinked": "Sign-in provider unlinked",
};
