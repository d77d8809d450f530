// The lab's manifests: the operator's CRDs (lab/crds/), the recommended ClusterRoles (rbac/),
// the ClusterRoleBindings of the lab identities (.lab/bindings.yaml) and the operator's admission
// as a client reads it (.lab/admission.yaml, lab/admission.ts), applied server-side with
// the real kubectl; start waits until every CRD is Established and served in discovery.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ADMIN_CONTEXT, FIELD_MANAGER, GROUP, SENTINEL_USER, USERS, VERSION, type LabContext } from "./config.ts";
import { labAdmissionYaml } from "./admission.ts";
import { LabError, say } from "./errors.ts";
import { httpGet } from "./net.ts";
import { clientTls } from "./pki.ts";
import { run, waitFor, type RunResult } from "./processes.ts";
import type { LabService } from "./service.ts";
import { writeState, type LabState } from "./state.ts";

export function manifestFiles(lab: LabContext): { crds: string[]; rbac: string[] } {
  const yamls = (dir: string) =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => /\.ya?ml$/.test(f))
          .sort()
          .map((f) => path.join(dir, f))
      : [];
  return { crds: yamls(lab.repo.crds), rbac: yamls(lab.repo.rbac) };
}

/** One ClusterRoleBinding per identity that has a ClusterRole, and the read-only proof's sentinel. */
export function bindingsYaml(): string {
  return [...USERS.flatMap((u) => ("clusterRole" in u ? [{ name: u.name, role: u.clusterRole }] : [])), { name: SENTINEL_USER.name, role: SENTINEL_USER.clusterRole }]
    .map(({ name, role }) =>
      [
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRoleBinding",
        "metadata:",
        `  name: ${name}-${role}`,
        "  labels:",
        "    app.kubernetes.io/part-of: ptah-lab",
        "roleRef:",
        "  apiGroup: rbac.authorization.k8s.io",
        "  kind: ClusterRole",
        `  name: ${role}`,
        "subjects:",
        "- apiGroup: rbac.authorization.k8s.io",
        "  kind: User",
        `  name: ${name}`,
        "",
      ].join("\n"),
    )
    .join("---\n");
}

/** Digest of what applyManifests applies (file names and contents, the bindings). */
export function manifestsDigest(lab: LabContext): string {
  const h = createHash("sha256");
  const { crds, rbac } = manifestFiles(lab);
  for (const f of [...crds, ...rbac])
    h.update(`${path.relative(lab.repo.repo, f)}\0`)
      .update(fs.readFileSync(f))
      .update("\0");
  h.update(bindingsYaml());
  h.update(labAdmissionYaml());
  return `sha256:${h.digest("hex")}`;
}

export async function applyManifests(lab: LabContext, state: LabState): Promise<void> {
  const { crds, rbac } = manifestFiles(lab);
  if (crds.length === 0) throw new LabError("install CRDs", `no CRD files in ${lab.repo.crds}`);
  if (rbac.length === 0) throw new LabError("install RBAC", `no ClusterRole files in ${lab.repo.rbac}`);
  const digest = manifestsDigest(lab);
  fs.writeFileSync(lab.paths.bindings, bindingsYaml());
  // The operator's admission as a client reads it (lab/admission.ts), beside the bindings.
  const admission = path.join(path.dirname(lab.paths.bindings), "admission.yaml");
  fs.writeFileSync(admission, labAdmissionYaml());
  const kc = ["--kubeconfig", state.kubeconfig, "--context", ADMIN_CONTEXT];
  const fileArgs = [...crds, ...rbac, lab.paths.bindings, admission].flatMap((f) => ["-f", f]);
  say(`installing ${crds.length} CRDs, ${rbac.length} ClusterRoles and the lab bindings`);
  await kubectlStep(lab, "install CRDs and RBAC", [...kc, "apply", "--server-side", "--force-conflicts", `--field-manager=${FIELD_MANAGER}`, ...fileArgs]);

  const names = crdNames(crds);
  const established = lab.timeouts.established;
  await kubectlStep(
    lab,
    "wait for CRDs to be Established",
    [...kc, "wait", "--for=condition=Established", `--timeout=${established / 1000}s`, ...names.map((n) => `crd/${n}`)],
    established + 15_000,
  );

  // Established does not mean discovery shows the resources yet; kubectl api-resources reads
  // discovery, so wait until every plural is served there.
  const plurals = names.map((n) => n.slice(0, n.indexOf(".")));
  const admin = clientTls(state, "admin");
  await waitFor(`discovery of ${GROUP}`, lab.paths.logs.apiserver, lab.timeouts.discovery, state.pids.apiserver, async () => {
    const r = await httpGet(`${state.server}/apis/${GROUP}/${VERSION}`, admin);
    if (r.status !== 200) return false;
    const served = new Set((JSON.parse(r.body) as { resources: { name: string }[] }).resources.map((x) => x.name));
    return plurals.every((p) => served.has(p));
  });
  state.manifestsDigest = digest;
}

export const manifests: LabService = {
  name: "manifests",
  start: applyManifests,
  // A reused lab: apply again what changed since it started.
  async refresh(lab, state) {
    if (manifestsDigest(lab) === state.manifestsDigest) return;
    say("lab/crds or rbac changed since the lab started; applying them again");
    await applyManifests(lab, state);
    writeState(lab, state);
  },
};

/**
 * metadata.name of every CRD document in the given files (a tiny, purpose-built scan: top-level
 * `kind: CustomResourceDefinition` documents whose `metadata:` block has a `name:` line).
 */
export function crdNames(files: readonly string[]): string[] {
  const names: string[] = [];
  for (const f of files) {
    for (const doc of fs.readFileSync(f, "utf8").split(/^---\s*$/m)) {
      if (!/^kind:\s*CustomResourceDefinition\s*$/m.test(doc)) continue;
      const m = /^metadata:\s*\n(?:[ \t]+.*\n)*?[ \t]+name:\s*["']?([a-z0-9.-]+)["']?\s*$/m.exec(doc);
      if (!m?.[1]) throw new LabError("install CRDs", `cannot find metadata.name in a CRD in ${f}`);
      names.push(m[1]);
    }
  }
  return names;
}

/** Runs kubectl as one start step, its command and output appended to apply.log. */
async function kubectlStep(lab: LabContext, step: string, args: string[], timeoutMs = lab.timeouts.kubectl): Promise<RunResult> {
  const r = await run(lab.kubectl, args, { cwd: lab.repo.repo, timeoutMs, step });
  fs.appendFileSync(lab.paths.logs.apply, `$ ${lab.kubectl} ${args.join(" ")}\n${r.stdout}${r.stderr}(exit ${r.code})\n\n`);
  if (r.code !== 0) throw new LabError(step, `${lab.kubectl} exited with ${r.code}: ${r.stderr.trim().split("\n").slice(-10).join("\n")}`, lab.paths.logs.apply);
  return r;
}
