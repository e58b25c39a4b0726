import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/** Per vitest project: the test files it ran and how their tests ended. */
export type ProjectCounts = Record<string, { files: string[]; passed: number; failed: number; skipped: number }>;

/**
 * Writes, per project, which files ran and how many tests passed, failed or were skipped to the file named by
 * VITEST_PROJECT_COUNTS, so that .ci/run can fail when the PostgreSQL project did not run (docs/decisions/017).
 */
export default class ProjectCountsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const target = process.env.VITEST_PROJECT_COUNTS;
    if (!target) return;
    const counts: ProjectCounts = {};
    for (const module of testModules) {
      const project = (counts[module.project.name] ??= { files: [], passed: 0, failed: 0, skipped: 0 });
      project.files.push(module.relativeModuleId);
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") project.passed++;
        else if (state === "failed") project.failed++;
        else project.skipped++;
      }
    }
    writeFileSync(target, JSON.stringify(counts, null, 2));
  }
}
