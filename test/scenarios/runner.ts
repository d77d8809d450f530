// Runs a scenario (test/scenarios/*.yaml) against the lab: a fresh namespace the operator
// simulator manages, the reset commands, then every step with `sh -c` as a lab identity
// (KUBECONFIG = that identity's kubeconfig), checking what the step expects and what it claims
// about live objects. Claims on objects are read out of band (kubectl get -o json as lab-admin)
// as condition type + status + reason (never message text), optionally with observedGeneration
// equal to metadata.generation. The first failed step ends the scenario, as the recorder does
// (operator-api go-client.md §5). A step may read only the variables its scenario declares.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import yaml from "js-yaml";
import { MANAGED_LABEL, MANAGED_VALUE } from "../sim/common.ts";
import { labEnv, uniqueName, type LabUser } from "../support/lab.ts";

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
  /** Identity the steps run as (default approver); reset runs as admin unless it says otherwise. */
  as?: LabUser;
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

export interface StepResult {
  index: number;
  step: ScenarioStep;
  as: LabUser;
  exit: number;
  stdout: string;
  stderr: string;
  durationMs: number;
  checks: Check[];
}

export interface ScenarioResult {
  scenario: Scenario;
  namespace: string;
  steps: StepResult[];
  checks: Check[];
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
}

// Variables a scenario may declare, and what the runner gives them.
const KNOWN_VARIABLES = ["KUBECONFIG", "NAMESPACE", "REGISTRY_IN_CLUSTER", "PTAH_OCI_REGISTRY"] as const;
const USERS: readonly LabUser[] = ["admin", "viewer", "approver", "nobody"];
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");

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
  for (const v of s.variables) if (!(KNOWN_VARIABLES as readonly string[]).includes(v)) fail(name, `variable ${v} is not one the runner provides (${KNOWN_VARIABLES.join(", ")})`);
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// claims

const q = (s: string) => JSON.stringify(s);

export function expectationClaim(e: Expectation): string {
  const parts = [`exits ${e.exit}`];
  for (const s of e.stdout_contains ?? []) parts.push(`prints ${q(s)}`);
  for (const s of e.stderr_contains ?? []) parts.push(`prints ${q(s)} on stderr`);
  for (const s of e.stdout_absent ?? []) parts.push(`never prints ${q(s)}`);
  for (const s of e.stderr_absent ?? []) parts.push(`never prints ${q(s)} on stderr`);
  return parts.join(", ");
}

export function observationClaim(o: Observation): string {
  const who = `${o.kind}/${o.name}`;
  if (o.absent) return `${who} does not exist`;
  const parts: string[] = [];
  if (o.condition) parts.push(`${o.condition.type}=${o.condition.status} (${o.condition.reason})`);
  for (const [p, f] of Object.entries(o.fields ?? {})) parts.push(f.notEmpty ? `${p} is set` : `${p} = ${q(String(f.equals))}`);
  return `${who}: ${parts.join(", ")}`;
}

