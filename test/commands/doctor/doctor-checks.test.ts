// doctor's rules as tables: version and clock skew, the PATH, the CRD generations the plugin
// knows, webhooks that handle approvals, and the RBAC data against rbac/*.yaml.
import fs from "node:fs";
import path from "node:path";
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { PTAH_KIND_NAMES } from "../../../src/model/api.ts";
import { KINDS } from "../../../src/model/parse.ts";
import { clockCheck, kubeconfigCheck, pathCheck, versionSkewCheck, type Outcome, type ServerFacts } from "../../../src/commands/doctor/doctor-connection.ts";
import type { LocalFacts } from "../../../src/commands/command-types.ts";
import { generationCheck, knownGeneration, pluralOf, webhookCheck, type CrdFacts, type WebhookFacts } from "../../../src/commands/doctor/doctor-operator.ts";
import { ALL_COMMANDS } from "../../../src/commands/all-commands.ts";
import { EVERY_USER, RECOMMENDED_ROLES, grants, ruleKey, type Rule } from "../../../src/commands/shared/permissions.ts";

const REPO = path.resolve(import.meta.dirname, "..", "..", "..");
const AT = new Date("2026-11-30T12:00:00Z");

function server(minor: number | undefined, date?: string): Outcome<ServerFacts> {
  return { kind: "value", value: { gitVersion: `v1.${minor ?? "x"}.0`, minor, date, localTime: AT } };
}

const LOCAL = (kubectl: LocalFacts["kubectl"], plugins: LocalFacts["plugins"] = []): LocalFacts => ({ kubectl, plugins, selfPath: "/opt/ptah/kubectl-ptah", processGuard: true });

describe("version skew", () => {
  it.each([
    { name: "same minor", kubectl: 33, server: 33, status: "ok" },
    { name: "kubectl one older", kubectl: 32, server: 33, status: "ok" },
    { name: "kubectl one newer", kubectl: 34, server: 33, status: "ok" },
    { name: "kubectl two older", kubectl: 31, server: 33, status: "problem" },
    { name: "kubectl two newer", kubectl: 35, server: 33, status: "problem" },
  ])("$name: $status", ({ kubectl, server: s, status }) => {
    const c = versionSkewCheck(server(s), LOCAL({ gitVersion: `v1.${kubectl}.0`, minor: kubectl }));
    expect(c.status).toBe(status);
    if (status === "problem") expect(c.fix).toBe(`use kubectl 1.${s - 1}–1.${s + 1} (kubectl supports a server within one minor of its own version)`);
  });

  it("is skipped with the window when kubectl is not on PATH", () => {
    const c = versionSkewCheck(server(30), LOCAL({ missing: "no kubectl on PATH" }));
    expect(c.status).toBe("skipped");
    expect(c.summary).toBe("no kubectl on PATH: kubectl 1.29–1.31 supports this 1.30 server (kubectl's skew policy)");
    expect(c.details).toEqual(["the plugin is tested against Kubernetes 1.33, more than one minor from this server's 1.30"]);
  });
});

describe("clock skew", () => {
  it.each([
    { name: "same second", date: "Mon, 30 Nov 2026 12:00:00 GMT", status: "ok" },
    { name: "server 5s ahead", date: "Mon, 30 Nov 2026 12:00:05 GMT", status: "ok" },
    { name: "server 6s ahead", date: "Mon, 30 Nov 2026 12:00:06 GMT", status: "problem" },
    { name: "server 2 minutes behind", date: "Mon, 30 Nov 2026 11:58:00 GMT", status: "problem" },
  ])("$name: $status", ({ date, status }) => {
    expect(clockCheck(server(33, date)).status).toBe(status);
  });

  it("says which way and by how much", () => {
    expect(clockCheck(server(33, "Mon, 30 Nov 2026 11:58:00 GMT")).summary).toBe("this machine's clock is 120s ahead of the server's (Date header)");
  });

  it("is skipped without a Date header", () => {
    expect(clockCheck(server(33)).status).toBe("skipped");
  });
});

