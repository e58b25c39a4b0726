import { readFileSync } from "node:fs";
import type { ProjectCounts } from "./project-counts-reporter.ts";

// .ci/run's check after `npm test`: the PostgreSQL project ran, every database test file ran in it as on
// SQLite, and no test anywhere was skipped. Usage: tsx tests/support/check-project-counts.ts <counts.json>
const file = process.argv[2];
if (!file) throw new Error("usage: check-project-counts.ts <file written by project-counts-reporter.ts>");
const text = readFileSync(file, "utf8");
if (!text.trim()) {
  console.error(`FAIL: vitest wrote no counts to ${file} (did it run with VITEST_PROJECT_COUNTS set?)`);
  process.exit(1);
}
const counts = JSON.parse(text) as ProjectCounts;
const problems: string[] = [];
const sqlite = counts.sqlite;
const postgres = counts.postgres;
if (!postgres || postgres.passed === 0) problems.push("the PostgreSQL project ran no tests (is TEST_DATABASE_URL set?)");
if (!sqlite || sqlite.passed === 0) problems.push("the SQLite project ran no tests");
if (sqlite && postgres) {
  const missing = sqlite.files.filter((f) => !postgres.files.includes(f));
  if (missing.length) problems.push(`database test files that did not run on PostgreSQL: ${missing.join(", ")}`);
}
for (const [name, project] of Object.entries(counts)) {
  if (project.failed) problems.push(`${project.failed} failed tests in project ${name}`);
  if (project.skipped) problems.push(`${project.skipped} skipped tests in project ${name}`);
}
for (const [name, project] of Object.entries(counts)) console.log(`vitest project ${name}: ${project.files.length} files, ${project.passed} tests passed`);
if (problems.length) {
  console.error(problems.map((p) => `FAIL: ${p}`).join("\n"));
  process.exit(1);
}
