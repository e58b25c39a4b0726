import { isAPIError } from "better-auth/api";
import QRCode from "qrcode";
import { isRecoveryCode, secondFactorSchema, twoFactorConfirmSchema, twoFactorPasswordSchema } from "#common/accounts/two-factor-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import { InvalidInputError, parseInput, ServiceError, TooManyRequestsError } from "../../platform/errors.ts";
import { SESSION_UNCHANGED, requireSignedIn, type SessionCaller, type SessionOutcome, type SessionUser } from "../../platform/session-user.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { authHeaders, callAuth, errorCode, sessionOutcome } from "./auth-calls.ts";
import { pluginCookiesSet, withPluginCookies } from "./second-factor-cookies.ts";

// Two-factor authentication with an authenticator app, through Better Auth's two-factor plugin: turning it on
// (password, then a first code from the app), off (password), and the second step of a sign-in (a code or one of
// the recovery codes). The plugin stores the secret and the codes encrypted and checks them; we translate.

const t = messages.twoFactor;

type TwoFactorContext = Pick<AccountsContext, "auth" | "db">;

/** What the owner sees while turning it on: the app's address as a QR code and as text, and the recovery codes. */
export interface TwoFactorSetup {
  otpauthUri: string;
  /** The secret the app needs (base32), for typing in when the QR code cannot be scanned. */
  secret: string;
  /** The QR code of otpauthUri, an SVG as a data: URL. */
  qrCode: string;
  recoveryCodes: string[];
}

/** What a page passes on to the browser: the session, and the library's own cookies of the second factor. */
export interface SignInOutcome {
  session: SessionOutcome;
  /** True when the password (or link) was right and the account's second factor is asked for next. */
  secondFactorRequired: boolean;
  setCookies: string[];
}

export async function isTwoFactorOn({ db }: Pick<AccountsContext, "db">, userId: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("twoFactorEnabled").where("id", "=", userId).executeTakeFirst();
  return Boolean(row?.twoFactorEnabled);
}

