// What a replay page is rendered from: one recorded run of a scenario, as plain data (JSON), with
// the lab's secret values already taken out. `toRecord` builds it from the runner's result; the
// renderer (page.ts) reads nothing else, so two renders of one record are byte-identical.
import path from "node:path";
import type { LabUser } from "../../support/lab.ts";
import type { ScenarioResult } from "../runner.ts";
import { isReadOnlyStep, REPO, VARIABLE_MEANINGS, type Check, type Observation } from "../scenario.ts";
import { redact, type Secret } from "./secrets.ts";

export interface RecordedStep {
  index: number;
  note: string;
  as: LabUser;
  run: string;
  stdout: string;
  stderr: string;
  exit: number;
  readOnly: boolean;
  /** What the runner waited for before the step ran. */
  await?: Observation;
  /** The step is re-run until its expectations hold, for this long. */
  retry?: string;
  /** The lab-viewer replay of a read-only step (absent when the run did not replay it). */
  viewer?: { claim: string; held: boolean; detail: string };
}

/** What it ran against, each as a short text. */
export interface RanAgainst {
  kubernetes: string;
  plugin: string;
  pluginCommit: string;
  simulator: string;
  /** The lab's PostgreSQL version, when the lab has one. */
  postgres?: string;
  recordedAt: string;
  scenarioCommit: string;
}

export interface RunRecord {
  id: string;
  title: string;
  tagline?: string;
  learn?: string;
  /** Repository-relative, forward slashes. */
  file: string;
  namespace: string;
  as: LabUser;
  variables: Array<{ name: string; means: string }>;
  /** The PtahSchema or PtahMigration whose PostgreSQL database PGDATABASE names, when the scenario reads one. */
  database?: string;
  reset: Array<{ run: string; as: LabUser }>;
  steps: RecordedStep[];
  checks: Check[];
  ranAgainst: RanAgainst;
  /** How many secret values were taken out of the transcript (0 on a clean run). */
  redactions: number;
}

/** The record of a run: the scenario, what each step printed (secrets redacted) and its claims. */
export function toRecord(result: ScenarioResult, ranAgainst: RanAgainst, secrets: readonly Secret[]): RunRecord {
  const s = result.scenario;
  let redactions = 0;
  const clean = (text: string): string => {
    const r = redact(text, secrets);
    redactions += r.count;
    return r.text;
  };
  const steps = result.steps.map((r): RecordedStep => ({
    index: r.index,
    note: r.step.note,
    as: r.as,
    run: r.step.run.replace(/\n$/u, ""),
    stdout: clean(r.stdout),
    stderr: clean(r.stderr),
    exit: r.exit,
    readOnly: isReadOnlyStep(r.step, s.as),
    ...(r.step.await ? { await: r.step.await } : {}),
    ...(r.step.retry ? { retry: r.step.retry.timeout } : {}),
    ...(r.viewer ? { viewer: { claim: r.viewer.claim, held: r.viewer.held, detail: clean(r.viewer.detail) } } : {}),
  }));
  const checks = result.checks.map((c) => ({ ...c, detail: clean(c.detail) }));
  return {
    id: s.id,
    title: s.title,
    ...(s.tagline ? { tagline: s.tagline } : {}),
    ...(s.learn ? { learn: s.learn } : {}),
    file: s.file ? path.relative(REPO, s.file).split(path.sep).join("/") : `test/scenarios/${s.id}.yaml`,
    namespace: result.namespace,
    as: s.as ?? "approver",
    variables: s.variables.map((name) => ({ name, means: variableMeaning(name) })),
    ...(s.database ? { database: s.database } : {}),
    reset: (s.reset ?? []).map((r) => ({ run: r.run.replace(/\n$/u, ""), as: r.as ?? "admin" })),
    steps,
    checks,
    ranAgainst,
    redactions,
  };
}

export function variableMeaning(name: string): string {
  const means = VARIABLE_MEANINGS[name];
  if (!means) throw new Error(`variable ${name} has no meaning in test/scenarios/scenario.ts VARIABLE_MEANINGS`);
  return means;
}

/** Checks held, of all checks. */
export function heldCount(r: RunRecord): { held: number; total: number } {
  return { held: r.checks.filter((c) => c.held).length, total: r.checks.length };
}
