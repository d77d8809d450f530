// "CI=true requires them all", the closing block's words, as behaviour: under CI (CI=true, CI=1 or
// PTAH_E2E=required) a missing tool fails its test naming the tool and the command that provides
// it, krew's tests included; the e2e and release tiers' setups refuse to skip; and the closing
// block's reporter fails the run on any test it lists, whatever skipped it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TestModule, TestProject, Vitest } from "vitest/node";
import e2eSetup from "../e2e/global-setup.ts";
import releaseSetup from "../release/global-setup.ts";
import { needTool, skipNote, toolsRequired, type ToolName } from "./machine-tools.ts";
import NotRunReporter, { notRunLines, requiredVerdict, type Outcome } from "./not-run-reporter.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const KREW_BUILD = "node krew/krew-tools.mjs (builds krew and validate-krew-manifest once from the Go module proxy)";

/** A machine without CI's variables, and without krew's tools anywhere. */
function localMachine(): void {
  vi.stubEnv("CI", "");
  vi.stubEnv("PTAH_E2E", "");
  vi.stubEnv("PATH", "/nonexistent");
  vi.stubEnv("PTAH_KREW_BIN_DIR", "/nonexistent/krew-bin");
}

const skipping = () =>
  vi.fn((note?: string): never => {
    throw new Error(`skipped: ${note}`);
  });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("toolsRequired", () => {
  it.each([
    [{ CI: "true" }, true],
    [{ CI: "1" }, true],
    [{ CI: "TRUE" }, true],
    [{ PTAH_E2E: "required" }, true],
    [{ CI: "true", PTAH_E2E: "required" }, true],
    [{}, false],
    [{ CI: "" }, false],
    [{ CI: "false" }, false],
    [{ CI: "0" }, false],
    [{ PTAH_E2E: "optional" }, false],
  ])("%j → %s", (env, required) => {
    expect(toolsRequired(env)).toBe(required);
  });
});

