// The read-only proof, as a vitest reporter: after the run, the audit log the e2e tier wrote
// (test/e2e/global-setup.ts names it in PTAH_E2E_AUDIT_LOG and the offset it started at in
// PTAH_E2E_AUDIT_START) is judged by readOnlyVerdict (test/support/audit.ts): every request by
// the plugin's own identities (the lab's certificates of group ptah:plugin-under-test, which the
// tier runs the plugin with and never writes with, and system:anonymous) whatever its user agent,
// and every request with the plugin's user agent. A failed verdict prints every offending request
// and sets process.exitCode = 1.
//
// Why a reporter: an error thrown in a globalSetup teardown is only logged by vitest 4.1
// ("error during close") and the process still exits 0, so a proof there cannot fail the run.
// onTestRunEnd runs before that teardown, while the lab is still up, in vitest's own process,
// and whatever exit code it sets stands (vitest only ever raises it). A last ordered test would
// depend on the sequencer and be filtered away by `-t`; a step in .ci/run would not guard
// `npm test`. It is registered in vitest.config.ts and by package.json's test scripts (their
// --reporter flags replace the config's list); global-setup.ts refuses to run the tier under
// CI (CI=true, CI=1 or PTAH_E2E=required) when it is not registered.
import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { readAuditLog, readOnlyVerdict, verdictFailures, verdictSummary } from "../support/audit.ts";

/**
 * The whole tier sent 132 plugin requests on 2026-12-01 (125 the run before). The floor is under a
 * third of that, so no ordinary change of the tests trips it, and far above what a tier sends whose
 * plugin never reached the lab (0: a PTAH_BIN_DIR that runs something else, a kubeconfig that
 * points elsewhere, every case skipped). It applies only when every e2e file ran unfiltered.
 */
export const REQUEST_FLOOR = 40;

const E2E_DIR = import.meta.dirname;

export default class ReadOnlyProof implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunEnd(testModules: readonly TestModule[]): Promise<void> {
    const file = process.env.PTAH_E2E_AUDIT_LOG;
    if (!file) return; // the e2e tier did not run (or was skipped with its one line)
    // The apiserver writes audit events asynchronously: give it a moment.
    await new Promise((r) => setTimeout(r, 2000));
    const events = readAuditLog(file, Number(process.env.PTAH_E2E_AUDIT_START ?? "0"));
    const verdict = readOnlyVerdict(events, { floor: this.wholeTier(testModules) ? REQUEST_FLOOR : 0 });
    const failures = verdictFailures(verdict);
    process.stderr.write(`${verdictSummary(verdict)}${failures.length ? "" : ": held"}\n`);
    if (failures.length === 0) return;
    process.stderr.write(`${failures.join("\n")}\nread-only proof: FAILED\n`);
    process.exitCode = 1;
  }

  /** The floor applies only when every e2e file ran unfiltered (not `vitest run one.e2e.test.ts`, not `-t`). */
  private wholeTier(testModules: readonly TestModule[]): boolean {
    if (this.vitest?.config.testNamePattern) return false;
    const ran = new Set(testModules.filter((m) => m.project.name === "e2e").map((m) => path.resolve(m.moduleId)));
    const all = fs.readdirSync(E2E_DIR).filter((f) => f.endsWith(".e2e.test.ts"));
    return all.every((f) => ran.has(path.join(E2E_DIR, f)));
  }
}
