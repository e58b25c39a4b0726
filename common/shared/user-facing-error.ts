import type { Problem } from "./problem.ts";

// Services and React Router's server bundle can hold two copies of one module (the page build bundles
// what routes import); a registry symbol marks user-facing errors so both copies recognise them.
export const USER_FACING_ERROR = Symbol.for("plant-shop.user-facing-error");

/** Failures that code (not only people) must tell apart; their message may be reworded, their code not. */
export const ERROR_CODES = {
  emailNotVerified: "EMAIL_NOT_VERIFIED",
  resetLinkInvalid: "RESET_LINK_INVALID",
  cartChanged: "CART_CHANGED",
  /** Signing in to this account needs a code e-mailed to it as well as the password. */
  signInCodeRequired: "SIGN_IN_CODE_REQUIRED",
  /** The password or the e-mailed sign-in code was not right. */
  signInCodeInvalid: "SIGN_IN_CODE_INVALID",
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** A refusal a person can read: the API's error body (`Problem`) and the HTTP status it goes with. */
export interface UserFacingError extends Problem {
  status: number;
}

export function isUserFacingError(error: unknown): error is UserFacingError & Error {
  return typeof error === "object" && error !== null && USER_FACING_ERROR in error;
}