/** The QR code and the secret of an otpauth:// address (as the plugin made it), drawn on the server. */
export async function setupView(otpauthUri: string): Promise<Omit<TwoFactorSetup, "recoveryCodes">> {
  const svg = await QRCode.toString(otpauthUri, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
  return {
    otpauthUri,
    secret: new URL(otpauthUri).searchParams.get("secret") ?? "",
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/** Step one of turning it on: the password, then a new secret and recovery codes, not yet in force. */
export async function beginTwoFactor(ctx: TwoFactorContext, viewer: SessionUser | null, input: unknown, caller: SessionCaller): Promise<TwoFactorSetup> {
  const user = requireSignedIn(viewer);
  const { password } = parseInput(twoFactorPasswordSchema, input);
  if (await isTwoFactorOn(ctx, user.id)) throw new InvalidInputError(t.alreadyOn);
  const { auth } = ctx;
  const answer = await translated(async () => auth.api.enableTwoFactor({ body: { password }, headers: await authHeaders(auth, caller) }));
  if (!("totpURI" in answer) || !answer.totpURI || !answer.backupCodes) throw new ServiceError(400, t.setupExpired);
  return { ...(await setupView(answer.totpURI)), recoveryCodes: answer.backupCodes };
}

/** Step two: the app's first code puts it in force; the session is issued anew by the library. */
export async function confirmTwoFactor(ctx: TwoFactorContext, viewer: SessionUser | null, input: unknown, caller: SessionCaller): Promise<{ session: SessionOutcome }> {
  const user = requireSignedIn(viewer);
  const { code } = parseInput(twoFactorConfirmSchema, input);
  if (await isTwoFactorOn(ctx, user.id)) throw new InvalidInputError(t.alreadyOn);
  const { auth } = ctx;
  const { headers } = await translated(async () => auth.api.verifyTOTP({ body: { code }, headers: await authHeaders(auth, caller), returnHeaders: true }));
  return { session: await sessionOutcome(auth, headers) };
}

/** Turning it off, with the password: the secret, the recovery codes and this browser's trust go. */
export async function turnOffTwoFactor(
  ctx: TwoFactorContext,
  viewer: SessionUser | null,
  input: unknown,
  caller: SessionCaller,
  browserCookies: string | null,
): Promise<{ session: SessionOutcome; setCookies: string[] }> {
  requireSignedIn(viewer);
  const { password } = parseInput(twoFactorPasswordSchema, input);
  const { auth } = ctx;
  const { headers } = await translated(async () =>
    auth.api.disableTwoFactor({ body: { password }, headers: await withPluginCookies(auth, await authHeaders(auth, caller), browserCookies), returnHeaders: true }),
  );
  return { session: await sessionOutcome(auth, headers), setCookies: await pluginCookiesSet(auth, headers) };
}

/** The second step of a sign-in: a code from the app, or a recovery code (each works once). */
export async function verifySecondFactor(
  { auth }: Pick<AccountsContext, "auth">,
  input: unknown,
  caller: SessionCaller,
  browserCookies: string | null,
): Promise<SignInOutcome> {
  const { code, trustDevice } = parseInput(secondFactorSchema, input);
  const headers = await withPluginCookies(auth, await authHeaders(auth, caller), browserCookies);
  const answered = isRecoveryCode(code)
    ? await translated(() => auth.api.verifyBackupCode({ body: { code: withDash(code), trustDevice }, headers, returnHeaders: true }))
    : await translated(() => auth.api.verifyTOTP({ body: { code, trustDevice }, headers, returnHeaders: true }));
  return { session: await sessionOutcome(auth, answered.headers), secondFactorRequired: false, setCookies: await pluginCookiesSet(auth, answered.headers) };
}

/** What a sign-in call answered, when the account's second factor may be asked for next (the plugin's answer). */
export async function signInOutcome(auth: AccountsContext["auth"], headers: Headers, response: unknown): Promise<SignInOutcome> {
  const setCookies = await pluginCookiesSet(auth, headers);
  if (typeof response === "object" && response !== null && "twoFactorRedirect" in response && response.twoFactorRedirect === true) {
    // The library removed the session it had made, pending the second factor: there is none to end or issue.
    return { session: SESSION_UNCHANGED, secondFactorRequired: true, setCookies };
  }
  return { session: await sessionOutcome(auth, headers), secondFactorRequired: false, setCookies };
}

/** Recovery codes are made as xxxxx-xxxxx; one typed without its dash is the same code. */
const withDash = (code: string) => (code.includes("-") ? code : `${code.slice(0, 5)}-${code.slice(5)}`);

/** The plugin's refusals in the shop's words; everything else as every auth call translates it. */
async function translated<T>(call: () => Promise<T>): Promise<T> {
  return callAuth(async () => {
    try {
      return await call();
    } catch (error) {
      if (!isAPIError(error)) throw error;
      switch (errorCode(error)) {
        case "INVALID_PASSWORD":
          throw new InvalidInputError(t.passwordWrong, { password: t.passwordWrong });
        case "INVALID_CODE":
        case "INVALID_BACKUP_CODE":
          throw new InvalidInputError(t.codeWrong, { code: t.codeWrong });
        case "TOTP_ALREADY_ENABLED":
          throw new InvalidInputError(t.alreadyOn);
        case "TOTP_NOT_ENABLED":
        case "BACKUP_CODES_NOT_ENABLED":
          throw new ServiceError(400, t.setupExpired);
        case "INVALID_TWO_FACTOR_COOKIE":
          throw new ServiceError(400, t.signInExpired);
        case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
          throw new ServiceError(400, t.tooManyCodes);
        case "ACCOUNT_TEMPORARILY_LOCKED":
          throw new TooManyRequestsError(t.accountLocked, 15 * 60);
      }
      throw error;
    }
  });
}
