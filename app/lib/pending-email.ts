import { createCookie } from "react-router";

/** The address a verification e-mail just went to, so /verify can offer to send it again. */
export const pendingEmailCookie = createCookie("plant-shop.pending-email", {
  httpOnly: true,
  sameSite: "lax",
  path: "/verify",
  maxAge: 60 * 60,
});
