// Claims: the text of each check (like the seed's table) and how an observation is read on the
// live object, out of band (kubectl get -o json as lab-admin): a condition as type + status +
// reason, never message text, optionally with observedGeneration == metadata.generation.
import { labEnv } from "../support/lab.ts";
import { exec, sleep } from "./process.ts";
import { parseDuration, type Check, type Expectation, type Observation } from "./scenario.ts";

export const q = (s: string): string => JSON.stringify(s);

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
export async function observe(o: Observation, namespace: string): Promise<Observed> {
  const env = labEnv();
  const r = await exec(
    "kubectl",
    ["--kubeconfig", env.kubeconfig, "--context", env.contexts.admin, "-n", o.namespace ?? namespace, "get", o.kind, o.name, "-o", "json"],
    {},
    30_000,
  );
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
      seen.push(
        `${o.condition.type}=${String(c.status)} (${String(c.reason)})${c.observedGeneration !== undefined ? ` at generation ${String(c.observedGeneration as number)}` : ""}`,
      );
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

export async function awaitObservation(o: Observation, namespace: string, log?: (l: string) => void): Promise<Observed> {
  const deadline = Date.now() + parseDuration(o.timeout, 120_000);
  log?.(`awaiting ${observationClaim(o)}`);
  let last: Observed;
  for (;;) {
    last = await observe(o, namespace);
    if (last.held || Date.now() > deadline) break;
    await sleep(250);
  }
  return last.held ? last : { held: false, detail: `timed out after ${o.timeout ?? "2m"}: ${last.detail}` };
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
