// What a scenario file is (test/scenarios/*.yaml, after upstream's recorder):
// the types, loading with validation (a step may read only the variables its scenario
// declares), durations.
import fs from "node:fs";
import path from "node:path";
import yaml from "js-yaml";
import type { LabUser } from "../support/lab.ts";

export interface Observation {
  kind: string;
  name: string;
  namespace?: string;
  /** Await only: how long to poll (e.g. "90s", "2m"); default 2m. */
  timeout?: string;
  absent?: boolean;
  condition?: { type: string; status: "True" | "False" | "Unknown"; reason: string };
  generation?: "current";
  fields?: Record<string, { equals?: string | number | boolean; notEmpty?: boolean }>;
}

export interface Expectation {
  exit: number;
  stdout_contains?: string[];
  stderr_contains?: string[];
  stdout_absent?: string[];
  stderr_absent?: string[];
  resource?: Observation | Observation[];
}

export interface ScenarioStep {
  note: string;
  run: string;
  as?: LabUser;
  /** Per-step command timeout, e.g. "60s" (default 60s). */
  timeout?: string;
  await?: Observation;
  /** Re-run a read-only command until its expectations hold (or the timeout passes). */
  retry?: { timeout: string };
  expect: Expectation;
}

export interface ResetStep {
  run: string;
  as?: LabUser;
  timeout?: string;
}

export interface Scenario {
  id: string;
  title: string;
  tagline?: string;
  learn?: string;
  tags?: string[];
  /** The only environment variables steps may read. */
  variables: string[];
  /** The PtahSchema or PtahMigration whose database PGDATABASE names (required when PGDATABASE is declared). */
  database?: string;
  /** Identity the steps run as (default approver); reset runs as admin unless it says otherwise. */
  as?: LabUser;
  /**
   * The cluster's four-eyes switch for this run (ptah-operator-admission's writer entries, which the
   * plugin reads); the lab's own setting is put back when the run ends. Unset: the lab's setting.
   */
  fourEyes?: boolean;
  reset?: ResetStep[];
  steps: ScenarioStep[];
  file?: string;
}

export interface Check {
  scenario: string;
  step: number | "reset";
  claim: string;
  held: boolean;
  detail: string;
}

// Variables a scenario may declare, and what the runner gives them (runner.ts stepEnv).
// PGHOST/PGPORT/PGUSER: the lab's PostgreSQL (<lab>/postgres.json); PGDATABASE: the database of
// the scenario's `database` owner in its namespace. psql reads them from the environment, so a
// step gets them only when its scenario declares them.
export const KNOWN_VARIABLES = ["KUBECONFIG", "NAMESPACE", "REGISTRY_IN_CLUSTER", "PTAH_OCI_REGISTRY", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE"] as const;
// What each of them means, as a replay page says it under "What the commands read" (every known
// variable has one: scenario-files.test.ts).
export const VARIABLE_MEANINGS: Readonly<Record<string, string>> = {
  KUBECONFIG: "the cluster the commands run against, and the identity they run as (one kubeconfig per lab user)",
  NAMESPACE: "the namespace the schema, its plans and approvals live in (a fresh one per run)",
  REGISTRY_IN_CLUSTER: "the registry address a Pod in the cluster resolves",
  PTAH_OCI_REGISTRY: "the registry address a push goes to",
  PGHOST: "the PostgreSQL server the schema's database is on (the lab's, on 127.0.0.1)",
  PGPORT: "the port of that PostgreSQL server",
  PGUSER: "the role psql connects as (trust on 127.0.0.1: there is no password)",
  PGDATABASE: "the database the operator applies the scenario's plans to",
};
const USERS: readonly LabUser[] = ["admin", "viewer", "approver", "nobody"];
export const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");

export const SCENARIO_DIR = path.join(REPO, "test", "scenarios");

function fail(file: string, message: string): never {
  throw new Error(`${file}: ${message}`);
}

/** Names a shell snippet reads ($X, ${X}), minus the ones it assigns itself. */
export function variablesRead(script: string): string[] {
  const read = new Set<string>();
  for (const m of script.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) read.add(m[1]!);
  const assigned = new Set<string>();
  for (const m of script.matchAll(/(?:^|[\s;(&|])(?:export\s+|local\s+)?([A-Za-z_][A-Za-z0-9_]*)=/g)) assigned.add(m[1]!);
  for (const m of script.matchAll(/\b(?:for|read)\s+([A-Za-z_][A-Za-z0-9_]*)/g)) assigned.add(m[1]!);
  return [...read].filter((v) => !assigned.has(v)).sort();
}

function checkObservation(file: string, where: string, o: Observation | undefined): void {
  if (!o) return;
  if (!o.kind || !o.name) fail(file, `${where}: an observation needs kind and name`);
  if (!o.absent && !o.condition && !o.fields) fail(file, `${where}: an observation needs absent, condition or fields`);
  if (o.condition) {
    if (!o.condition.type || !["True", "False", "Unknown"].includes(o.condition.status) || !o.condition.reason) {
      fail(file, `${where}: a condition needs type, status True|False|Unknown and a non-empty reason`);
    }
  }
  for (const [p, f] of Object.entries(o.fields ?? {})) {
    if ((f.equals === undefined) === (f.notEmpty === undefined)) fail(file, `${where}: field ${p} needs exactly one of equals, notEmpty`);
  }
  if (o.generation !== undefined && o.generation !== "current") fail(file, `${where}: generation may only be "current"`);
}

/** Loads and validates a scenario file. */
export function loadScenario(file: string): Scenario {
  const s = yaml.load(fs.readFileSync(file, "utf8")) as Scenario;
  const name = path.basename(file);
  if (!s || typeof s !== "object") fail(name, "not a mapping");
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(s.id ?? "")) fail(name, "id must be kebab-case");
  if (!s.title) fail(name, "title is required");
  if (!Array.isArray(s.variables)) fail(name, "variables (the names steps may read) is required");
  if (s.fourEyes !== undefined && typeof s.fourEyes !== "boolean") fail(name, "fourEyes must be true or false");
  for (const v of s.variables) if (!(KNOWN_VARIABLES as readonly string[]).includes(v)) fail(name, `variable ${v} is not one the runner provides (${KNOWN_VARIABLES.join(", ")})`);
  if (s.variables.includes("PGDATABASE") && !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(s.database ?? ""))
    fail(name, "PGDATABASE needs database: the name of the PtahSchema or PtahMigration whose database it names");
  if (!Array.isArray(s.steps) || s.steps.length === 0) fail(name, "steps are required");
  const allowed = new Set(s.variables);
  const checkScript = (where: string, script: string, as: string | undefined) => {
    if (!script?.trim()) fail(name, `${where}: run is empty`);
    if (as !== undefined && !USERS.includes(as as LabUser)) fail(name, `${where}: as must be one of ${USERS.join(", ")}`);
    const bad = variablesRead(script).filter((v) => !allowed.has(v));
    if (bad.length > 0) fail(name, `${where} reads ${bad.map((b) => `$${b}`).join(", ")}, which the scenario does not declare`);
  };
  (s.reset ?? []).forEach((r, i) => checkScript(`reset ${i + 1}`, r.run, r.as));
  s.steps.forEach((st, i) => {
    const where = `step ${i + 1}`;
    if (!st.note || st.note.includes("\n") || st.note.length > 96) fail(name, `${where}: note must be one line of at most 96 characters`);
    checkScript(where, st.run, st.as);
    if (!st.expect || typeof st.expect.exit !== "number") fail(name, `${where}: expect.exit is required`);
    checkObservation(name, `${where} await`, st.await);
    for (const r of [st.expect.resource ?? []].flat()) checkObservation(name, `${where} expect.resource`, r);
  });
  return { ...s, file };
}

export function listScenarioFiles(dir = SCENARIO_DIR): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

export function parseDuration(text: string | undefined, fallbackMs: number): number {
  if (!text) return fallbackMs;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`bad duration ${text}`);
  const n = Number(m[1]);
  return m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
}

