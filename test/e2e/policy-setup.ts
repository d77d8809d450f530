// What the approval-policy e2e tests share: a namespace the simulator serves with the storefront
// schema, the policies `kubectl ptah policy render` prints applied to that namespace alone (so the
// other tests sharing the lab never meet them) and removed again, and people who are not lab
// identities: lab-admin impersonates them (`--as alice --as-group dba`), so the API server sees
// exactly that user and those groups, in admission's userInfo and in RBAC.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect } from "vitest";
import { createNamespace, kubectl, kubectlJson, labEnv, REPO_ROOT, type KubeObject } from "../support/lab.ts";
import { ptah, pluginEnv } from "../support/plugin.ts";
import { storefrontSetup } from "./storefront-setup.ts";

export const SCHEMA = "storefront";
export const RESOURCE = `ptahschemas.operator.ptah.run/${SCHEMA}`;

export interface Person {
  readonly name: string;
  readonly groups: readonly string[];
}
export const as = (p: Person): string[] => ["--as", p.name, ...p.groups.flatMap((g) => ["--as-group", g])];

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real kubectl as `p` (lab-admin impersonating them). */
export function kubectlAs(p: Person, args: readonly string[], input?: string): Run {
  return kubectl([...args, ...as(p)], { check: false, ...(input === undefined ? {} : { input }) });
}

/** A command line exactly as the plugin printed it, run by a shell as `p`. */
export function runLineAs(p: Person, line: string): Run {
  const r = spawnSync("sh", ["-c", `${line.trim()} ${as(p).join(" ")}`], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, KUBECONFIG: labEnv().kubeconfig },
  });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** `kubectl ptah ARGS` through the real kubectl, as `p`. */
export function ptahAs(p: Person | undefined, args: readonly string[]): Run {
  const r = ptah([...args, ...(p ? as(p) : [])], "admin");
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What `kubectl ptah explain - -o json` (through the real kubectl) says of a refused kubectl's stderr, pasted as it was. */
export function explainPaste(stderr: string): { topic: string; slots: Record<string, string>; next: { command: string }[] }[] {
  const r = spawnSync("kubectl", ["ptah", "explain", "-", "-o", "json"], { input: stderr, encoding: "utf8", env: pluginEnv("viewer"), timeout: 60_000 });
  expect({ status: r.status, stderr: r.stderr }, stderr).toEqual({ status: 0, stderr: "" });
  return JSON.parse(r.stdout) as { topic: string; slots: Record<string, string>; next: { command: string }[] }[];
}

/** A namespace the simulator serves, with the storefront schema (created by lab-admin, its spec writer). */
export function storefrontNamespace(prefix: string): string {
  const ns = createNamespace(prefix);
  kubectl(["label", "namespace", ns, "lab.ptah.run/operator-simulator=enabled"]);
  kubectl(["apply", "-f", "-"], { namespace: ns, input: storefrontSetup({ allowDestructive: true }) });
  return ns;
}

export function schemaOf(ns: string): KubeObject {
  return kubectlJson(["get", RESOURCE], { namespace: ns });
}

/** Polls the schema until `ok` holds (at most `ms`). */
export async function waitSchema(ns: string, ok: (s: KubeObject) => boolean, what: string, ms = 60_000): Promise<KubeObject> {
  const end = Date.now() + ms;
  for (;;) {
    const s = schemaOf(ns);
    if (ok(s)) return s;
    if (Date.now() > end) throw new Error(`schema ${ns}/${SCHEMA} never reached ${what}: ${JSON.stringify(s.status).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

export const phaseOf = (s: KubeObject) => (s.status as { phase?: string } | undefined)?.phase;
export const planOf = (s: KubeObject) => (s.status as { plan?: { fingerprint?: string; destructive?: boolean } } | undefined)?.plan;

/** Renders with the plugin, bound to `ns` only, and applies as lab-admin; returns the objects applied. */
export function applyPolicy(ns: string, name: string, flags: readonly string[]): KubeObject[] {
  const r = ptahAs(undefined, ["policy", "render", "--name", name, "--namespace-selector", `kubernetes.io/metadata.name=${ns}`, "-o", "json", ...flags]);
  expect(r, r.stderr).toMatchObject({ code: 0, stderr: "" });
  kubectl(["apply", "-f", "-"], { input: r.stdout });
  return (JSON.parse(r.stdout) as { items: KubeObject[] }).items;
}

/** Deletes every policy and binding named `<name>-…`; throws (failing the test) when one is left. */
export function removePolicy(name: string): void {
  const kinds = "validatingadmissionpolicies,validatingadmissionpolicybindings";
  const ours = () => kubectlJson<{ items: KubeObject[] }>(["get", kinds, "-l", "ptah.run/approval-policy"]).items.filter((o) => o.metadata.name.startsWith(`${name}-`));
  for (const o of ours()) kubectl(["delete", `${o.kind.toLowerCase()}.admissionregistration.k8s.io/${o.metadata.name}`, "--ignore-not-found"]);
  const left = ours();
  if (left.length > 0) throw new Error(`policies left bound in the shared lab: ${left.map((o) => o.metadata.name).join(", ")}`);
}

/** Retries `attempt` until `done(result)` (a policy takes effect a moment after it is applied). */
export async function until(attempt: () => Run, done: (r: Run) => boolean, ms = 15_000): Promise<Run> {
  const end = Date.now() + ms;
  for (;;) {
    const r = attempt();
    if (done(r) || Date.now() > end) return r;
    await new Promise((res) => setTimeout(res, 250));
  }
}

export const ENDORSER_ROLE = path.join(REPO_ROOT, "rbac", "ptah-endorser.yaml");

/** RBAC of the test's people, in its namespace: endorsers may patch, approvers create approvals. */
export function grant(ns: string, endorserGroup: string, users: { endorsers?: readonly string[]; approvers?: readonly string[] }): void {
  kubectl(["apply", "-f", ENDORSER_ROLE]);
  kubectl(["create", "rolebinding", "endorsers", "--clusterrole=ptah-endorser", `--group=${endorserGroup}`, ...(users.endorsers ?? []).map((u) => `--user=${u}`)], {
    namespace: ns,
  });
  if (users.approvers?.length) kubectl(["create", "rolebinding", "approvers", "--clusterrole=ptah-approver", ...users.approvers.map((u) => `--user=${u}`)], { namespace: ns });
}

/** The approval `approve` prints for the schema's current plan (read as lab-approver). */
export function approvalOf(ns: string): string {
  const r = ptah(["approve", SCHEMA, "-n", ns], "approver");
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}