describe("plugin on PATH", () => {
  it.each([
    { name: "this plugin first", plugins: [{ path: "/a/kubectl-ptah", self: true }], status: "ok" },
    {
      name: "this plugin first, a second copy shadowed",
      plugins: [
        { path: "/a/kubectl-ptah", self: true },
        { path: "/b/kubectl-ptah", self: false },
      ],
      status: "ok",
    },
    {
      name: "another kubectl-ptah shadows this one",
      plugins: [
        { path: "/go/bin/kubectl-ptah", self: false },
        { path: "/a/kubectl-ptah", self: true },
      ],
      status: "problem",
    },
    { name: "none on PATH", plugins: [], status: "problem" },
  ])("$name: $status", ({ plugins, status }) => {
    const c = pathCheck(LOCAL({ gitVersion: "v1.33.0", minor: 33 }, plugins));
    expect(c.status).toBe(status);
    if (plugins.length === 2) expect(c.details?.[0]).toMatch(`shadowed (never run by kubectl ptah): ${plugins[1]!.path} — `);
  });

  const UPSTREAM = { kind: "upstream", version: "v0.2.10", go: "go1.24.4" } as const;

  it("names upstream's Go binary and its version when it shadows this plugin, with the fix", () => {
    const c = pathCheck(
      LOCAL({ gitVersion: "v1.33.0", minor: 33 }, [
        { path: "/usr/local/bin/kubectl-ptah", self: false, identity: UPSTREAM },
        { path: "/opt/ptah/kubectl-ptah", self: true },
      ]),
    );
    expect(c).toMatchObject({
      status: "problem",
      summary: "kubectl ptah runs /usr/local/bin/kubectl-ptah (upstream's Go kubectl-ptah v0.2.10), not this plugin (/opt/ptah/kubectl-ptah)",
      fix: "remove upstream's binary (rm /usr/local/bin/kubectl-ptah) or put this plugin's folder (/opt/ptah) before /usr/local/bin on PATH: this plugin accepts every command line upstream's 0.2.10 does, with the same output",
      details: ["shadowed (never run by kubectl ptah): /opt/ptah/kubectl-ptah — this plugin"],
    });
  });

  it("names a shadowed upstream binary, a script and another Go program as what they are", () => {
    const c = pathCheck(
      LOCAL({ gitVersion: "v1.33.0", minor: 33 }, [
        { path: "/opt/ptah/kubectl-ptah", self: true },
        { path: "/usr/local/bin/kubectl-ptah", self: false, identity: { kind: "upstream", version: undefined, go: undefined } },
        { path: "/b/kubectl-ptah", self: false, identity: { kind: "script" } },
        { path: "/c/kubectl-ptah", self: false, identity: { kind: "go", module: "example.com/x" } },
      ]),
    );
    expect(c.status).toBe("ok");
    expect(c.details).toEqual([
      "shadowed (never run by kubectl ptah): /usr/local/bin/kubectl-ptah — upstream's Go kubectl-ptah (its build records no version)",
      "shadowed (never run by kubectl ptah): /b/kubectl-ptah — a script, not upstream's Go binary (another install of this plugin, or a wrapper)",
      "shadowed (never run by kubectl ptah): /c/kubectl-ptah — a Go program of module example.com/x, neither this plugin nor upstream's",
    ]);
  });
});

describe("CRD generations", () => {
  it.each([
    { schema: "1", state: "1", known: true },
    { schema: "3", state: "2", known: true },
    { schema: "32", state: "2", known: true },
    { schema: "2", state: "1", known: false },
    { schema: "33", state: "2", known: false },
    { schema: "31", state: "3", known: false },
    { schema: undefined, state: "1", known: false },
  ])("crd-schema-version $schema with controller-state-version $state: known=$known", ({ schema, state, known }) => {
    expect(knownGeneration(schema, state) !== undefined).toBe(known);
  });

  const crd = (name: string, schema?: string, state?: string): CrdFacts => ({
    name,
    found: true,
    annotations: { ...(schema ? { "operator.ptah.run/crd-schema-version": schema } : {}), ...(state ? { "operator.ptah.run/controller-state-version": state } : {}) },
  });

  it("is a problem when CRDs come from different releases, naming each group", () => {
    const c = generationCheck({ kind: "value", value: [crd("a", "1", "1"), crd("b", "31", "2")] });
    expect(c.status).toBe("problem");
    expect(c.details).toEqual(["crd-schema-version 1, controller-state-version 1: a", "crd-schema-version 31, controller-state-version 2: b"]);
  });

  it("is a problem for a generation the plugin does not know", () => {
    expect(generationCheck({ kind: "value", value: [crd("a", "7", "1")] }).status).toBe("problem");
  });

  it("is skipped (never ok) when the CRDs carry no annotations or may not be read", () => {
    expect(generationCheck({ kind: "value", value: [crd("a"), crd("b")] }).status).toBe("skipped");
    expect(generationCheck({ kind: "forbidden", message: "no" }).status).toBe("skipped");
  });
});

