import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// Lints small snippets as if they lived at a given path, with the project's eslint.config.js (decision 018).
const eslint = new ESLint();
// The first lint loads the config, typescript-eslint and its parser: seconds on a busy machine, which is not what
// any test below is about, so it happens once here, outside the tests' own time limit.
beforeAll(() => eslint.lintText("", { filePath: "server/platform/warm-up.ts" }), 60_000);

const RULES = new Set(["no-restricted-imports", "@typescript-eslint/no-restricted-imports", "plant-shop/platform-reach", "plant-shop-app/feature-reach", "no-restricted-syntax"]);

async function ruleHits(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && RULES.has(m.ruleId));
}

/** An import of `name` from `source` that is used, so only the import rules can complain. */
const valueImport = (name: string, source: string) => `import { ${name} } from "${source}";\nexport const x = ${name};\n`;
const typeImport = (name: string, source: string) => `import type { ${name} } from "${source}";\nexport type T = ${name};\n`;

describe("the import rule that keeps the database behind the services", () => {
  it("fails a screen that imports the database", async () => {
    expect(await ruleHits("app/features/catalog/routes/example.tsx", valueImport("openDatabase", "../../../../server/platform/db/client.ts"))).not.toHaveLength(0);
    expect(await ruleHits("app/features/catalog/routes/example.tsx", valueImport("Kysely", "kysely"))).toHaveLength(1);
  });

  it("fails an API handler that imports the database", async () => {
    expect(await ruleHits("server/modules/catalog/example-api.ts", typeImport("DB", "../../platform/db/schema.ts"))).toHaveLength(1);
    expect(await ruleHits("server/modules/accounts/auth-handler.ts", valueImport("Kysely", "kysely"))).toHaveLength(1);
  });

  it("fails platform HTTP code that imports the database", async () => {
    expect(await ruleHits("server/platform/http/example.ts", typeImport("DB", "../db/schema.ts"))).toHaveLength(1);
  });

  it("lets a module's service use the database", async () => {
    expect(await ruleHits("server/modules/catalog/example.ts", typeImport("DB", "../../platform/db/schema.ts"))).toHaveLength(0);
  });
});

describe("app/ imports server code only as types", () => {
  it("fails a value import from server/, relative or by alias", async () => {
    expect(await ruleHits("app/features/catalog/routes/example.tsx", valueImport("loadConfig", "../../../../server/config.ts"))).toHaveLength(1);
    expect(await ruleHits("app/shared/lib/example.ts", valueImport("createCatalogService", "#server/modules/catalog/index.ts"))).toHaveLength(1);
  });

  it("lets app/ import server types", async () => {
    expect(await ruleHits("app/shared/lib/example.ts", typeImport("SessionUser", "../../../server/platform/session-user.ts"))).toHaveLength(0);
    expect(await ruleHits("app/shared/lib/example.ts", typeImport("PublicShopConfig", "#server/config.ts"))).toHaveLength(0);
  });
});

describe("server/platform never imports a module", () => {
  it("fails an import of a module, even through its index.ts", async () => {
    expect(await ruleHits("server/platform/mail/example.ts", valueImport("seedSampleData", "../../modules/catalog/index.ts"))).toHaveLength(1);
    expect(await ruleHits("server/platform/example.ts", typeImport("OrdersService", "#server/modules/orders/orders.ts"))).toHaveLength(1);
  });

  it("lets the platform import itself", async () => {
    expect(await ruleHits("server/platform/mail/example.ts", valueImport("createSealer", "../sealed-values.ts"))).toHaveLength(0);
  });
});

describe("server/platform imports only the platform, common/shared and packages", () => {
  it("fails the application's composed services, even as a type, from any depth and by alias", async () => {
    expect(await ruleHits("server/platform/http/example.ts", typeImport("Services", "../../create-services.ts"))).toHaveLength(1);
    expect(await ruleHits("server/platform/example.ts", typeImport("Services", "../create-services.ts"))).toHaveLength(1);
    expect(await ruleHits("server/platform/mail/migrations/example.ts", typeImport("Services", "../../../create-services.ts"))).toHaveLength(1);
    expect(await ruleHits("server/platform/http/example.ts", typeImport("Services", "#server/create-services.ts"))).toHaveLength(1);
  });

  it("fails the rest of server/, app/, a feature's common/ folder and the tests' helpers outside a test", async () => {
    expect(await ruleHits("server/platform/http/example.ts", typeImport("PublicShopConfig", "../../config.ts"))).toHaveLength(1);
    expect(await ruleHits("server/platform/mail/example.ts", valueImport("pageMeta", "#app/shared/lib/seo.ts"))).toHaveLength(1);
    expect(await ruleHits("server/platform/mail/example.ts", valueImport("cartSchema", "#common/cart/cart-schemas.ts"))).toHaveLength(1);
    expect(await ruleHits("server/platform/mail/example.ts", valueImport("startSmtpCapture", "../../../tests/support/smtp-capture.ts"))).toHaveLength(1);
    expect(await ruleHits("server/platform/http/example.ts", `export type { Services } from "../../create-services.ts";\n`)).toHaveLength(1);
  });

  it("lets the platform import itself, common/shared (relative or by alias) and packages; its tests also the test helpers", async () => {
    expect(await ruleHits("server/platform/http/example.ts", typeImport("SessionUser", "../session-user.ts"))).toHaveLength(0);
    expect(await ruleHits("server/platform/http/example.ts", valueImport("messages", "#common/shared/messages.ts"))).toHaveLength(0);
    expect(await ruleHits("server/platform/media/example.ts", valueImport("MAX_IMAGE_BYTES", "../../../common/shared/constants.ts"))).toHaveLength(0);
    expect(await ruleHits("server/platform/http/example.ts", valueImport("Hono", "hono"))).toHaveLength(0);
    expect(await ruleHits("server/platform/mail/example.test.ts", valueImport("startSmtpCapture", "../../../tests/support/smtp-capture.ts"))).toHaveLength(0);
  });
});

