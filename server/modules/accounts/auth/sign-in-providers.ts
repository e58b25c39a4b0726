import type { BetterAuthPlugin } from "better-auth";
import { genericOAuth, type GenericOAuthUserInfo } from "better-auth/plugins/generic-oauth";

// Signing in with an OpenID Connect provider (Google, or one the owner configures), through Better Auth's
// generic-oauth plugin (docs/decisions/039). The plugin registers each provider as a "social" provider, so the
// library's own endpoints run the flow: /sign-in/social starts it, /callback/:id finishes it.

/** A provider the shop offers: Google is one like any other, by its issuer (Better Auth reads its discovery document). */
export interface SignInProvider {
  /** Better Auth's providerId, also the last segment of the return address /api/auth/callback/<id>. */
  id: string;
  /** Shown to people: "Continue with <name>", the sign-in methods page, the activity log. */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The endpoint at which the provider sends the browser back, as Better Auth names it (a parameter in the path). */
export const PROVIDER_CALLBACK_PATH = "/callback/:id";

/**
 * Who may be linked to whom. An existing account with the provider's e-mail is linked only when the provider
 * says it verified that address (`email_verified` true): no provider is trusted without it, and the account's
 * own address must be verified too, so nobody who registered someone else's address first (and never proved it)
 * gains a way in, nor does a provider account whose address nobody checked. A signed-in shopper links only a
 * provider account with their own e-mail address.
 */
export const PROVIDER_ACCOUNT_LINKING = {
  enabled: true,
  trustedProviders: [] as string[],
  requireLocalEmailVerified: true,
  allowDifferentEmails: false,
  disableImplicitLinking: false,
  updateUserInfoOnLink: false,
};

/** The longest full name the register form takes; a provider's longer one is cut there. */
const MAX_NAME = 100;

/**
 * What a provider's profile gives a new account: its `name` claim as the full name (else the address's local
 * part, as the form requires one), its `email_verified` claim read strictly, and no picture (the shop stores only
 * pictures it re-encoded itself; a link to the provider's would also leave the page's content policy).
 */
export function accountFromProfile(profile: GenericOAuthUserInfo) {
  const email = typeof profile.email === "string" ? profile.email : "";
  const claimed = typeof profile.name === "string" ? profile.name.replace(/\p{Cc}/gu, " ").trim() : "";
  const name = (claimed || email.split("@")[0] || "Shopper").slice(0, MAX_NAME);
  const verified = profile.email_verified === true || profile.email_verified === "true";
  return { name, emailVerified: verified, image: undefined };
}

/** The generic-oauth plugin for the configured providers; none when no provider is configured. */
export function providerSignInPlugins(providers: readonly SignInProvider[]): BetterAuthPlugin[] {
  if (providers.length === 0) return [];
  return [
    genericOAuth({
      config: providers.map((provider) => ({
        providerId: provider.id,
        name: provider.name,
        discoveryUrl: `${provider.issuer}/.well-known/openid-configuration`,
        // Identity comes from the ID token's claims: never accept one whose signature could not be checked
        // because discovery failed (the plugin retries discovery on the next sign-in).
        requireIdTokenVerification: true,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        scopes: ["openid", "email", "profile"],
        mapProfileToUser: accountFromProfile,
        // The shopper's name, e-mail and picture stay theirs to change in the shop; a sign-in never overwrites them.
        overrideUserInfo: false,
        // Signing out of the shop ends the shop's session only, not the person's session at their provider.
        disableProviderLogout: true,
      })),
    }),
  ];
}

/** The provider tokens Better Auth would keep: the shop never calls a provider's API, so it keeps none (decision 015). */
const NO_TOKENS = { accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, refreshTokenExpiresAt: null, scope: null };

/** What a linked account is created or updated with: its key, never a provider's token. */
export function withoutProviderTokens<T extends { providerId?: string | null }>(account: T): T {
  if (!account.providerId || account.providerId === "credential") return account;
  return { ...account, ...NO_TOKENS };
}