function getPath(obj: unknown, dotted: string): unknown {
  let cur: unknown = obj;
  for (const key of dotted.split(".")) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

interface Observed {
  held: boolean;
  detail: string;
}

/** Reads the object out of band (lab-admin) and checks the observation once. */
async function observe(o: Observation, namespace: string): Promise<Observed> {
  const env = labEnv();
  const r = await exec("kubectl", ["--kubeconfig", env.kubeconfig, "--context", env.contexts.admin, "-n", o.namespace ?? namespace, "get", o.kind, o.name, "-o", "json"], {}, 30_000);
  if (r.exit !== 0) {
    if (/NotFound|not found/.test(r.stderr)) return o.absent ? { held: true, detail: "not found" } : { held: false, detail: `${o.kind}/${o.name} does not exist` };
    return { held: false, detail: `kubectl get ${o.kind}/${o.name}: ${r.stderr.trim()}` };
  }
  if (o.absent) return { held: false, detail: `${o.kind}/${o.name} exists` };
  const obj = JSON.parse(r.stdout) as { metadata: { generation?: number }; status?: { conditions?: Array<Record<string, unknown>> } };
  const problems: string[] = [];
  const seen: string[] = [];
  if (o.condition) {
    const c = (obj.status?.conditions ?? []).find((x) => x.type === o.condition!.type);
    if (!c) problems.push(`no ${o.condition.type} condition`);
    else {
      seen.push(`${o.condition.type}=${String(c.status)} (${String(c.reason)})${c.observedGeneration !== undefined ? ` at generation ${String(c.observedGeneration)}` : ""}`);
      if (c.status !== o.condition.status || c.reason !== o.condition.reason) problems.push(`${o.condition.type} is ${String(c.status)} (${String(c.reason)})`);
      if (o.generation === "current" && c.observedGeneration !== obj.metadata.generation) {
        problems.push(`${o.condition.type} observed generation ${String(c.observedGeneration)}, object is at ${String(obj.metadata.generation)}`);
      }
    }
  }
  for (const [p, f] of Object.entries(o.fields ?? {})) {
    const v = getPath(obj, p);
    const shown = v === undefined ? "unset" : JSON.stringify(v);
    seen.push(`${p}=${shown}`);
    if (f.notEmpty) {
      if (v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0)) problems.push(`${p} is empty`);
    } else {
      const same = typeof v === "number" && typeof f.equals === "number" ? Math.trunc(v) === Math.trunc(f.equals) : String(v) === String(f.equals);
      if (!same) problems.push(`${p} is ${shown}`);
    }
  }
  return problems.length === 0 ? { held: true, detail: seen.join(", ") } : { held: false, detail: problems.join("; ") };
}

async function awaitObservation(o: Observation, namespace: string, log?: (l: string) => void): Promise<Observed> {
  const deadline = Date.now() + parseDuration(o.timeout, 120_000);
  log?.(`awaiting ${observationClaim(o)}`);
  let last: Observed = { held: false, detail: "not checked" };
  for (;;) {
    last = await observe(o, namespace);
    if (last.held || Date.now() > deadline) break;
    await sleep(250);
  }
  return last.held ? last : { held: false, detail: `timed out after ${o.timeout ?? "2m"}: ${last.detail}` };
}

// ---------------------------------------------------------------------------------------------
// processes

interface ExecResult {
  exit: number;
  stdout: string;
  stderr: string;
}

function exec(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string }, timeoutMs: number): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[runner] timed out after ${timeoutMs / 1000}s; killed\n`;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ exit: 127, stdout, stderr: `${stderr}${err.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ exit: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

let ownBinDir: string | undefined;

/** A folder with `kubectl-ptah` (the built bin/kubectl-ptah.js) for PATH. */
export function pluginBinDir(): string {
  if (process.env.PTAH_BIN_DIR && fs.existsSync(path.join(process.env.PTAH_BIN_DIR, "kubectl-ptah"))) return process.env.PTAH_BIN_DIR;
  if (!ownBinDir) {
    const target = path.join(REPO, "bin", "kubectl-ptah.js");
    if (!fs.existsSync(target)) throw new Error(`${target} is missing; run npm run build`);
    ownBinDir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-scenario-bin-"));
    fs.symlinkSync(target, path.join(ownBinDir, "kubectl-ptah"));
  }
  return ownBinDir;
}

/** Creates the scenario's namespace, labelled so the operator simulator manages it. */
export function createScenarioNamespace(id: string): string {
  const env = labEnv();
  const ns = uniqueName(id.slice(0, 30));
  const manifest = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns, labels: { [MANAGED_LABEL]: MANAGED_VALUE, "lab.ptah.run/scenario": id } } });
  const r = spawnSync("kubectl", ["--kubeconfig", env.kubeconfig, "--context", env.contexts.admin, "create", "-f", "-"], { input: manifest, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`cannot create namespace ${ns}: ${r.stderr}`);
  return ns;
}