// kubectl verbs that write, and the plugin's subcommands whose --dry-run=server sends a create
// (dryRun=All, which needs the create permission): a step using one is not read-only. Plain
// `approve`/`acknowledge` only read and print; piping that into `kubectl create` is the write.
const WRITE_VERBS = new Set([
  "create",
  "apply",
  "patch",
  "delete",
  "replace",
  "edit",
  "label",
  "annotate",
  "scale",
  "set",
  "rollout",
  "taint",
  "drain",
  "cordon",
  "uncordon",
  "expose",
  "run",
  "exec",
  "cp",
  "debug",
]);
const PTAH_WRITES = new Set(["approve", "acknowledge"]);
const VALUE_FLAGS = new Set(["-n", "--namespace", "--context", "--kubeconfig", "-l", "--selector", "-o", "--output", "--as", "--user", "--cluster"]);

/** The first word after `kubectl` (or `kubectl ptah`) that is neither a flag nor a flag's value. */
function verbAfter(words: readonly string[], from: number): { verb: string | undefined; at: number } {
  let i = from;
  while (i < words.length && words[i]!.startsWith("-")) i += VALUE_FLAGS.has(words[i]!) ? 2 : 1;
  return { verb: words[i], at: i };
}

/**
 * A step is read-only when it runs as a lab identity other than admin (admin steps are the lab
 * acting for the operator or reading what stands in for the database) and none of its kubectl
 * commands writes: no write verb, no `kubectl ptah approve|acknowledge --dry-run=server`. The recorder replays
 * these as lab-viewer, which may only read (rbac/ptah-viewer.yaml), to prove it.
 */
export function isReadOnlyStep(step: ScenarioStep, scenarioAs: LabUser | undefined): boolean {
  if ((step.as ?? scenarioAs ?? "approver") === "admin") return false;
  const words = step.run.split(/[\s|;&()]+/u).filter(Boolean);
  for (const [i, w] of words.entries()) {
    if (w !== "kubectl") continue;
    const { verb, at } = verbAfter(words, i + 1);
    if (verb === undefined) continue;
    if (WRITE_VERBS.has(verb)) return false;
    if (verb === "ptah" && PTAH_WRITES.has(verbAfter(words, at + 1).verb ?? "") && /--dry-run(=|\s+)server\b/u.test(step.run)) return false;
  }
  return true;
}
