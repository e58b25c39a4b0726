import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { Hono } from "hono";
import { z } from "zod";

// The API tests' check that every JSON answer is what the OpenAPI document promises (docs/decisions/021): the document the
// server serves, read with zod's JSON Schema reader, for the operation's (method, path template, status).

type JsonSchema = Record<string, unknown>;

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/**
 * Better Auth's bodies and the tus protocol's answers (text bodies, statuses such as 405 and 460) are the
 * libraries' own contracts; the document names those endpoints without shapes.
 */
const LIBRARY_PATHS = /^\/(?:auth|uploads)(?:\/|$)/;
/** What the API's edge answers for any path before routing (platform/http/api-docs.ts lists them per operation). */
const EDGE_REFUSALS = new Set([400, 403, 413, 415]);
const METHODS = new Set(["get", "put", "post", "delete", "patch"]);

export class ApiContractViolation extends Error {}

export function apiContract(document: OpenApiDocument) {
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`),
    // Fixed segments win over parameters when two templates match.
    parameters: (template.match(/\{/g) ?? []).length,
  }));
  const readers = new Map<JsonSchema, z.ZodType>();

  /** zod's reader of one schema of the document; its references point into the document's components. */
  function reader(schema: JsonSchema): z.ZodType {
    let compiled = readers.get(schema);
    if (!compiled) {
      const root = { ...schema, $defs: document.components.schemas };
      compiled = z.fromJSONSchema(JSON.parse(JSON.stringify(root).replaceAll('"#/components/schemas/', '"#/$defs/')));
      readers.set(schema, compiled);
    }
    return compiled;
  }

  function operationFor(method: string, apiPath: string) {
    const candidates = templates.filter(({ pattern }) => pattern.test(apiPath)).sort((a, b) => a.parameters - b.parameters);
    for (const { template } of candidates) {
      const operation = document.paths[template]?.[method.toLowerCase()];
      if (operation) return { template, operation };
    }
    return undefined;
  }

  return {
    /**
     * Throws when a JSON API answer is not what the document promises for its request: a status it does not
     * list, or a body that does not match the schema of that status. Any path the document does not name must
     * be the JSON 404 of the API's catch-all.
     */
    async check(method: string, url: string, response: Response): Promise<void> {
      const apiPath = new URL(url, "http://x").pathname.replace(/^\/api(?=\/)/, "");
      if (!new URL(url, "http://x").pathname.startsWith("/api/") || apiPath === "/openapi.json" || LIBRARY_PATHS.test(apiPath)) return;
      if (!METHODS.has(method.toLowerCase())) return;
      const found = operationFor(method, apiPath);
      const where = `${method.toUpperCase()} /api${found?.template ?? apiPath}`;
      if (!found) {
        // The edge refuses some requests before any route is matched (a body that is not JSON, a foreign
        // origin, …): those answers are the same for every path, named or not.
        if (response.status !== 404 && !EDGE_REFUSALS.has(response.status)) {
          throw new ApiContractViolation(`${where} is not in the OpenAPI document, yet answered ${response.status}`);
        }
        await checkBody(where, response, { $ref: "#/components/schemas/Problem" });
        return;
      }
      const documented = found.operation.responses[String(response.status)] ?? found.operation.responses[`${String(response.status)[0]}XX`];
      if (!documented) {
        throw new ApiContractViolation(`${where} answered ${response.status}, which the OpenAPI document does not list (${Object.keys(found.operation.responses).join(", ")})`);
      }
      const schema = documented.content?.["application/json"]?.schema;
      if (schema) await checkBody(`${where} → ${response.status}`, response, schema);
    },
  };

  async function checkBody(where: string, response: Response, schema: JsonSchema) {
    const type = response.headers.get("content-type") ?? "";
    if (!/^application\/json\b/.test(type)) throw new ApiContractViolation(`${where} answered ${type || "no content type"}, not the documented JSON`);
    const body: unknown = JSON.parse(decodeBody(response.headers.get("content-encoding"), Buffer.from(await response.clone().arrayBuffer())).toString("utf8"));
    const result = reader(schema).safeParse(body);
    if (!result.success) {
      throw new ApiContractViolation(`${where} answered a body that does not match the OpenAPI document:\n${z.prettifyError(result.error)}\n${JSON.stringify(body).slice(0, 500)}`);
    }
  }
}

/**
 * Routes of a JSON API app (its Hono route table) that the document does not describe. A wildcard mount
 * (`ALL /auth/*`, a library's handler) counts as described when some documented path lies under it; the
 * root wildcard is middleware or the 404 catch-all, and the document itself is not described in itself.
 */
export function undocumentedRoutes(api: Pick<Hono, "routes">, document: OpenApiDocument): string[] {
  const documented = new Set(Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)));
  const mounted = new Set(
    api.routes
      .filter((route) => route.path !== "/*" && route.path !== "/openapi.json")
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`),
  );
  return [...mounted].filter((route) => {
    const [method, path] = route.split(" ") as [string, string];
    if (method === "ALL" && path.endsWith("/*")) return ![...documented].some((entry) => entry.split(" ")[1]!.startsWith(path.slice(0, -1)));
    return !documented.has(route);
  });
}

/** An in-process answer as the server sent it: compressed when the request accepted it (docs/decisions/027). */
export function decodeBody(encoding: string | null, body: Buffer): Buffer {
  if (encoding === "br") return brotliDecompressSync(body);
  if (encoding === "gzip") return gunzipSync(body);
  return body;
}
