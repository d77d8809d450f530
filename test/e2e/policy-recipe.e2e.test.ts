// docs/policy.md's recipe, line by line, on the lab through the real kubectl and a shell: every
// command of its sh block is run as the page writes it, with two changes the shared lab needs — the
// namespace `shop` is this test's, and the render is bound to it alone (`--name`,
// `--namespace-selector`), so no other test meets the policies. Each person runs with a kubeconfig
// of their own (lab-admin impersonating them through the kubeconfig's `as`/`as-groups`, so a
// printed line run by `sh` is theirs too). The last step, "approve inside the window", depends on
// the day: inside the recipe's windows the approval is admitted; outside them the API server refuses
// it with the window's words, and the plugin said so beforehand.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, kubectl } from "../support/lab.ts";
import { labEnv } from "../support/lab-kubectl.ts";
import { pluginEnv } from "../support/plugin.ts";
import { approvalOf, phaseOf, planOf, removePolicy, SCHEMA, storefrontNamespace, waitSchema } from "./policy-setup.ts";

const skip = process.env.PTAH_E2E_SKIP;
const NAME = `recipe${Date.now().toString(36)}`;
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-recipe-"));
let ns = "";

/** The sh block of the recipe, one command per entry (continuations joined, comments dropped). */
function recipeLines(): string[] {
  const page = fs.readFileSync(path.join(REPO_ROOT, "docs", "policy.md"), "utf8");
  const block = /## The recipe[^\n]*\n+```sh\n([\s\S]*?)\n```/u.exec(page)![1]!;
  return block
    .replace(/\\\n\s*/gu, "")
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/u, "").trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** `from` with its user impersonating `name` in `groups`, written as `file`. */
function impersonating(from: string, file: string, name: string, groups: readonly string[]): string {
  const doc = yaml.load(fs.readFileSync(from, "utf8")) as { users: { user: Record<string, unknown> }[] };
  for (const u of doc.users) Object.assign(u.user, { as: name, "as-groups": [...groups] });
  fs.writeFileSync(file, yaml.dump(doc));
  return file;
}

/**
 * A kubeconfig for `name`: lab-admin impersonating them, for the person's kubectl. The plugin
 * must run under its own certificates (the read-only proof judges its identity): the shim
 * kubectl-ptah first on PATH swaps this file for its twin, the plugin's certificate impersonating
 * the same person, as the tier's entry does for the lab's own kubeconfigs.
 */
const twins: Record<string, string> = {};
function kubeconfigAs(name: string, groups: readonly string[]): string {
  const person = impersonating(labEnv().kubeconfigs.admin, path.join(DIR, `${name}.kubeconfig`), name, groups);
  twins[person] = impersonating(labEnv().pluginKubeconfigs.admin, path.join(DIR, `${name}.plugin.kubeconfig`), name, groups);
  const cases = Object.entries(twins).map(([from, to]) => `  ${JSON.stringify(from)}) KUBECONFIG=${JSON.stringify(to)} ;;`);
  const real = path.join(process.env.PTAH_BIN_DIR ?? "", "kubectl-ptah");
  fs.writeFileSync(path.join(DIR, "bin", "kubectl-ptah"), `#!/bin/sh\ncase "$KUBECONFIG" in\n${cases.join("\n")}\nesac\nexport KUBECONFIG\nexec ${JSON.stringify(real)} "$@"\n`, {
    mode: 0o755,
  });
  return person;
}

