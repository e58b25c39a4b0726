import type { Hono } from "hono";
import { describeRoute, generateSpecs, resolver, type DescribeRouteOptions } from "hono-openapi";
import { z } from "zod";
import { problemSchema } from "#common/shared/problem.ts";
import type { Env } from "hono";

// How a JSON API route documents itself (docs/decisions/021-contracts.md): `describeRoute(...)` beside the
// handler, with the zod schemas of common/<feature>/ for what it takes and answers. The document at
// GET /api/openapi.json is generated from the very route table the server mounts, so a route without a
// description is missing from it, and a test says so.

export { describeRoute };
export type RouteDescription = DescribeRouteOptions;

type JsonSchema = Record<string, unknown>;
type Parameter = NonNullable<DescribeRouteOptions["parameters"]>[number];

/** A JSON answer of this shape (a named shape becomes a component of the document). */
export function json(schema: z.ZodType, description: string) {
  return { description, content: { "application/json": { schema: resolver(schema, { options: { io: "output" } }) } } };
}

/** A JSON request body of this shape, as the service parses it (the service validates; this documents). */
export function jsonBody(schema: z.ZodType) {
  return { required: true, content: { "application/json": { schema: resolver(schema) } } };
}

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input; fieldErrors names each field",
  401: "Not logged in",
  403: "Not allowed, or sent from another site",
  404: "Not found",
  409: "Conflicts with the current state (e.g. not enough stock)",
  413: "Body too large",
  415: "Body is not JSON",
  429: "Too many requests; see Retry-After",
  503: "Unavailable for now (the database briefly out of reach, or too many live streams); see Retry-After",
};

/** A route whose answers anonymous callers get from the cache, with an ETag (docs/decisions/027). */
export const notModified = { 304: { description: "Not modified: If-None-Match named the answer's current ETag" } };

/** The refusals a route can answer, each as a `{ message, fieldErrors?, code? }` body. */
export function problems(...statuses: Array<keyof typeof PROBLEM_DESCRIPTIONS>) {
  return Object.fromEntries(statuses.map((status) => [String(status), json(problemSchema, PROBLEM_DESCRIPTIONS[status] ?? "Refused")]));
}

/**
 * Query or path parameters, one per property of the schema the service parses them with. Named shapes are
 * inlined (a parameter's schema cannot point into components here without a second resolver pass).
 */
export function parameters(schema: z.ZodObject, where: "query" | "path"): Parameter[] {
  const converted = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12", metadata: z.registry() }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(converted.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (converted.required ?? []).includes(name),
    schema: property as Extract<Parameter, { in: string }>["schema"],
  }));
}

/** A path parameter that is an opaque id made by the server. */
export function idParameter(name: string): Parameter {
  return { name, in: "path", required: true, schema: { type: "string", minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" } };
}

/**
 * What the edge of the API answers for any route before its handler runs (server/app.ts and api-routes.ts):
 * a control character in the address, and for requests that change something a cross-site origin, a body
 * that is too large or not JSON; and for any route, the database being briefly out of reach (docs/decisions/032).
 */
const EDGE_REFUSALS = {
  GET: { responses: problems(400, 503) },
  POST: { responses: problems(400, 403, 413, 415, 503) },
  PATCH: { responses: problems(400, 403, 413, 415, 503) },
  PUT: { responses: problems(400, 403, 413, 415, 503) },
  DELETE: { responses: problems(400, 403, 413, 415, 503) },
};

export interface ApiDocumentOptions {
  serverUrl: string;
  title: string;
  description: string;
  /** Paths the route table cannot describe (a library's handler mounted on a wildcard). */
  extraPaths?: Record<string, Record<string, unknown>>;
}

/** The OpenAPI 3.1 document of a JSON API app, generated from its route table. */
export async function buildApiDocument<E extends Env>(api: Hono<E>, options: ApiDocumentOptions) {
  return generateSpecs(api, {
    documentation: {
      openapi: "3.1.0",
      info: { title: options.title, version: "1.0.0", description: options.description },
      servers: [{ url: options.serverUrl }],
      paths: options.extraPaths ?? {},
    },
    defaultOptions: EDGE_REFUSALS,
    // Every route here validates in its service, whose errors are Problems, never the library's default body.
    defaultValidationErrorResponse: false,
  });
}
