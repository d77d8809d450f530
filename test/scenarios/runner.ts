// Runs a scenario (test/scenarios/*.yaml) against the lab: a fresh namespace the operator
// simulator manages, the reset commands, then every step with `sh -c` as a lab identity
// (KUBECONFIG = that identity's kubeconfig), checking what the step expects and what it claims
// about live objects. Claims on objects are read out of band (kubectl get -o json as lab-admin)
// as condition type + status + reason (never message text), optionally with observedGeneration
// equal to metadata.generation. The first failed step ends the scenario, as the recorder does
// (after upstream's recorder). A step may read only the variables its scenario declares.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { awaitObservation, expectationClaim, observationClaim, observe, q } from "./claims.ts";
import { createScenarioNamespace, exec, pluginBinDir, setFourEyes, sleep, waitForSimulator, type ExecResult } from "./process.ts";
import { labFourEyes } from "../../lab/admission.ts";
import { isReadOnlyStep, parseDuration, type Check, type Expectation, type Scenario, type ScenarioStep } from "./scenario.ts";
import { labEnv, type LabUser } from "../support/lab.ts";
import { databaseName } from "../sim/database.ts";
import { connectionFromEnv } from "../sim/psql.ts";

export * from "./scenario.ts";
export { expectationClaim, formatChecks, formatFailures, observationClaim } from "./claims.ts";
export { createScenarioNamespace, pluginBinDir, waitForSimulator } from "./process.ts";

export interface StepResult {
  index: number;
  step: ScenarioStep;
  as: LabUser;
  exit: number;
  stdout: string;
  stderr: string;
  durationMs: number;
  checks: Check[];
  /** The same command replayed as lab-viewer right after it (read-only steps, when asked for). */
  viewer?: ViewerReplay;
}

/** A read-only step run again as lab-viewer: its expectations must hold for an identity that may only read. */
export interface ViewerReplay {
  claim: string;
  exit: number;
  held: boolean;
  detail: string;
}

export interface ScenarioResult {
  scenario: Scenario;
  namespace: string;
  steps: StepResult[];
  checks: Check[];
  /** Every claim held (and, with viewerReplay, every read-only step held as lab-viewer too). */
  passed: boolean;
}

export interface RunOptions {
  /** Folder with `kubectl-ptah` on it (default: $PTAH_BIN_DIR, else a temp folder linking bin/kubectl-ptah.js). */
  binDir?: string;
  /** Called before a step runs (e.g. to print its note and command). */
  onStepStart?: (index: number, step: ScenarioStep, as: LabUser) => void;
  /** Called after a step ran and its claims were checked. */
  onStep?: (result: StepResult) => void;
  /** Progress lines (reset, awaits). */
  log?: (line: string) => void;
  /** Replay each read-only step (scenario.ts isReadOnlyStep) as lab-viewer, right after it ran. */
  viewerReplay?: boolean;
}

// ---------------------------------------------------------------------------------------------
// running

function stepEnv(s: Scenario, as: LabUser, namespace: string, binDir: string): NodeJS.ProcessEnv {
  const lab = labEnv();
  const values: Record<string, string> = {
    KUBECONFIG: lab.kubeconfigs[as],
    NAMESPACE: namespace,
    REGISTRY_IN_CLUSTER: "registry.lab",
    PTAH_OCI_REGISTRY: "registry.lab",
  };
  if (s.variables.some((v) => v.startsWith("PG"))) {
    const pg = connectionFromEnv({ PTAH_LAB_POSTGRES: path.join(lab.labDir, "postgres.json") });
    Object.assign(values, { PGHOST: pg.host, PGPORT: String(pg.port), PGUSER: pg.user, PGDATABASE: databaseName(namespace, s.database ?? "") });
  }
  const env: NodeJS.ProcessEnv = {
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: process.env.HOME ?? os.homedir(),
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    TZ: "UTC",
    // kubectl always needs a kubeconfig; it is the step's identity whether declared or not.
    KUBECONFIG: values.KUBECONFIG,
  };
  for (const v of s.variables) env[v] = values[v];
  return env;
}

