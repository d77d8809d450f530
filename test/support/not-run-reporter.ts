// The closing block of every test run (a vitest reporter, registered in vitest.config.ts and by
// package.json's test scripts): each tier and each test that did not run, why, and the command that
// makes it run. A test skipped by test/support/machine-tools.ts's needTool() carries its reason
// and install command as vitest's skip note; a tier whose global setup found no way to run sets
// PTAH_E2E_SKIP or PTAH_RELEASE_SKIP (its reason and command), and its tests are counted, not listed.
// Under CI (CI=true or CI=1, or PTAH_E2E=required; .ci/run sets them) a missing tool fails its
// test instead, a tier's setup fails rather than skip, and this reporter fails the run (exit 1) on
// any test its block lists, whatever skipped it (a skipIf without a note included): the block's
// "CI=true requires them all" is what happens. .ci/summary.mjs lists every skip again for CI.
import path from "node:path";
import type { Reporter, TestCase, TestModule, Vitest } from "vitest/node";
import { toolsRequired } from "./machine-tools.ts";

const REPO = path.resolve(import.meta.dirname, "..", "..");
const TIERS: Record<string, string> = { e2e: "PTAH_E2E_SKIP", release: "PTAH_RELEASE_SKIP" };
/** Tests listed per reason; the rest are counted. */
const LISTED = 8;

/** One test's outcome, as the block needs it. */
export interface Outcome {
  readonly project: string;
  /** "file > describe > title" */
  readonly name: string;
  readonly state: string;
  readonly note?: string;
  /** A hook of an enclosing suite (or the module's collection) failed, so the test never ran. */
  readonly setupFailed?: boolean;
}

const SETUP_FAILED = "not run: a hook of its suite failed (the failure is reported above)";
const NO_REASON = "skipped without a reason given (it.skip / describe.skipIf without a note)";

/** Did a hook of an enclosing suite, or the module itself, fail? (vitest then marks the tests skipped) */
function setupFailed(t: TestCase): boolean {
  for (let s: TestCase["parent"] | undefined = t.parent; s; s = s.type === "module" ? undefined : s.parent) if (s.errors().length > 0 || s.state() === "failed") return true;
  return false;
}

function outcome(t: TestCase): Outcome {
  const result = t.result();
  const file = path.relative(REPO, t.module.moduleId).split(path.sep).join("/");
  const skipped = result.state === "skipped";
  return { project: t.project.name, name: `${file} > ${t.fullName}`, state: result.state, note: skipped ? result.note : undefined, setupFailed: skipped && setupFailed(t) };
}

/**
 * The closing block's lines (empty when every test ran). With `filtered` (a -t pattern), a skip
 * without a note is the filter's doing and is not listed.
 */
export function notRunLines(tests: readonly Outcome[], env: NodeJS.ProcessEnv = process.env, filtered = false): string[] {
  const tiers = new Map<string, number>();
  const byReason = new Map<string, string[]>();
  for (const t of tests) {
    if (t.state !== "skipped") continue;
    const tierVar = TIERS[t.project];
    if (tierVar && env[tierVar]) {
      tiers.set(t.project, (tiers.get(t.project) ?? 0) + 1);
      continue;
    }
    if (t.note === undefined && filtered && !t.setupFailed) continue;
    const reason = t.note ?? (t.setupFailed ? SETUP_FAILED : NO_REASON);
    byReason.set(reason, [...(byReason.get(reason) ?? []), t.name]);
  }
  const lines: string[] = [];
  for (const [tier, count] of tiers) lines.push(`the ${tier} tier (${count} tests): ${env[TIERS[tier]!]!}`);
  for (const [reason, names] of byReason) {
    lines.push(`${reason} (${names.length} ${names.length === 1 ? "test" : "tests"}):`);
    for (const n of names.slice(0, LISTED)) lines.push(`    ${n}`);
    if (names.length > LISTED) lines.push(`    … and ${names.length - LISTED} more`);
  }
  if (lines.length === 0) return [];
  return ["", "Not run here (each runs once its tool is installed; CI=true requires them all):", ...lines.map((l) => (l.startsWith("    ") ? l : `  ${l}`))];
}

/**
 * Under CI, the line that fails the run when the block lists any test (see notRunLines), else
 * undefined: a test CI=true requires was not run.
 */
export function requiredVerdict(lines: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (lines.length === 0 || !toolsRequired(env)) return undefined;
  return "Under CI (CI=true, CI=1 or PTAH_E2E=required) every test above is required: the run fails (exit 1).";
}

export default class NotRunReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    const tests = testModules.flatMap((m) => [...m.children.allTests()].map(outcome));
    if (tests.length === 0) return; // nothing was collected (a setup failed, or no file matched): vitest says why
    const filtered = Boolean(this.vitest?.config.testNamePattern);
    const lines = notRunLines(tests, process.env, filtered);
    const verdict = requiredVerdict(lines);
    if (verdict) {
      lines.push(verdict);
      process.exitCode = 1; // vitest keeps a reporter's exit code (it only ever raises it)
    }
    const all = filtered ? "Every test this -t filter selected ran" : `Every test of this run ran (${tests.length} tests, none skipped)`;
    const block = `${(lines.length > 0 ? lines : ["", `${all}.`]).join("\n")}\n`;
    // Last of all: the other reporters end concurrently with this one (the read-only proof waits
    // for the audit log) and the global teardowns print after them, so the block is written when
    // vitest exits (stdout is synchronous on Linux), or at once in watch mode.
    if (this.vitest?.config.watch) process.stdout.write(block);
    else process.once("exit", () => process.stdout.write(block));
  }
}
