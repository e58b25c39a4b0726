import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";
import { GOOGLE_ISSUER, parseSignInProviders } from "./sign-in-provider-config.ts";

const oidc = { OIDC_ISSUER: "https://login.example.com", OIDC_CLIENT_ID: "shop", OIDC_CLIENT_SECRET: "s3cret", OIDC_NAME: "Example ID" };
const google = { GOOGLE_CLIENT_ID: "123.apps.googleusercontent.com", GOOGLE_CLIENT_SECRET: "g-secret" };

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("sign-in provider settings", () => {
  it("configure no provider when none is set", () => {
    expect(loadConfig({}).signInProviders).toEqual([]);
  });

  it("configure Google as an OpenID Connect provider by its issuer", () => {
    expect(loadConfig(google).signInProviders).toEqual([
      { id: "google", name: "Google", issuer: GOOGLE_ISSUER, clientId: google.GOOGLE_CLIENT_ID, clientSecret: google.GOOGLE_CLIENT_SECRET },
    ]);
  });

  it("configure the other provider under OIDC_NAME, its issuer without a trailing slash, beside Google", () => {
    const { signInProviders } = loadConfig({ ...google, ...oidc, OIDC_ISSUER: "https://login.example.com/realms/shop/" });
    expect(signInProviders.map(({ id, name, issuer }) => ({ id, name, issuer }))).toEqual([
      { id: "google", name: "Google", issuer: GOOGLE_ISSUER },
      { id: "oidc", name: "Example ID", issuer: "https://login.example.com/realms/shop" },
    ]);
  });

  it("accept a plain http issuer on this machine only", () => {
    expect(parseSignInProviders({ ...oidc, OIDC_ISSUER: "http://127.0.0.1:5110" }).problems).toEqual([]);
    expect(parseSignInProviders({ ...oidc, OIDC_ISSUER: "http://localhost:8080/realm" }).problems).toEqual([]);
    expect(problemsOf({ ...oidc, OIDC_ISSUER: "http://login.example.com" })).toEqual([
      "OIDC_ISSUER: must be the provider's issuer address, such as https://login.example.com (http:// only on localhost)",
    ]);
  });

  it("refuse an issuer that is not an address, or carries a query", () => {
    for (const issuer of ["login.example.com", "ftp://login.example.com", "https://login.example.com/?tenant=1", "not a url"]) {
      expect(problemsOf({ ...oidc, OIDC_ISSUER: issuer })).toEqual([
        "OIDC_ISSUER: must be the provider's issuer address, such as https://login.example.com (http:// only on localhost)",
      ]);
    }
  });

  it("refuse half of Google's pair, naming both variables", () => {
    expect(problemsOf({ GOOGLE_CLIENT_ID: google.GOOGLE_CLIENT_ID })).toEqual(["GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither"]);
    expect(problemsOf({ GOOGLE_CLIENT_SECRET: google.GOOGLE_CLIENT_SECRET })).toEqual(["GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither"]);
  });

  it("refuse part of the other provider's settings, naming all four", () => {
    for (const missing of Object.keys(oidc)) {
      const env: NodeJS.ProcessEnv = { ...oidc, [missing]: "" };
      expect(problemsOf(env)).toEqual(["OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_NAME: set all four or none"]);
    }
  });

  it("refuse a button label too long to show, or the name Google beside Google", () => {
    expect(problemsOf({ ...oidc, OIDC_NAME: "x".repeat(41) })).toEqual(['OIDC_NAME: must be a name of at most 40 characters, shown as "Continue with <OIDC_NAME>"']);
    expect(problemsOf({ ...google, ...oidc, OIDC_NAME: "google" })).toEqual(["OIDC_NAME: Google is configured already; give the other provider another name"]);
  });

  it("are reported with the other settings' problems, so one start names everything to fix", () => {
    expect(problemsOf({ PORT: "eighty", GOOGLE_CLIENT_ID: "x" })).toEqual([
      "PORT: must be a port number from 0 to 65535",
      "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither",
    ]);
  });
});