function expectationProblems(e: Expectation, r: ExecResult): string[] {
  const problems: string[] = [];
  if (r.exit !== e.exit) problems.push(`exited ${r.exit}`);
  for (const s of e.stdout_contains ?? []) if (!r.stdout.includes(s)) problems.push(`stdout lacks ${q(s)}`);
  for (const s of e.stderr_contains ?? []) if (!r.stderr.includes(s)) problems.push(`stderr lacks ${q(s)}`);
  for (const s of e.stdout_absent ?? []) if (r.stdout.includes(s)) problems.push(`stdout contains ${q(s)}`);
  for (const s of e.stderr_absent ?? []) if (r.stderr.includes(s)) problems.push(`stderr contains ${q(s)}`);
  if (problems.length > 0 && r.stderr.trim() && !problems.some((p) => p.startsWith("stderr"))) problems.push(`stderr: ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  return problems;
}

/** Runs a step's command once, and again every 500 ms while its retry window lasts and an expectation fails. */
async function runStep(step: ScenarioStep, env: NodeJS.ProcessEnv, cwd: string): Promise<{ res: ExecResult; problems: string[] }> {
  const timeout = parseDuration(step.timeout, 60_000);
  let res = await exec("/bin/sh", ["-c", step.run], { env, cwd }, timeout);
  let problems = expectationProblems(step.expect, res);
  if (problems.length > 0 && step.retry) {
    const deadline = Date.now() + parseDuration(step.retry.timeout, 30_000);
    while (problems.length > 0 && Date.now() < deadline) {
      await sleep(500);
      res = await exec("/bin/sh", ["-c", step.run], { env, cwd }, timeout);
      problems = expectationProblems(step.expect, res);
    }
  }
  return { res, problems };
}

export async function runScenario(s: Scenario, opts: RunOptions = {}): Promise<ScenarioResult> {
  await waitForSimulator();
  const binDir = opts.binDir ?? pluginBinDir();
  const namespace = createScenarioNamespace(s.id);
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), `ptah-scenario-${s.id}-`));
  const checks: Check[] = [];
  const steps: StepResult[] = [];
  const log = opts.log;
  log?.(`namespace ${namespace}`);
  // The switch is cluster-wide: set for this run and put back after it, a failure to put it back thrown.
  const switched = s.fourEyes !== undefined && s.fourEyes !== labFourEyes();
  if (switched) setFourEyes(s.fourEyes === true);
  try {
    for (const [i, r] of (s.reset ?? []).entries()) {
      const as = r.as ?? "admin";
      const res = await exec("/bin/sh", ["-c", r.run], { env: stepEnv(s, as, namespace, binDir), cwd: workdir }, parseDuration(r.timeout, 120_000));
      if (res.exit !== 0) {
        checks.push({
          scenario: s.id,
          step: "reset",
          claim: `reset ${i + 1} exits 0`,
          held: false,
          detail: `exited ${res.exit}: ${(res.stderr || res.stdout).trim().split("\n").slice(-5).join(" | ")}`,
        });
        return { scenario: s, namespace, steps, checks, passed: false };
      }
      log?.(`reset ${i + 1} done`);
    }
    let failedAt: number | undefined;
    for (const [i, step] of s.steps.entries()) {
      const index = i + 1;
      const as = step.as ?? s.as ?? "approver";
      if (failedAt !== undefined) {
        for (const claim of stepClaims(step)) checks.push({ scenario: s.id, step: index, claim, held: false, detail: `not run: step ${failedAt} failed` });
        continue;
      }
      const stepChecks: Check[] = [];
      const t0 = Date.now();
      if (step.await) {
        const o = await awaitObservation(step.await, namespace, log);
        stepChecks.push({ scenario: s.id, step: index, claim: observationClaim(step.await), held: o.held, detail: o.detail });
      }
      opts.onStepStart?.(index, step, as);
      const { res, problems } = await runStep(step, stepEnv(s, as, namespace, binDir), workdir);
      stepChecks.push({
        scenario: s.id,
        step: index,
        claim: expectationClaim(step.expect),
        held: problems.length === 0,
        detail: problems.length === 0 ? "held" : problems.join("; "),
      });
      for (const o of [step.expect.resource ?? []].flat()) {
        const r = await observe(o, namespace);
        stepChecks.push({ scenario: s.id, step: index, claim: observationClaim(o), held: r.held, detail: r.detail });
      }
      checks.push(...stepChecks);
      let viewer: ViewerReplay | undefined;
      if (opts.viewerReplay && isReadOnlyStep(step, s.as)) {
        const v = await runStep(step, stepEnv(s, "viewer", namespace, binDir), workdir);
        viewer = {
          claim: `${expectationClaim(step.expect)}, as lab-viewer`,
          exit: v.res.exit,
          held: v.problems.length === 0,
          detail: v.problems.length === 0 ? "held" : v.problems.join("; "),
        };
        log?.(`step ${index} as lab-viewer: ${viewer.held ? "held" : viewer.detail}`);
      }
      const result: StepResult = {
        index,
        step,
        as,
        exit: res.exit,
        stdout: res.stdout,
        stderr: res.stderr,
        durationMs: Date.now() - t0,
        checks: stepChecks,
        ...(viewer ? { viewer } : {}),
      };
      steps.push(result);
      opts.onStep?.(result);
      if (stepChecks.some((c) => !c.held) || viewer?.held === false) failedAt = index;
    }
    return { scenario: s, namespace, steps, checks, passed: checks.every((c) => c.held) && steps.every((r) => r.viewer?.held !== false) };
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
    if (switched) setFourEyes(labFourEyes());
  }
}

function stepClaims(step: ScenarioStep): string[] {
  return [...(step.await ? [observationClaim(step.await)] : []), expectationClaim(step.expect), ...[step.expect.resource ?? []].flat().map(observationClaim)];
}
