import { data, type AppLoadContext } from "react-router";
import { shopCookie } from "./cookies.ts";

/**
 * The address a verification e-mail just went to, so /verify can offer to send it again, and after a sign-up the
 * id of the account it answered, so that the link followed in this browser verifies without asking for the
 * password (decision 008). Sealed with the auth secret (decision 011): an address is personal data and never sits
 * in a cookie in clear, and an id in the clear could be set by anyone. It lives as long as a verification link.
 * Path=/: after a form sent with JavaScript, /verify's data comes from /verify.data, which a Path=/verify cookie misses.
 */
const pendingEmailCookie = shopCookie("plant-shop.pending-email", { httpOnly: true, sameSite: "lax", maxAge: 24 * 60 * 60 });
const PURPOSE = "pending-email";

/** Who /verify is waiting for: the address, and the account its sign-up in this browser answered, if any. */
export interface PendingSignUp {
  email: string;
  accountId: string | null;
}

/** The Set-Cookie header that remembers `email` (and the account signed up here, if any) for /verify. */
export function rememberPendingEmail(context: AppLoadContext, email: string, accountId: string | null = null): Promise<string> {
  return pendingEmailCookie(context).serialize(context.sealer.seal(PURPOSE, JSON.stringify({ email, accountId } satisfies PendingSignUp)));
}

/** What was remembered for /verify, or null (none, expired, or not one this shop sealed). */
export async function pendingSignUp(context: AppLoadContext, request: Request): Promise<PendingSignUp | null> {
  const value: unknown = await pendingEmailCookie(context).parse(request.headers.get("cookie"));
  const opened = typeof value === "string" ? context.sealer.open(PURPOSE, value) : null;
  return opened === null ? null : readPending(opened);
}

/**
 * A form's failure that also remembers the address for /verify (e.g. a login refused until it is verified). The
 * account a sign-up in this browser answered stays remembered if it was for the same address.
 */
export async function withPendingEmail<T>(context: AppLoadContext, request: Request, failure: ReturnType<typeof data<T>>, email: string) {
  const pending = await pendingSignUp(context, request);
  const accountId = pending?.email.toLowerCase() === email.toLowerCase() ? pending.accountId : null;
  const headers = new Headers(failure.init?.headers);
  headers.append("Set-Cookie", await rememberPendingEmail(context, email, accountId));
  return data(failure.data, { ...failure.init, headers });
}

/** The sealed text: JSON since the account id joined it; a cookie sealed before that holds the address alone. */
function readPending(opened: string): PendingSignUp {
  try {
    const parsed: unknown = JSON.parse(opened);
    if (typeof parsed === "object" && parsed !== null && "email" in parsed && typeof parsed.email === "string") {
      const accountId = "accountId" in parsed && typeof parsed.accountId === "string" ? parsed.accountId : null;
      return { email: parsed.email, accountId };
    }
  } catch {
    // Not JSON: an address sealed by the previous version.
  }
  return { email: opened, accountId: null };
}
