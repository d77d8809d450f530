// The scenario files are data: each loads, declares the variables its steps read, and states
// claims the runner can check. (Running them against the lab is test/e2e/scenarios.e2e.test.ts.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listScenarioFiles, loadScenario, parseDuration, variablesRead } from "./scenario.ts";
import { HOLD_PHASE_ANNOTATION, RECONCILE_AFTER_ANNOTATION } from "../sim/common.ts";

const files = listScenarioFiles();

describe("scenario files", () => {
  it("include the five stories users meet first", () => {
    expect(files.map((f) => path.basename(f, ".yaml"))).toEqual(
      expect.arrayContaining(["stale-approval", "manual-approval", "destructive-block", "migration-approval", "partial-run-acknowledgment", "four-eyes"]),
    );
  });

  it.each(files.map((f) => [path.basename(f), f]))("%s loads, and its steps read only declared variables", (_name, file) => {
    const s = loadScenario(file);
    expect(s.id).toBe(path.basename(file, ".yaml"));
    expect(s.steps.length).toBeGreaterThan(0);
  });

  it("keeps the seed's seven steps first in stale-approval, with its awaited claims", () => {
    const s = loadScenario(files.find((f) => f.endsWith("stale-approval.yaml"))!);
    expect(s.steps[2]!.await?.condition).toEqual({ type: "InSync", status: "True", reason: "ScopedConverged" });
    expect(s.steps[5]!.await?.condition).toEqual({ type: "ApprovalRequired", status: "True", reason: "Waiting" });
    expect(s.steps[6]!.expect.stdout_absent).toEqual(["signed_up_at"]);
  });

  it("runs the seed's psql as step 7, reading storefront's database through the declared PG variables", () => {
    const s = loadScenario(files.find((f) => f.endsWith("stale-approval.yaml"))!);
    expect(s.steps[6]!.run.trim()).toBe('psql -c "\\d customers"');
    expect(s.variables).toEqual(expect.arrayContaining(["PGHOST", "PGPORT", "PGUSER", "PGDATABASE"]));
    expect(s.database).toBe("storefront");
  });

  it("refuses PGDATABASE without the object whose database it names", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-scenario-"));
    const file = path.join(dir, "x.yaml");
    fs.writeFileSync(file, 'id: x\ntitle: X\nvariables: [PGHOST, PGDATABASE]\nsteps:\n  - note: n\n    run: psql -c "\\dt"\n    expect: {exit: 0}\n');
    expect(() => loadScenario(file)).toThrow(/PGDATABASE needs database/);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("variables:", "database: storefront\nvariables:"));
    expect(loadScenario(file).database).toBe("storefront");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("has the stuck states made by the simulator's lab knobs, and reads them with status --stuck, plans and the inbox's footer", () => {
    const file = files.find((f) => f.endsWith("stuck-resources.yaml"))!;
    const text = fs.readFileSync(file, "utf8");
    for (const knob of [`${HOLD_PHASE_ANNOTATION}: Applying`, `${HOLD_PHASE_ANNOTATION}: AwaitingApproval`, `${RECONCILE_AFTER_ANNOTATION}: "1"`]) expect(text).toContain(knob);
    const runs = loadScenario(file).steps.map((st) => st.run.trim());
    expect(runs).toEqual(
      expect.arrayContaining([
        "kubectl ptah status -A --stuck",
        'kubectl ptah status -n "$NAMESPACE" --stuck',
        'kubectl ptah plans -n "$NAMESPACE"',
        'kubectl ptah inbox -n "$NAMESPACE"',
      ]),
    );
  });

  it("asks diff, after the new plan waits, what changed since storefront-v1 was approved", () => {
    const s = loadScenario(files.find((f) => f.endsWith("stale-approval.yaml"))!);
    const step = s.steps.find((x) => x.run.includes("kubectl ptah diff"))!;
    expect(s.steps.indexOf(step)).toBeGreaterThan(5);
    expect(step.run).toContain("--from approval storefront-v1");
    expect(step.expect.stdout_contains).toEqual(expect.arrayContaining([expect.stringContaining('+ALTER TABLE "customers" ADD COLUMN "signed_up_at"')]));
  });
});

describe("variablesRead", () => {
  it("finds $X and ${X}, minus names the snippet assigns", () => {
    expect(variablesRead(`kubectl -n "$NAMESPACE" get x; D=$(date); echo "$D \${KUBECONFIG}"`)).toEqual(["KUBECONFIG", "NAMESPACE"]);
  });

  it("treats loop variables as assigned", () => {
    expect(variablesRead(`for n in a b; do echo "$n $HOME"; done`)).toEqual(["HOME"]);
  });
});

describe("parseDuration", () => {
  it.each([
    ["250ms", 250],
    ["90s", 90_000],
    ["2m", 120_000],
  ])("reads %s", (text, ms) => {
    expect(parseDuration(text, 0)).toBe(ms);
  });

  it("falls back when unset", () => {
    expect(parseDuration(undefined, 7)).toBe(7);
  });
});
