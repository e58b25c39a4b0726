import { Hono } from "hono";
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
  return authHandler(request);
});

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
