import type { AuthHooksContext } from "./hooks-context.ts";
import { recordSecurityEvent } from "../security-events.ts";
import { sendPasswordChangedMail } from "./mail-senders.ts";
import { endpointCaller } from "./security-activity.ts";

/**
 * After a password was reset with a link. Using one reset link ends every other link of the account: an older
 * e-mail left in an inbox cannot be used after the password was reset with a newer one. A reset link is the only
 * per-account row the shop keeps in `verifications` (verification links are signed tokens, not rows), so all of
 * them go.
 */
export async function afterPasswordReset(
  ctx: Pick<AuthHooksContext, "authContext" | "events" | "database" | "outbox" | "logger" | "shopName" | "publicUrl">,
  user: { id: string; email: string; name: string; emailVerified: boolean },
) {
  const context = await ctx.authContext();
  await context.adapter.deleteMany({ model: "verification", where: [{ field: "value", value: user.id }] });
  // The link came by e-mail, so the address is proven: an account never verified can sign in with the new
  // password (and whoever registered the address without owning it has lost the account to its owner).
  if (!user.emailVerified) await context.internalAdapter.updateUser(user.id, { emailVerified: true });
  ctx.events.info("password-reset.completed", { accountId: user.id });
  await recordSecurityEvent(ctx.database.db, { userId: user.id, kind: "password-reset", ...endpointCaller() });
  // The owner hears of every new password, so a stranger's reset does not go unnoticed.
  await sendPasswordChangedMail(ctx, user);
}
