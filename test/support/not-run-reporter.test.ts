// The closing block (./not-run-reporter.ts) and the skip-or-fail rule of ./machine-tools.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import { needTool, skipNote, toolsRequired } from "./machine-tools.ts";
import { notRunLines, type Outcome } from "./not-run-reporter.ts";

const ran = (name: string): Outcome => ({ project: "unit", name, state: "passed" });
const skipped = (project: string, name: string, note?: string): Outcome => ({ project, name, state: "skipped", note });

describe("the closing block", () => {
  it("is empty when every test ran", () => {
    expect(notRunLines([ran("a.test.ts > a"), ran("b.test.ts > b")], {})).toEqual([]);
  });

  it("groups skips by their note (reason and install command), listing each test", () => {
    const note = skipNote("zsh");
    const lines = notRunLines([ran("x > ok"), skipped("unit", "c.test.ts > zsh > one", note), skipped("unit", "c.test.ts > zsh > two", note)], {});
    expect(lines).toEqual([
      "",
      "Not run here (each runs once its tool is installed; CI=true requires them all):",
      "  needs zsh: no zsh on PATH; to run it: apt-get install zsh (2 tests):",
      "    c.test.ts > zsh > one",
      "    c.test.ts > zsh > two",
    ]);
  });

  it("names a tier its setup did not run once, with the setup's reason, and counts its tests", () => {
    const env = { PTAH_E2E_SKIP: "no Go toolchain on PATH" };
    const lines = notRunLines([skipped("e2e", "a.e2e.test.ts > a"), skipped("e2e", "b.e2e.test.ts > b"), skipped("release", "r > r", skipNote("wine64"))], env);
    expect(lines.slice(2)).toEqual(["  the e2e tier (2 tests): no Go toolchain on PATH", "  needs wine64: no wine64; to run it: apt-get install wine64 (1 test):", "    r > r"]);
  });

  it("lists a skip without a note as such, unless a -t filter explains it; cuts long lists", () => {
    const many = Array.from({ length: 10 }, (_, i) => skipped("unit", `m > t${i}`));
    const lines = notRunLines(many, {});
    expect(lines[2]).toBe("  skipped without a reason given (it.skip / describe.skipIf without a note) (10 tests):");
    expect(lines.slice(3)).toEqual([...many.slice(0, 8).map((t) => `    ${t.name}`), "    … and 2 more"]);
    expect(notRunLines(many, {}, true)).toEqual([]);
  });

  it("says a test whose suite's hook failed was not run for that, not skipped without a reason", () => {
    const lines = notRunLines([{ ...skipped("e2e", "f.e2e.test.ts > two planes > one"), setupFailed: true }, skipped("unit", "u > plain")], {}, true);
    expect(lines.slice(2)).toEqual(["  not run: a hook of its suite failed (the failure is reported above) (1 test):", "    f.e2e.test.ts > two planes > one"]);
  });
});

describe("needTool", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("returns the tool's path when it is there", () => {
    vi.stubEnv("PTAH_CHROMIUM", "/usr/bin/true");
    expect(needTool({ skip: () => expect.unreachable() }, "chromium")).toBe("/usr/bin/true");
  });

  it("skips with the note when the tool is missing, and fails with it under CI", () => {
    vi.stubEnv("PATH", "/nonexistent");
    vi.stubEnv("CI", "");
    vi.stubEnv("PTAH_E2E", "");
    const skip = vi.fn((note?: string): never => {
      throw new Error(`skipped: ${note}`);
    });
    expect(() => needTool({ skip }, "fish")).toThrow("skipped: needs fish: no fish on PATH; to run it: apt-get install fish");
    vi.stubEnv("CI", "true");
    expect(() => needTool({ skip }, "fish")).toThrow(/^needs fish: no fish on PATH; to run it: apt-get install fish \(required under CI=true/u);
    expect(skip).toHaveBeenCalledTimes(1);
  });

  it("is required under CI=true, CI=1 or PTAH_E2E=required, and only then", () => {
    expect([toolsRequired({ CI: "true" }), toolsRequired({ PTAH_E2E: "required" }), toolsRequired({}), toolsRequired({ CI: "1" }), toolsRequired({ CI: "false" })]).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
  });
});