describe("a module reaches another only through its index.ts", () => {
  it("fails an import of another module's file, from the module's root or a folder in it", async () => {
    expect(await ruleHits("server/modules/orders/example.ts", valueImport("lineProblem", "../cart/cart.ts"))).toHaveLength(1);
    expect(await ruleHits("server/modules/accounts/auth/example.ts", valueImport("lineProblem", "../../cart/cart.ts"))).toHaveLength(1);
    expect(await ruleHits("server/modules/orders/example.ts", valueImport("lineProblem", "#server/modules/cart/cart.ts"))).toHaveLength(1);
  });

  it("fails the composition root and tests that reach into a module", async () => {
    expect(await ruleHits("server/create-services.ts", valueImport("createCartService", "./modules/cart/cart.ts"))).toHaveLength(1);
    expect(await ruleHits("tests/api/example.test.ts", valueImport("OPEN_AUTH_PATHS", "../../server/modules/accounts/auth/auth-rules.ts"))).toHaveLength(1);
  });

  it("lets a module import another's index.ts, its own files and common/", async () => {
    expect(await ruleHits("server/modules/orders/example.ts", valueImport("lineProblem", "../cart/index.ts"))).toHaveLength(0);
    expect(await ruleHits("server/modules/accounts/example.ts", valueImport("createAuth", "./auth/auth.ts"))).toHaveLength(0);
    expect(await ruleHits("server/modules/orders/example.ts", valueImport("cartSchema", "../../../common/cart/cart-schemas.ts"))).toHaveLength(0);
  });
});

describe("a feature of the app imports neither another feature nor the composed pages", () => {
  it("fails a feature's component that imports another feature's component, relative or by alias", async () => {
    expect(await ruleHits("app/features/catalog/components/example.tsx", valueImport("RatingSummary", "../../reviews/components/stars.tsx"))).toHaveLength(1);
    expect(await ruleHits("app/features/orders/routes/example.tsx", valueImport("AdminNav", "#app/features/admin/components/admin-nav.tsx"))).toHaveLength(1);
    expect(await ruleHits("app/features/cart/routes/example.tsx", typeImport("ProductCardSlots", "../../catalog/components/product-card.tsx"))).toHaveLength(1);
  });

  it("fails a feature that imports a page", async () => {
    expect(await ruleHits("app/features/catalog/components/example.tsx", valueImport("productCardSlots", "../../../pages/product-card-slots.tsx"))).toHaveLength(1);
  });

  it("lets a feature import itself and app/shared, and a page import several features", async () => {
    expect(await ruleHits("app/features/catalog/components/example.tsx", valueImport("useLiveProduct", "../lib/use-live-product.ts"))).toHaveLength(0);
    expect(await ruleHits("app/features/catalog/components/example.tsx", valueImport("Picture", "../../../shared/ui/picture.tsx"))).toHaveLength(0);
    expect(await ruleHits("app/pages/example.tsx", valueImport("RatingSummary", "../features/reviews/components/stars.tsx"))).toHaveLength(0);
    expect(await ruleHits("app/pages/example.tsx", valueImport("ProductGrid", "../features/catalog/components/product-card.tsx"))).toHaveLength(0);
  });
});

describe("common/ imports nothing from app/ or server/", () => {
  it("fails an import from server/ or app/, relative or by alias, even of a type", async () => {
    expect(await ruleHits("common/catalog/example.ts", typeImport("Config", "#server/config.ts"))).toHaveLength(1);
    expect(await ruleHits("common/catalog/example.ts", valueImport("pageMeta", "../../app/shared/lib/seo.ts"))).toHaveLength(1);
    expect(await ruleHits("common/shared/example.ts", valueImport("ServiceError", "../../server/platform/errors.ts"))).toHaveLength(1);
  });

  it("lets common/ import common/", async () => {
    expect(await ruleHits("common/cart/example.ts", valueImport("formatPrice", "../shared/money.ts"))).toHaveLength(0);
  });
});

describe("the rule on Hono's request variables", () => {
  it("fails a read through c.var, which copies every variable into a new object, and lets c.get through", async () => {
    const handler = (read: string) => `import type { Context } from "hono";\nexport const who = (c: Context) => ${read};\n`;
    expect(await ruleHits("server/platform/http/example.ts", handler("c.var.user"))).toHaveLength(1);
    expect(await ruleHits("server/platform/http/example.ts", handler('c.get("user")'))).toHaveLength(0);
  });
});