describe("krew's tests need their tools through needTool", () => {
  it.each<[ToolName, string]>([
    ["krew", "needs krew: krew is not built (kubectl-krew in ~/.cache/kubectl-ptah/krew-bin or $PTAH_KREW_BIN_DIR, or on PATH)"],
    ["validate-krew-manifest", "needs validate-krew-manifest: validate-krew-manifest is not built (in ~/.cache/kubectl-ptah/krew-bin or $PTAH_KREW_BIN_DIR, or on PATH)"],
  ])("%s: skipped with its note and command here, failed with the same words under CI=true and CI=1", (tool, missing) => {
    localMachine();
    const note = `${missing}; to run it: ${KREW_BUILD}`;
    expect(skipNote(tool)).toBe(note);
    const skip = skipping();
    expect(() => needTool({ skip }, tool)).toThrow(`skipped: ${note}`);
    for (const ci of ["true", "1"]) {
      vi.stubEnv("CI", ci);
      expect(() => needTool({ skip }, tool)).toThrow(`${note} (required under CI=true, CI=1 or PTAH_E2E=required)`);
    }
    expect(skip).toHaveBeenCalledTimes(1);
    // and the closing block lists it with the command that provides it
    expect(notRunLines([{ project: "unit", name: "m.test.ts > krew > t", state: "skipped", note }], {})[2]).toBe(`  ${note} (1 test):`);
  });

  it("build:binary's note names the manifest and the command", () => {
    expect(skipNote("build:binary")).toBe("needs build:binary: no dist/krew/ptah.yaml (this machine's archive and its krew manifest); to run it: npm run build:binary");
  });

  it("test/distribution/manifest.test.ts decides nothing by skipIf: each krew test asks needTool", () => {
    const text = fs.readFileSync(path.join(ROOT, "test", "distribution", "manifest.test.ts"), "utf8");
    expect(text).not.toMatch(/skipIf|runIf|\.skip\(\s*[^"'`]|hasTool/u);
    for (const tool of ["krew", "validate-krew-manifest", "build:binary"]) expect(text).toContain(`needTool(ctx, "${tool}")`);
    // every test below the needTool comment calls it: 1 + 1 + 1 (the six platforms) + 1
    expect(text.match(/needTool\(ctx, /gu)).toHaveLength(5);
  });
});

describe("the closing block fails the run under CI", () => {
  const skipped = (note?: string): Outcome => ({ project: "unit", name: "a.test.ts > a", state: "skipped", note });

  it("on any test it lists: with a note, without one, or a hook's failure", () => {
    for (const t of [skipped(skipNote("krew")), skipped(), { ...skipped(), setupFailed: true }]) {
      const lines = notRunLines([t], {});
      expect(lines.length).toBeGreaterThan(0);
      expect(requiredVerdict(lines, { CI: "true" })).toMatch(/every test above is required: the run fails \(exit 1\)/u);
      expect(requiredVerdict(lines, { CI: "1" })).toBeDefined();
      expect(requiredVerdict(lines, { PTAH_E2E: "required" })).toBeDefined();
      expect(requiredVerdict(lines, {})).toBeUndefined();
    }
    expect(requiredVerdict(notRunLines([{ ...skipped(), state: "passed" }], {}), { CI: "true" })).toBeUndefined();
  });

  it("the reporter sets exit code 1 under CI=true for a test skipped without a reason, and prints the tool's note", () => {
    const before = process.exitCode;
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const test = {
      type: "test",
      fullName: "kubectl krew install > installs on linux/amd64",
      module: { moduleId: path.join(ROOT, "test", "distribution", "manifest.test.ts") },
      project: { name: "unit" },
      parent: { type: "module", errors: () => [], state: () => "passed" },
      result: () => ({ state: "skipped", note: skipNote("krew") }),
    };
    const module = { children: { allTests: () => [test] } } as unknown as TestModule;
    const run = (env: string) => {
      vi.stubEnv("CI", env);
      vi.stubEnv("PTAH_E2E", "");
      process.exitCode = 0;
      const reporter = new NotRunReporter();
      reporter.onInit({ config: { watch: true } } as unknown as Vitest);
      reporter.onTestRunEnd([module]);
      return { code: process.exitCode, printed: String(write.mock.calls.at(-1)?.[0]) };
    };
    try {
      const ci = run("true");
      expect(ci.code).toBe(1);
      expect(ci.printed).toContain(`  ${skipNote("krew")} (1 test):`);
      expect(ci.printed).toContain("the run fails (exit 1)");
      const local = run("");
      expect(local.code).toBe(0);
      expect(local.printed).toContain(skipNote("krew"));
      expect(local.printed).not.toContain("the run fails");
    } finally {
      process.exitCode = before;
    }
  });
});

// Each setup runs on a machine with nothing: no Go on PATH, an empty cache and lab folder, so
// whatever it decides, it cannot build or start anything (not even if toolsRequired regressed).
describe("the tiers' setups under CI", () => {
  let empty = "";
  beforeEach(() => {
    empty = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-no-tools-"));
    for (const [k, v] of Object.entries({ PATH: "/nonexistent", XDG_CACHE_HOME: empty, PTAH_CACHE_DIR: empty, PTAH_LAB_DIR: path.join(empty, "lab") })) vi.stubEnv(k, v);
    for (const k of ["CI", "PTAH_E2E", "PTAH_E2E_SKIP", "PTAH_RELEASE_SKIP"]) vi.stubEnv(k, "");
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterEach(() => fs.rmSync(empty, { recursive: true, force: true }));
  const project = (reporters: unknown[]) => ({ vitest: { config: { reporters } } }) as unknown as TestProject;
  const withProof = project(["default", ["./test/e2e/read-only-reporter.ts", {}]]);

  it("the e2e tier without Go is skipped with its reason here, and fails under CI=true, CI=1 and PTAH_E2E=required", () => {
    expect(e2eSetup(withProof)()).toBeUndefined();
    expect(process.env.PTAH_E2E_SKIP).toMatch(/^no Go toolchain on PATH/u);
    for (const [k, v] of [
      ["CI", "true"],
      ["CI", "1"],
      ["PTAH_E2E", "required"],
    ] as const) {
      for (const key of ["CI", "PTAH_E2E"]) vi.stubEnv(key, "");
      vi.stubEnv(k, v);
      expect(() => e2eSetup(withProof)).toThrow(/^the end-to-end tier is required under CI \(CI=true, CI=1 or PTAH_E2E=required\), but no Go toolchain/u);
      // and without the read-only proof among the reporters, before anything else
      expect(() => e2eSetup(project(["default"]))).toThrow(/required under CI .*, but the read-only proof/u);
    }
  });

  it("the release tier without Go is skipped with its reason here, and fails under CI=true and CI=1", () => {
    releaseSetup();
    expect(process.env.PTAH_RELEASE_SKIP).toMatch(/^no Go toolchain on PATH/u);
    for (const ci of ["true", "1"]) {
      vi.stubEnv("CI", ci);
      expect(() => releaseSetup()).toThrow(/^the release tier is required under CI, but no Go toolchain/u);
    }
  });
});