describe("webhooks", () => {
  const hook = (resources: string[], target: string | undefined, groups = ["operator.ptah.run"], operations = ["CREATE"]): WebhookFacts => ({
    configuration: "c",
    name: "w",
    target,
    rules: [{ groups, resources, operations }],
  });
  const all = ["ptahschemaapprovals", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments"];

  it.each([
    { name: "one webhook per kind, with a URL", hooks: all.map((r) => hook([r], "https://x/m")), status: "ok" },
    { name: "a wildcard rule", hooks: [hook(["*"], "service ns/svc", ["*"], ["*"])], status: "ok" },
    { name: "only UPDATE", hooks: [hook(all, "https://x", ["operator.ptah.run"], ["UPDATE"])], status: "problem" },
    { name: "another group", hooks: [hook(all, "https://x", ["example.com"])], status: "problem" },
    { name: "migration kinds missing", hooks: [hook(["ptahschemaapprovals"], "https://x")], status: "problem" },
    { name: "no target", hooks: [hook(all, undefined)], status: "problem" },
    { name: "none", hooks: [], status: "problem" },
  ])("$name: $status", ({ hooks, status }) => {
    expect(webhookCheck("mutating", { kind: "value", value: hooks }).status).toBe(status);
  });

  it("names what is missing", () => {
    const c = webhookCheck("validating", { kind: "value", value: [hook(["ptahschemaapprovals"], "https://x")] });
    expect(c.summary).toBe("no validating webhook handles CREATE of ptahmigrationapprovals.operator.ptah.run, ptahmigrationrunacknowledgments.operator.ptah.run");
  });
});

describe("RBAC data", () => {
  it("derives each Ptah kind's plural as the model names it", () => {
    for (const kind of PTAH_KIND_NAMES) expect(pluralOf(kind)).toBe(KINDS[kind].plural);
  });

  it.each(["ptah-viewer", "ptah-approver"] as const)("%s holds exactly the rules of rbac/%s.yaml", (role) => {
    const doc = yaml.load(fs.readFileSync(path.join(REPO, "rbac", `${role}.yaml`), "utf8")) as { rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[] };
    const fromYaml = doc.rules.flatMap((r) => r.apiGroups.flatMap((group) => r.resources.flatMap((resource) => r.verbs.map((verb) => ruleKey({ verb, group, resource } as Rule)))));
    expect(RECOMMENDED_ROLES[role].map(ruleKey).sort()).toEqual([...new Set(fromYaml)].sort());
  });

  it("asks for nothing ptah-approver (with what every user may) does not grant", () => {
    for (const f of ALL_COMMANDS.flatMap((c) => c.permissions)) {
      for (const r of f.rules) expect(grants(RECOMMENDED_ROLES["ptah-approver"], r) || grants(EVERY_USER, r), `${f.form}: ${ruleKey(r)}`).toBe(true);
    }
  });
});

describe("kubeconfig", () => {
  it("neutralises control characters in names and paths from the kubeconfig", () => {
    const evil = "prod\u001b[2J";
    const c = kubeconfigCheck({
      kind: "value",
      value: {
        context: { name: evil, from: "--context" },
        cluster: { name: evil, server: "https://x", from: "/k" },
        user: { name: evil, from: "/k" },
        namespace: { name: "app", from: "-n/--namespace" },
      },
    });
    expect([c.summary, ...c.details].join("\n")).not.toMatch(/\u001b/u);
  });
});
