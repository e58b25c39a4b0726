import { Validator } from "@seriousme/openapi-schema-validator";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiDocument, apiRoutes } from "../../server/api-routes.ts";
import { describeRoute, json } from "../../server/platform/http/api-docs.ts";
import { productPageSchema } from "#common/catalog/catalog-schemas.ts";
import { apiContract, ApiContractViolation, undocumentedRoutes, type OpenApiDocument } from "../support/api-contract.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

let app: TestApp;
let document: OpenApiDocument;
beforeEach(async () => {
  app = await createTestApp();
  document = (await (await app.request("/api/openapi.json")).json()) as OpenApiDocument;
});
afterEach(async () => {
  await app.cleanup();
});

const jsonAnswer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const product = { id: "p1", name: "Fern", description: "", pricePaise: 1500, sale: null, priceVaries: false, stock: 3, categoryId: "c1", image: null, createdAt: "2026-01-01T00:00:00.000Z", reviewCount: 0, averageRating: null };
const productPage = { items: [product], total: 1, totalCapped: false, limit: 12, offset: 0, hasMore: false, nextCursor: null };

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every route the server mounts under /api (read from Hono's route table), and nothing else", () => {
    const api = apiRoutes(app.services, app.infrastructure, TEST_ORIGIN);
    expect(api.routes.length, "the route table was read").toBeGreaterThan(20);
    expect(undocumentedRoutes(api, document)).toEqual([]);

    const mounted = new Set(api.routes.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`));
    const documentedButNotMounted = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((route) => !mounted.has(route) && !route.includes(" /auth/"));
    expect(documentedButNotMounted).toEqual([]);
  });

  it("names a route the server mounts without a description as undocumented", async () => {
    const api = new Hono()
      .get("/products", describeRoute({ summary: "Products", responses: { 200: json(productPageSchema, "A page") } }), (c) => c.json(productPage))
      .post("/products", (c) => c.json({}, 201))
      .all("/library/*", (c) => c.json({}));
    const built = (await apiDocument(api as never, TEST_ORIGIN)) as unknown as OpenApiDocument;
    expect(undocumentedRoutes(api, built)).toEqual(["POST /products", "ALL /library/*"]);
  });

  it("describes inputs and answers with the shared schemas", () => {
    const products = document.paths["/products"]!.get as unknown as { parameters: Array<{ name: string; schema: unknown }> };
    expect(products.parameters.find((p) => p.name === "limit")?.schema).toMatchObject({ type: "integer", maximum: 50, minimum: 1 });
    const contact = document.paths["/contact"]!.post as unknown as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(contact.requestBody.content["application/json"]!.schema.required).toEqual(expect.arrayContaining(["name", "email", "subject", "message"]));
    expect(document.paths["/cart"]!.get!.responses["200"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/Cart" });
    expect(document.components.schemas.OrderStatus).toMatchObject({ enum: ["awaiting_payment", "pending", "processing", "shipped", "delivered", "cancelled", "refused"] });
  });

  it("lists Better Auth's open endpoints in one entry, as the server enforces them", () => {
    const auth = document.paths["/auth/{endpoint}"]!.post as unknown as { parameters: Array<{ description: string }> };
    expect(auth.parameters[0]!.description).toContain("sign-up/email");
    expect(auth.parameters[0]!.description).not.toContain("update-user");
  });
});

describe("the API tests' response check", () => {
  it("accepts an answer that matches its documented schema", async () => {
    await expect(apiContract(document).check("GET", "/api/products?limit=12", jsonAnswer(productPage))).resolves.toBeUndefined();
    await expect(apiContract(document).check("GET", "/api/products/p1", jsonAnswer({ message: "Product not found" }, 404))).resolves.toBeUndefined();
  });

  it.each([
    ["a field the document does not name", { ...productPage, secret: "x" }],
    ["a field of a nested product the document does not name", { ...productPage, items: [{ ...product, secret: 1 }] }],
    ["a missing field", { items: [product], limit: 12, offset: 0, hasMore: false }],
    ["a field of the wrong type", { ...productPage, total: "1" }],
    ["a date that is not ISO 8601", { ...productPage, items: [{ ...product, createdAt: "yesterday" }] }],
  ])("fails on an answer with %s", async (_what, body) => {
    await expect(apiContract(document).check("GET", "/api/products", jsonAnswer(body))).rejects.toThrow(ApiContractViolation);
  });

  it("fails on a status the operation does not document", async () => {
    await expect(apiContract(document).check("GET", "/api/categories", jsonAnswer({ message: "Teapot" }, 418))).rejects.toThrow(/418/);
  });

  it("fails on an error body that is not { message, fieldErrors?, code? }", async () => {
    await expect(apiContract(document).check("GET", "/api/products/p1", jsonAnswer({ error: "Product not found" }, 404))).rejects.toThrow(ApiContractViolation);
  });

  it("fails on an answer that is not JSON", async () => {
    const html = new Response("<p>Not found</p>", { status: 404, headers: { "Content-Type": "text/html" } });
    await expect(apiContract(document).check("GET", "/api/products/p1", html)).rejects.toThrow(/not the documented JSON/);
  });

  it("fails on an answer from a path the document does not name, unless it is the API's JSON 404", async () => {
    await expect(apiContract(document).check("GET", "/api/secret-admin", jsonAnswer({ ok: true }))).rejects.toThrow(/not in the OpenAPI document/);
    await expect(apiContract(document).check("GET", "/api/nothing-here", jsonAnswer({ message: "There is no such API endpoint." }, 404))).resolves.toBeUndefined();
  });

  it("runs on every answer of the shared test app, so an API test fails on an answer out of contract", async () => {
    const answer = await app.request("/api/products?limit=3");
    expect(await answer.json(), "the check read a copy: the test still reads the body").toMatchObject({ limit: 3 });

    vi.spyOn(app.services.catalog, "listCategories").mockResolvedValue({ items: [{ id: "c1", name: "Ferns" }] } as never);
    await expect(app.request("/api/categories")).rejects.toThrow(ApiContractViolation);
  });
});
