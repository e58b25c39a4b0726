/**
 * The login page's second step, where the code of an account with two-factor on is asked for: after the password
 * or an e-mailed link (the pages send there) and after a provider's return address (the server sends there).
 */
export const secondFactorPath = (redirectTo: string) => `/login?step=code&redirectTo=${encodeURIComponent(redirectTo)}`;