function sh(line: string, kubeconfig: string) {
  const env = pluginEnv("admin", { KUBECONFIG: kubeconfig });
  env.PATH = `${path.join(DIR, "bin")}${path.delimiter}${env.PATH ?? ""}`;
  const r = spawnSync("sh", ["-c", line], { cwd: DIR, encoding: "utf8", timeout: 60_000, env });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(Boolean(skip))("docs/policy.md's recipe, every line, on the real API server", () => {
  beforeAll(async () => {
    ns = storefrontNamespace("policy-recipe");
    fs.mkdirSync(path.join(DIR, "bin"));
    fs.writeFileSync(path.join(DIR, "bin", "kubectl-ptah"), `#!/bin/sh\nexec ${JSON.stringify(path.join(process.env.PTAH_BIN_DIR ?? "", "kubectl-ptah"))} "$@"\n`, { mode: 0o755 });
    fs.mkdirSync(path.join(DIR, "rbac"));
    fs.copyFileSync(path.join(REPO_ROOT, "rbac", "ptah-endorser.yaml"), path.join(DIR, "rbac", "ptah-endorser.yaml"));
    // A destructive plan, so that the quorum speaks: v1 applied first, then v3 drops what v1 made.
    await waitSchema(ns, (s) => phaseOf(s) === "AwaitingApproval", "AwaitingApproval");
    kubectl(["create", "-f", "-"], { namespace: ns, input: approvalOf(ns) });
    await waitSchema(ns, (s) => phaseOf(s) === "InSync", "InSync");
    kubectl(["patch", `ptahschemas.operator.ptah.run/${SCHEMA}`, "--type", "merge", "-p", '{"spec":{"desired":{"ociRef":"oci://registry.lab/schemas/demo:v3"}}}'], {
      namespace: ns,
    });
    await waitSchema(ns, (s) => phaseOf(s) === "AwaitingApproval" && planOf(s)?.destructive === true, "a destructive plan");
  }, 120_000);
  afterAll(() => {
    removePolicy(NAME);
    fs.rmSync(DIR, { recursive: true, force: true });
  });

  it("runs each step as the page writes it, and the API server enforces what it says", async () => {
    const lines = recipeLines().map((l) => l.replaceAll("-n shop", `-n ${ns}`));
    expect(lines).toHaveLength(8);
    const [render, apply, role, binding, plan, endorsePrint, endorseRun, approve] = lines as [string, string, string, string, string, string, string, string];
    const admin = labEnv().kubeconfigs.admin;
    // 1. Render (bound to this namespace only), read, apply.
    expect(render).toMatch(/^kubectl ptah policy render .* > approval-policy\.yaml$/u);
    const bound = render.replace("kubectl ptah policy render", `kubectl ptah policy render --name ${NAME} --namespace-selector kubernetes.io/metadata.name=${ns}`);
    expect(sh(bound, admin)).toMatchObject({ code: 0, stderr: "" });
    expect(sh(apply, admin), "kubectl apply -f approval-policy.yaml").toMatchObject({ code: 0 });
    // 2. The DBAs may endorse.
    expect(sh(role, admin).code).toBe(0);
    expect(sh(binding, admin).code).toBe(0);
    // 3. Two DBAs review and endorse: alice prints the line, then runs it through sh; bob the same.
    for (const who of ["alice", "bob"]) {
      const kc = kubeconfigAs(who, ["dba"]);
      const read = sh(plan, kc);
      expect(read, `${who}: ${plan}`).toMatchObject({ code: 0 });
      expect(read.stdout).toContain("DROP");
      const printed = sh(endorsePrint, kc);
      expect(printed, `${who}: ${endorsePrint}`).toMatchObject({ code: 0, stderr: "" });
      expect(printed.stdout).toMatch(/^kubectl annotate ptahschemas\.operator\.ptah\.run\/storefront -n \S+ endorsements\.ptah\.run\/sha256-[0-9a-f]{56}=/u);
      // The policies take effect a moment after they are applied: the first endorsement may need a retry.
      let ran = sh(endorseRun, kc);
      for (let i = 0; i < 20 && ran.code !== 0 && /Conflict|not found/u.test(ran.stderr); i++) {
        await new Promise((r) => setTimeout(r, 500));
        ran = sh(endorseRun, kc);
      }
      expect(ran, `${who}: ${endorseRun}`).toMatchObject({ code: 0 });
    }
    const status = sh(`kubectl ptah status storefront -n ${ns}`, labEnv().kubeconfigs.approver);
    expect(status.stdout).toMatch(/\n {2}Endorsed: +2\/2 \(alice, bob\)\n/u);
    // 4. Someone else approves: admitted inside the recipe's windows, refused outside them, as predicted.
    const window = /\n {2}Window: +(open|closed) — /u.exec(status.stdout)?.[1];
    expect(window, status.stdout).toBeDefined();
    const r = sh(approve, labEnv().kubeconfigs.approver);
    if (window === "open") {
      expect(r, approve).toMatchObject({ code: 0, stderr: "" });
    } else {
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(
        /^Warning: the API server would refuse this approval if it were created now \(ValidatingAdmissionPolicy \S+-window\): approvals are admitted only within the change windows Mon-Thu 09:00-17:00 Europe\/Berlin; Fri 09:00-12:00 Europe\/Berlin; /u,
      );
      expect(r.stderr).toContain(`ValidatingAdmissionPolicy '${NAME}-window' with binding '${NAME}-window' denied request: approvals are admitted only within the change windows`);
    }
  }, 240_000);
});
