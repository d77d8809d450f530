// `status SCHEMA --report` on the lab, through the real kubectl: a schema whose status is written as
// the manager would (an unlabelled namespace: the simulator never acts there) is reported with its
// conditions and the server's real version, and nothing of the kubeconfig it connected with (its
// client certificate, key, token or CA, as served or decoded) is in the report, with --with-sql too.
import { beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, labEnv, type KubeObject } from "../support/lab.ts";
import { credentialsOf } from "../support/kubeconfig-secrets.ts";
import { ptah, schemaManifest } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;
let ns = "";

describe.skipIf(Boolean(skip))("status SCHEMA --report on the lab", { timeout: 120_000 }, () => {
  beforeAll(() => {
    ns = createNamespace("report");
    const at = new Date().toISOString().replace(/\.\d{3}Z$/u, "Z");
    createObject({
      ...schemaManifest(ns, "storefront"),
      status: {
        phase: "AwaitingApproval",
        observedGeneration: 1,
        conditions: [
          { type: "Ready", status: "False", reason: "AwaitingApproval", message: "The current plan requires a new approval", lastTransitionTime: at, observedGeneration: 1 },
        ],
      },
    } as KubeObject);
  });

  it.each([[[]], [["--with-sql"]]])("reports the conditions and the server's version, and no credential of the kubeconfig (%j)", (extra: string[]) => {
    const r = ptah(["status", "storefront", "-n", ns, "--report", ...extra], "viewer");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`## PtahSchema \`${ns}/storefront\``);
    expect(r.stdout).toContain("| `Ready` | `False` | `AwaitingApproval` | `1` |");
    expect(r.stdout).toMatch(/^- \*\*Server:\*\* Kubernetes `v1\.33\.\d+`$/mu);
    const secrets = credentialsOf(labEnv().kubeconfigs.viewer);
    expect(secrets.length).toBeGreaterThan(0);
    for (const s of secrets) expect(r.stdout.includes(s), "a credential of the kubeconfig is in the report").toBe(false);
    // This schema has no current plan: --with-sql says so in one line.
    if (extra.length > 0) expect(r.stdout).toContain("### SQL\n\nNo current plan: there are no statements to include.\n");
  });
});
