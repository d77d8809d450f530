// The vitest configuration StrykerJS runs the unit tests under (test/mutation/mutate.mjs): the
// unit project of vitest.config.ts as one plain project (Stryker drives a single vitest, one
// worker, in its sandbox), without the read-only and not-run reporters, which judge a whole tier.
import { defineConfig } from "vitest/config";

process.env.TZ = "UTC";

export default defineConfig({
  test: {
    // PTAH_UNDER_MUTATION: the oracle tests that spawn a tool per generated case run fewer cases
    // (each says how many), so a module's hundreds of mutants finish in minutes.
    env: { TZ: "UTC", NO_COLOR: "1", PTAH_UNDER_MUTATION: "1" },
    restoreMocks: true,
    update: "none",
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "test/release/**", "test/mutation/**", "node_modules/**"],
    testTimeout: 60_000,
  },
});