/** Waits until the operator simulator says it is ready (the lab writes .lab/sim.json). */
export async function waitForSimulator(timeoutMs = 60_000): Promise<void> {
  const env = labEnv();
  const file = path.join(env.labDir, "sim.json");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const s = JSON.parse(fs.readFileSync(file, "utf8")) as { ready?: boolean; pid?: number };
      if (s.ready && s.pid) {
        process.kill(s.pid, 0);
        return;
      }
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`the operator simulator is not running (no ready ${file}); start the lab with: node lab/lab.mjs`);
    await sleep(250);
  }
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

export async function runScenario(s: Scenario, opts: RunOptions = {}): Promise<ScenarioResult> {
  await waitForSimulator();
  const binDir = opts.binDir ?? pluginBinDir();
  const namespace = createScenarioNamespace(s.id);
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), `ptah-scenario-${s.id}-`));
  const checks: Check[] = [];
  const steps: StepResult[] = [];
  const log = opts.log;
  log?.(`namespace ${namespace}`);
  try {
    for (const [i, r] of (s.reset ?? []).entries()) {
      const as = r.as ?? "admin";
      const res = await exec("/bin/sh", ["-c", r.run], { env: stepEnv(s, as, namespace, binDir), cwd: workdir }, parseDuration(r.timeout, 120_000));
      if (res.exit !== 0) {
        checks.push({ scenario: s.id, step: "reset", claim: `reset ${i + 1} exits 0`, held: false, detail: `exited ${res.exit}: ${(res.stderr || res.stdout).trim().split("\n").slice(-5).join(" | ")}` });
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
      const env = stepEnv(s, as, namespace, binDir);
      const timeout = parseDuration(step.timeout, 60_000);
      let res = await exec("/bin/sh", ["-c", step.run], { env, cwd: workdir }, timeout);
      let problems = expectationProblems(step.expect, res);
      if (problems.length > 0 && step.retry) {
        const deadline = Date.now() + parseDuration(step.retry.timeout, 30_000);
        while (problems.length > 0 && Date.now() < deadline) {
          await sleep(500);
          res = await exec("/bin/sh", ["-c", step.run], { env, cwd: workdir }, timeout);
          problems = expectationProblems(step.expect, res);
        }
      }
      stepChecks.push({ scenario: s.id, step: index, claim: expectationClaim(step.expect), held: problems.length === 0, detail: problems.length === 0 ? "held" : problems.join("; ") });
      for (const o of [step.expect.resource ?? []].flat()) {
        const r = await observe(o, namespace);
        stepChecks.push({ scenario: s.id, step: index, claim: observationClaim(o), held: r.held, detail: r.detail });
      }
      checks.push(...stepChecks);
      const result: StepResult = { index, step, as, exit: res.exit, stdout: res.stdout, stderr: res.stderr, durationMs: Date.now() - t0, checks: stepChecks };
      steps.push(result);
      opts.onStep?.(result);
      if (stepChecks.some((c) => !c.held)) failedAt = index;
    }
    return { scenario: s, namespace, steps, checks, passed: checks.every((c) => c.held) };
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
}

function stepClaims(step: ScenarioStep): string[] {
  return [...(step.await ? [observationClaim(step.await)] : []), expectationClaim(step.expect), ...[step.expect.resource ?? []].flat().map(observationClaim)];
}

/** The seed's "What was checked" table. */
export function formatChecks(checks: readonly Check[]): string {
  const lines = ["| Step | Claim | Held |", "|---|---|---|"];
  for (const c of checks) lines.push(`| ${c.step} | ${c.claim.replace(/\|/g, "\\|")} | ${c.held ? "yes" : "no"} |`);
  return lines.join("\n") + "\n";
}

export function formatFailures(checks: readonly Check[]): string {
  return checks
    .filter((c) => !c.held)
    .map((c) => `step ${c.step}: ${c.claim} — ${c.detail}`)
    .join("\n");
}
