import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();
const RULE = "no-restricted-imports";

async function ruleHits(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE);
}

describe("the import rule that keeps the database behind the services", () => {
  const databaseImport = 'import { openDatabase } from "../../server/platform/db/client.ts";\nexport const x = openDatabase;\n';

  it("fails a screen that imports the database", async () => {
    expect(await ruleHits("app/routes/example.tsx", databaseImport)).toHaveLength(1);
    expect(await ruleHits("app/routes/example.tsx", 'import { Kysely } from "kysely";\nexport const k = Kysely;\n')).toHaveLength(1);
  });

  it("fails an API handler that imports the database", async () => {
    expect(await ruleHits("server/api/example.ts", 'import type { DB } from "../db/schema.ts";\nexport type T = DB;\n')).toHaveLength(1);
  });

  it("lets services use the database", async () => {
    expect(await ruleHits("server/services/example.ts", 'import type { DB } from "../db/schema.ts";\nexport type T = DB;\n')).toHaveLength(0);
  });
});
