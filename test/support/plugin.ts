// Runs the real kubectl with the plugin under test on PATH (the e2e setup's PTAH_BIN_DIR), as one
// of the lab's identities, and builds the schema and migration manifests e2e fixtures start from.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { labEnv, type KubeObject, type LabUser } from "./lab.ts";

export interface PluginRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment in which `kubectl ptah` finds our plugin and acts as `as`. */
export function pluginEnv(as: LabUser = "viewer", extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${process.env.PTAH_BIN_DIR ?? ""}${path.delimiter}${process.env.PATH ?? ""}`,
    KUBECONFIG: labEnv().kubeconfigs[as],
    NO_COLOR: "1",
    ...extra,
  };
}

/** `kubectl ARGS…` (e.g. ["ptah", "status"] or ["__complete", "ptah", ""]) through the real kubectl. */
export function runKubectl(args: readonly string[], as: LabUser = "viewer", extra: NodeJS.ProcessEnv = {}): PluginRun {
  const r = spawnSync("kubectl", [...args], { encoding: "utf8", env: pluginEnv(as, extra), timeout: 60_000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** `kubectl ptah ARGS…`. */
export function ptah(args: readonly string[], as: LabUser = "viewer", extra: NodeJS.ProcessEnv = {}): PluginRun {
  return runKubectl(["ptah", ...args], as, extra);
}

const TARGET = { engine: "PostgreSQL", coordinationKey: "shop", urlFrom: { name: "db", key: "url" } };
const SOURCE = (ref: string) => ({ ociRef: ref, verificationPolicyFrom: { name: "policy", key: "policy.json" } });

export function schemaManifest(namespace: string, name: string): KubeObject {
  return {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahSchema",
    metadata: { name, namespace },
    spec: { target: TARGET, desired: SOURCE("oci://registry.lab/schemas/demo:v1") },
  } as KubeObject;
}

export function migrationManifest(namespace: string, name: string): KubeObject {
  return {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahMigration",
    metadata: { name, namespace },
    spec: { target: TARGET, artifact: SOURCE("oci://registry.lab/migrations/demo:v1") },
  } as KubeObject;
}
