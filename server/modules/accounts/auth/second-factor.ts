import { magicLink, twoFactor } from "better-auth/plugins";
import { ALSO_NEEDS_SECOND_FACTOR, MAGIC_LINK_MINUTES, SECOND_FACTOR_PENDING_MINUTES, TRUSTED_DEVICE_DAYS } from "./auth-rules.ts";
import { sendMagicLinkMail } from "./mail-senders.ts";

/**
 * Better Auth's two-factor plugin with an authenticator app and recovery codes (no codes by e-mail or SMS: its
 * OTP variant stays unconfigured, so its endpoints refuse). Its table is ours in name, two_factors.
 *
 * The plugin asks for the second factor only after the sign-ins it knows (/sign-in/email and the like). Every other
 * way in that ends in a session must ask too, or it would go around the second factor: its own after-hook, unchanged,
 * is also matched on ALSO_NEEDS_SECOND_FACTOR (the e-mailed link, and any other that is added there).
 */
export function secondFactorPlugin(shopName: string) {
  const plugin = twoFactor({
    issuer: shopName,
    schema: { twoFactor: { modelName: "two_factors" } },
    backupCodeOptions: { amount: 10, storeBackupCodes: "encrypted" },
    twoFactorCookieMaxAge: SECOND_FACTOR_PENDING_MINUTES * 60,
    trustDeviceMaxAge: TRUSTED_DEVICE_DAYS * 24 * 60 * 60,
    // The plugin's own cap on consecutive wrong codes for an account, from anywhere: 10, then 15 minutes locked.
    accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: 15 * 60 },
  });
  const [afterSignIn, ...others] = plugin.hooks.after;
  if (!afterSignIn || others.length) throw new Error("The two-factor plugin's hooks changed: check secondFactorPlugin against the library");
  const alsoAfter = new Set<string>(ALSO_NEEDS_SECOND_FACTOR);
  return {
    ...plugin,
    hooks: {
      after: [{ matcher: (context: { path?: string }) => afterSignIn.matcher(context as never) || alsoAfter.has(context.path ?? ""), handler: afterSignIn.handler }],
    },
  };
}

/**
 * Better Auth's magic-link plugin: a single-use link by e-mail that signs an existing account in, never creates one.
 * The mail goes out through our outbox, with a link to our page, only for an address that has an account; the answer
 * is the same either way.
 */
export function magicLinkPlugin(hooks: Parameters<typeof sendMagicLinkMail>[0]) {
  return magicLink({
    expiresIn: MAGIC_LINK_MINUTES * 60,
    disableSignUp: true,
    storeToken: "hashed",
    sendMagicLink: ({ email, token }) => sendMagicLinkMail(hooks, { email, token }),
  });
}
