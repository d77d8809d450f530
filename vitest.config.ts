// The tiers, one project each (docs/testing.md, "Tiers", lists them; test/docs/facts.test.ts holds
// the two together): `unit` (pure code, golden files, in-process CLI over fixtures and fault
// servers), `mutation` (the checks' mutation table), `e2e` (the real kubectl and our bin against
// the lab's real kube-apiserver) and `release` (the six platform binaries).
// Golden files are only rewritten by `npm run test:update` (`--update` overrides `update: "none"`):
// a missing golden fails every other run, in CI or not (vitest would otherwise write it and pass).
import os from "node:os";
import { defineConfig } from "vitest/config";

process.env.TZ = "UTC";

export default defineConfig({
  test: {
    env: { TZ: "UTC", NO_COLOR: "1" },
    restoreMocks: true,
    update: "none",
    // The read-only proof fails the run from a reporter (see test/e2e/read-only-reporter.ts); the
    // last one prints what did not run, why, and how to make it run (test/support/not-run-reporter.ts).
    reporters: ["default", "./test/e2e/read-only-reporter.ts", "./test/support/not-run-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "test/release/**", "test/mutation/**", "node_modules/**"],
          testTimeout: 60_000,
          // One worker per core. vitest's default is one fewer (its main thread's), which on a
          // 2-core machine ran the whole unit tier in one worker, its files one after another
          // (835 s of CI's npm test); the main thread only relays results.
          maxWorkers: os.availableParallelism(),
        },
      },
      {
        // The checks' mutation table (test/mutation/checks.test.ts): each row runs unit test files
        // against one mutant of src/ in a child vitest, one row after another.
        extends: true,
        test: {
          name: "mutation",
          include: ["test/mutation/**/*.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.e2e.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "release",
          include: ["test/release/**/*.test.ts"],
          globalSetup: ["test/release/global-setup.ts"],
          testTimeout: 300_000,
          hookTimeout: 3_600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
