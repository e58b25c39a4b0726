import { createCookie, data } from "react-router";

/**
 * The address a verification e-mail just went to, so /verify can offer to send it again. Path=/: after a
 * form sent with JavaScript, /verify's data comes from /verify.data, which a Path=/verify cookie misses.
 */
export const pendingEmailCookie = createCookie("plant-shop.pending-email", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 60 * 60,
});

/** A form's failure that also remembers the address for /verify (e.g. a login refused until it is verified). */
export async function withPendingEmail<T>(failure: ReturnType<typeof data<T>>, email: string) {
  const headers = new Headers(failure.init?.headers);
  headers.append("Set-Cookie", await pendingEmailCookie.serialize(email));
  return data(failure.data, { ...failure.init, headers });
}
