import { Hono } from "hono";
import { z } from "zod";
import { verifyEmailSchema } from "#common/accounts/account-schemas.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { AccountsService } from "./accounts.ts";
import { describeRoute, json, jsonBody, problems } from "../../platform/http/api-docs.ts";
import { readJson } from "../../platform/http/read-json.ts";
import { requestContext } from "../../platform/http/request-context.ts";

const verificationOutcomeSchema = z
  .strictObject({ verified: z.boolean().meta({ description: "false: the address was verified before (no sign-in)" }) })
  .meta({ id: "VerificationOutcome" });

/**
 * The JSON twin of /verify's password form: the token of a verification e-mail's link and the account's password
 * (decision 008). Verified, the caller is signed in, as by the page. Better Auth's own /verify-email is closed.
 */
export const verificationApi = (accounts: AccountsService) => new Hono<PlatformEnv>().post(
  "/",
  describeRoute({
    summary: "Verify an e-mail address: the link's token and the account's password; signs in",
    requestBody: jsonBody(verifyEmailSchema),
    responses: { 200: json(verificationOutcomeSchema, "Verified (and signed in), or verified before"), ...problems(400, 429) },
  }),
  async (c) => {
    const body = await readJson(c);
    const { token, password } = (typeof body === "object" && body !== null ? body : {}) as { token?: unknown; password?: unknown };
    const outcome = await accounts.verifyEmail({ token, password: password ?? "" }, requestContext(c));
    if (outcome.kind === "verified") c.set("sessionOutcome", outcome.session);
    return c.json({ verified: outcome.kind === "verified" });
  },
);
