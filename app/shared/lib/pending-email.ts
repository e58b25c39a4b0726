import { data, type AppLoadContext } from "react-router";
import { shopCookie } from "./cookies.ts";

/**
 * The address a verification e-mail just went to, so /verify can offer to send it again. Sealed with the
 * auth secret (decision 011): an address is personal data and never sits in a cookie in clear. Path=/: after
 * a form sent with JavaScript, /verify's data comes from /verify.data, which a Path=/verify cookie misses.
 */
const pendingEmailCookie = shopCookie("plant-shop.pending-email", { httpOnly: true, sameSite: "lax", maxAge: 60 * 60 });
const PURPOSE = "pending-email";

/** The Set-Cookie header that remembers `email` for /verify. */
export function rememberPendingEmail(context: AppLoadContext, email: string): Promise<string> {
  return pendingEmailCookie(context).serialize(context.services.sealer.seal(PURPOSE, email));
}

/** The address remembered for /verify, or null (none, expired, or not one this shop sealed). */
export async function pendingEmail(context: AppLoadContext, request: Request): Promise<string | null> {
  const value: unknown = await pendingEmailCookie(context).parse(request.headers.get("cookie"));
  return typeof value === "string" ? context.services.sealer.open(PURPOSE, value) : null;
}

/** A form's failure that also remembers the address for /verify (e.g. a login refused until it is verified). */
export async function withPendingEmail<T>(context: AppLoadContext, failure: ReturnType<typeof data<T>>, email: string) {
  const headers = new Headers(failure.init?.headers);
  headers.append("Set-Cookie", await rememberPendingEmail(context, email));
  return data(failure.data, { ...failure.init, headers });
}
