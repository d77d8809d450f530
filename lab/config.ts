// The lab's constants, stated once: versions, identities, the API group, the folder layout of
// .lab/ and the repository files the lab reads, the timeouts of every start step. The lab's
// modules and the test helpers (test/support/*.ts, test/e2e/global-setup.ts) import them from
// here. Nothing in this module runs anything; paths are functions of the repository and the
// environment, so that a bundle (lab/lab.mjs runs one) and a test resolve them the same way.
import os from "node:os";
import path from "node:path";

export const GROUP = "operator.ptah.run";
export const VERSION = "v1alpha1";
export const API_VERSION = `${GROUP}/${VERSION}`;

/** The lab's identities: one client certificate each, CN = user name; only lab-admin has a group. */
export const USERS = [
  { key: "admin", name: "lab-admin", org: "system:masters" },
  { key: "viewer", name: "lab-viewer", clusterRole: "ptah-viewer" },
  { key: "approver", name: "lab-approver", clusterRole: "ptah-approver" },
  { key: "nobody", name: "lab-nobody" },
] as const satisfies readonly LabUserSpec[];

export interface LabUserSpec {
  /** The key in lab.json's kubeconfigs/contexts/users and in the test helpers' `as`. */
  readonly key: string;
  /** User name (certificate CN) and the name of its context. */
  readonly name: string;
  /** The certificate's O (a group). */
  readonly org?: string;
  /** Bound by a ClusterRoleBinding the lab writes (.lab/bindings.yaml). */
  readonly clusterRole?: string;
}

/**
 * The group of the plugin's own certificates: each identity has a twin, the same user
 * name with this group as well (.lab/pki/<name>.plugin.crt, .lab/kubeconfigs/plugin/<name>.yaml).
 * The e2e tier runs the plugin under test only with those and never writes with them, and the
 * read-only proof judges every request they make, whatever its user agent.
 */
export const PLUGIN_GROUP = "ptah:plugin-under-test";
/** The read-only proof's own probes: a plugin identity (PLUGIN_GROUP) that the real verdict leaves out. */
export const SENTINEL_USER = { name: "lab-sentinel", clusterRole: "ptah-approver" } as const;

export type LabUser = (typeof USERS)[number]["key"];
export const LAB_USERS: readonly LabUser[] = USERS.map((u) => u.key);
/** The context of the lab's main kubeconfig. */
export const ADMIN_CONTEXT = "lab-admin";
/** The kubeconfig's cluster entry. */
export const CLUSTER_NAME = "ptah-lab";
/** The field manager of the lab's server-side apply. */
export const FIELD_MANAGER = "ptah-lab";

export interface LabVersions {
  readonly kubernetes: string;
  readonly etcd: string;
}

export function labVersions(env: NodeJS.ProcessEnv = process.env): LabVersions {
  return { kubernetes: env.PTAH_LAB_K8S || "1.33.13", etcd: env.PTAH_LAB_ETCD || "3.6.16" };
}

/** The kubectl the lab and the test helpers run ($PTAH_LAB_KUBECTL, else kubectl on PATH). */
export function labKubectl(env: NodeJS.ProcessEnv = process.env): string {
  return env.PTAH_LAB_KUBECTL || "kubectl";
}

/** Where built binaries are cached, all versions: ${XDG_CACHE_HOME:-~/.cache}/kubectl-ptah/lab-bin. */
export function binCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "kubectl-ptah", "lab-bin");
}

/** The folder of one version pair; must match the folder lab/build.sh writes to. */
export function binDirFor(versions: LabVersions, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(binCacheRoot(env), `k8s-${versions.kubernetes}-etcd-${versions.etcd}`);
}

/** The lab's state folder: $PTAH_LAB_DIR, else <repo>/.lab. */
export function labDirOf(repo: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.PTAH_LAB_DIR || path.join(repo, ".lab"));
}

/** Everything in a lab folder (README "Files in .lab/"). Logs and pki/ survive a stop. */
export function labLayout(dir: string) {
  const at = (name: string) => path.join(dir, name);
  return {
    dir,
    state: at("lab.json"),
    lock: at("lock"),
    pki: at("pki"),
    etcdData: at("etcd-data"),
    kubeconfig: at("kubeconfig"),
    kubeconfigs: at("kubeconfigs"),
    bindings: at("bindings.yaml"),
    auditLog: at("audit.log"),
    logs: { etcd: at("etcd.log"), apiserver: at("kube-apiserver.log"), apply: at("apply.log"), build: at("build.log"), sim: at("sim.log") },
    sim: { bundle: at("sim.mjs"), next: at("sim.next.mjs"), ready: at("sim.json") },
  };
}
export type LabLayout = ReturnType<typeof labLayout>;

/** The repository files the lab reads. */
export function repoLayout(repo: string) {
  return {
    repo,
    /** `node lab/lab.mjs …`: the entry point every script and test runs. */
    launcher: path.join(repo, "lab", "lab.mjs"),
    auditPolicy: path.join(repo, "lab", "audit-policy.yaml"),
    crds: path.join(repo, "lab", "crds"),
    rbac: path.join(repo, "rbac"),
    buildScript: path.join(repo, "lab", "build.sh"),
    simEntry: path.join(repo, "test", "sim", "main.ts"),
  };
}
export type RepoLayout = ReturnType<typeof repoLayout>;

/** Timeouts (ms) of every start step; the build and the lock wait can be raised from the environment. */
export function labTimeouts(env: NodeJS.ProcessEnv = process.env) {
  return {
    build: Number(env.PTAH_LAB_BUILD_TIMEOUT_MIN || 90) * 60_000,
    lock: Number(env.PTAH_LAB_LOCK_TIMEOUT_MIN || 100) * 60_000,
    openssl: 30_000,
    etcd: 30_000,
    apiserver: 120_000,
    kubectl: 90_000,
    established: 60_000,
    discovery: 60_000,
    simulator: 60_000,
    stop: 15_000,
    health: 3_000,
  };
}
export type LabTimeouts = ReturnType<typeof labTimeouts>;

/** One run of a lab command: the repository, the lab folder and everything derived from the environment. */
export interface LabContext {
  readonly repo: RepoLayout;
  readonly paths: LabLayout;
  readonly versions: LabVersions;
  readonly kubectl: string;
  readonly timeouts: LabTimeouts;
  readonly env: NodeJS.ProcessEnv;
}

export function labContext(repo: string, env: NodeJS.ProcessEnv = process.env): LabContext {
  return {
    repo: repoLayout(repo),
    paths: labLayout(labDirOf(repo, env)),
    versions: labVersions(env),
    kubectl: labKubectl(env),
    timeouts: labTimeouts(env),
    env,
  };
}
