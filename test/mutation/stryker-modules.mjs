// The modules `npm run mutate` mutates, each with the unit test files that guard it: Stryker runs
// only those files (per-test coverage inside them), so one module's run stays within minutes on two
// cores. A test file that guards a module but is not listed here cannot kill its mutants. `module`
// is one file, or a folder whose .ts files are mutated in one run (and recorded file by file).
export const MODULES = [
  { module: "src/plan/verify-chunks.ts", tests: ["test/plan/verify-chunks.test.ts", "test/plan/tampering.test.ts", "test/plan/export-checks.test.ts", "test/plan/load.test.ts"] },
  {
    module: "src/plan/verify.ts",
    tests: ["test/plan/verify-checks.test.ts", "test/plan/tampering.test.ts", "test/plan/export-checks.test.ts", "test/plan/load.test.ts", "test/plan/export-limit.test.ts"],
  },
  // Its limits and form are module-level constants, run once when the module loads: the vitest
  // runner switches a mutant on after that, so only a fresh process per mutant judges them.
  {
    module: "src/plan/export.ts",
    tests: ["test/plan/export.test.ts", "test/plan/export-checks.test.ts", "test/plan/export-limit.test.ts", "test/plan/export-form.test.ts", "test/plan/export-contents.test.ts"],
    runner: "command",
  },
  {
    module: "src/plan/allowed-signers.ts",
    tests: [
      "test/plan/allowed-signers.test.ts",
      "test/plan/allowed-signers-grammar.test.ts",
      "test/plan/allowed-signers-lines.test.ts",
      "test/plan/allowed-signers-messages.test.ts",
      "test/plan/signer-oracle.test.ts",
      "test/plan/ssh-signature.test.ts",
    ],
  },
  { module: "src/plan/ssh-signature.ts", tests: ["test/plan/ssh-signature-format.test.ts", "test/plan/ssh-signature.test.ts", "test/plan/allowed-signers-lines.test.ts"] },
  { module: "src/kube/request-guard.ts", tests: ["test/kube/request-guard.test.ts", "test/kube/admission-reads.test.ts", "test/guarantees/request-guard-cli.test.ts"] },
  // The run-time guards install themselves once per process: a fresh process per mutant (mutate.mjs).
  // process-guard-bin.test.ts runs the sandbox's bundle, built from the mutated source, with the mutant named.
  {
    module: "src/cli/process-guard.ts",
    tests: ["test/guarantees/process-guard.test.ts", "test/guarantees/process-guard-rules.test.ts", "test/distribution/process-guard-bin.test.ts"],
    runner: "command",
  },
  { module: "src/cli/egress-guard.ts", tests: ["test/guarantees/egress-guard.test.ts"], runner: "command" },
  { module: "src/locks/", tests: ["test/locks/rules.test.ts", "test/locks/parser-compile.test.ts", "test/locks/hostile.property.test.ts"] },
];
