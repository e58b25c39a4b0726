import { Hono } from "hono";
import { secondFactorPath } from "#common/accounts/sign-in-paths.ts";
import { authCookieName } from "../../platform/http/session-cookie.ts";
import { CLIENT_IP_HEADER, OPEN_AUTH_PATHS } from "./auth/auth-rules.ts";
import { clientIp } from "../../platform/http/client-ip.ts";
import { currentUser, requestContext } from "../../platform/http/request-context.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";

/**
 * Better Auth's own endpoints under /api/auth, told the connection's address (a client cannot set it).
 * `providerIds`: the sign-in providers configured, whose return addresses (/callback/<id>) are open.
 */
export const authApi = (authHandler: (request: Request) => Promise<Response>, providerIds: () => readonly string[] = () => []) => new Hono<PlatformEnv>().all("/*", async (c) => {
  // A return address of a provider that is not configured: Better Auth would log every stranger's call as an
  // error. Its disabledPaths cannot switch off "/callback/:id" (it matches patterns only literally), hence this check.
  const callback = /\/api\/auth\/callback(?:\/|$)(.*)$/.exec(c.req.path);
  if (callback && !providerIds().includes(callback[1]!.replace(/\/$/, ""))) return c.json({ message: "No such sign-in provider is configured." }, 404);
  // The caller's account is looked up as for every other route (one statement on the common path), so that the
  // request line and the events of a signed-in caller name it: Better Auth's own lookup stays inside the library.
  if (requestContext(c).sessionCredential) await currentUser(c);
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, clientIp(c) ?? "unknown");
  const request = new Request(c.req.raw, { headers });
  const response = await authHandler(request);
  return callback ? onToSecondFactor(response) : response;
});

/** The two-factor plugin's cookie of a sign-in that waits for its second factor, over http and over https. */
const SECOND_FACTOR_PENDING = new Set([authCookieName(false, "two_factor"), authCookieName(true, "two_factor")]);

/**
 * A provider's return address is opened by the browser itself, at the end of the provider's pages, and redirects
 * to where the sign-in was going. For an account with two-factor on, the two-factor plugin's hook has taken back the
 * session and set its cookie of a pending second factor instead: the browser is sent to the login page's code step,
 * with where it was going kept, and the library's cookies as it set them.
 */
function onToSecondFactor(response: Response): Response {
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) return response;
  const pending = response.headers.getSetCookie().some((cookie) => {
    const [name, value] = cookie.split(";", 1)[0]!.split(/=(.*)/s);
    return SECOND_FACTOR_PENDING.has(name!.trim()) && Boolean(value) && !/;\s*max-age=0/i.test(cookie);
  });
  if (!pending) return response;
  const headers = new Headers(response.headers);
  headers.set("location", secondFactorPath(sameSiteTarget(location)));
  return new Response(null, { status: 302, headers });
}

/** Where the sign-in was going, as a path of this shop (the library's redirect names the configured origin). */
function sameSiteTarget(location: string | null): string {
  if (!location) return "/";
  const url = new URL(location, "http://shop.invalid");
  return url.pathname.startsWith("/") && !url.pathname.startsWith("//") ? `${url.pathname}${url.search}` : "/";
}

/**
 * How /api/auth appears in the OpenAPI document. It is one wildcard route handing requests to Better Auth, so
 * the route table cannot describe it: one entry names the endpoints the shop leaves open (the same list the
 * server enforces); their bodies are Better Auth's own contract, versioned with the library.
 */
export const authApiPaths = {
  "/auth/{endpoint}": Object.fromEntries(
    ["get", "post"].map((method) => [
      method,
      {
        operationId: `${method}Auth`,
        summary: "Better Auth's endpoints (sign-up, sign-in with a password or a configured provider, sessions, verification, password reset); every other path answers 404",
        parameters: [
          {
            name: "endpoint",
            in: "path",
            required: true,
            description: `One of: ${OPEN_AUTH_PATHS.map((path) => path.slice(1)).join(", ")}`,
            schema: { type: "string" },
          },
        ],
        responses: {
          "200": { description: "Done, as Better Auth answers it" },
          "302": { description: "A provider's return address: on to the shop's page, or back to the login page with an error code" },
          "4XX": { description: "Refused: JSON with a message a person can read (429 with Retry-After)" },
        },
      },
    ]),
  ),
};
