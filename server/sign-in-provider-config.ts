import type { SignInProvider } from "./modules/accounts/index.ts";

// The OpenID Connect providers a shopper may sign in with (docs/decisions/039): Google, and one more provider of the
// owner's choosing. Google is configured as any other OpenID provider, by its issuer, so one tested path serves both.

export const GOOGLE_ISSUER = "https://accounts.google.com";

/** The longest OIDC_NAME: it is shown on a button ("Continue with …"). */
const MAX_PROVIDER_NAME = 40;

/** Loopback hosts, where an issuer may be plain http (a provider on the same machine, as in the tests). */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The sign-in providers the environment configures, or the problems with its settings (each one line naming the
 * variables, as the rest of the configuration's problems are said).
 */
export function parseSignInProviders(env: NodeJS.ProcessEnv): { providers: SignInProvider[]; problems: string[] } {
  const problems: string[] = [];
  const providers: SignInProvider[] = [];
  const value = (name: string) => {
    const raw = env[name];
    return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
  };

  const googleId = value("GOOGLE_CLIENT_ID");
  const googleSecret = value("GOOGLE_CLIENT_SECRET");
  if (Boolean(googleId) !== Boolean(googleSecret)) problems.push("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither");
  else if (googleId && googleSecret) providers.push({ id: "google", name: "Google", issuer: GOOGLE_ISSUER, clientId: googleId, clientSecret: googleSecret });

  const oidc = { OIDC_ISSUER: value("OIDC_ISSUER"), OIDC_CLIENT_ID: value("OIDC_CLIENT_ID"), OIDC_CLIENT_SECRET: value("OIDC_CLIENT_SECRET"), OIDC_NAME: value("OIDC_NAME") };
  const given = Object.values(oidc).filter(Boolean).length;
  if (given > 0 && given < 4) {
    problems.push("OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_NAME: set all four or none");
  } else if (oidc.OIDC_ISSUER && oidc.OIDC_CLIENT_ID && oidc.OIDC_CLIENT_SECRET && oidc.OIDC_NAME) {
    const issuerProblem = checkIssuer(oidc.OIDC_ISSUER);
    if (issuerProblem) problems.push(`OIDC_ISSUER: ${issuerProblem}`);
    if (oidc.OIDC_NAME.length > MAX_PROVIDER_NAME || /\p{Cc}/u.test(oidc.OIDC_NAME)) {
      problems.push(`OIDC_NAME: must be a name of at most ${MAX_PROVIDER_NAME} characters, shown as "Continue with <OIDC_NAME>"`);
    }
    if (oidc.OIDC_NAME.toLowerCase() === "google" && googleId) problems.push("OIDC_NAME: Google is configured already; give the other provider another name");
    if (!issuerProblem) {
      providers.push({ id: "oidc", name: oidc.OIDC_NAME, issuer: oidc.OIDC_ISSUER.replace(/\/+$/, ""), clientId: oidc.OIDC_CLIENT_ID, clientSecret: oidc.OIDC_CLIENT_SECRET });
    }
  }
  return { providers: problems.length ? [] : providers, problems };
}

/** What is wrong with an issuer identifier (OpenID Connect Discovery: an https URL without query or fragment). */
function checkIssuer(issuer: string): string | undefined {
  const expected = "must be the provider's issuer address, such as https://login.example.com (http:// only on localhost)";
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return expected;
  }
  if (url.search || url.hash || url.username || url.password) return expected;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return undefined;
  return expected;
}
