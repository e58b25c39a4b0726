// Services and React Router's server bundle can hold two copies of one module (the page build bundles
// what routes import); a registry symbol marks user-facing errors so both copies recognise them.
export const USER_FACING_ERROR = Symbol.for("plant-shop.user-facing-error");

export interface UserFacingError {
  status: number;
  message: string;
  fieldErrors?: Record<string, string>;
}

export function isUserFacingError(error: unknown): error is UserFacingError & Error {
  return typeof error === "object" && error !== null && USER_FACING_ERROR in error;
}
