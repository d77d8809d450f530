// `kubectl ptah doctor` through the real kubectl (the plugin found on PATH as kubectl-ptah):
// - on the shared lab (operator simulator running) as each identity: admin ok; viewer told that
//   approve --dry-run=server is not permitted and which ClusterRole fixes it; nobody's problems
//   with the binding; --probe admitted by the simulator's admission in a managed namespace and
//   refused by the CRD in an unmanaged one;
// - on a private lab with the CRDs but no simulator (no webhooks): the webhook checks are
//   problems; then, with the Ptah CRDs deleted, the API check names every kind. Its audit log
//   shows only reads and access reviews from the plugin.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatAuditEvent, isReview, pluginWrites, readAuditLog } from "../support/audit.ts";
import { createNamespace, createObject, kubectl, kubectlJson, setStatus, type KubeObject } from "../support/lab.ts";
import { labAwaitingStatus, publishPlanInLab } from "../support/lab-publish.ts";
import { ptah, schemaManifest } from "../support/plugin.ts";
import { PrivateLab, type PrivateLabState } from "../support/private-lab.ts";
import { ADMIN_CONTEXT, labKubectl } from "../../lab/config.ts";
import { createScenarioNamespace } from "../scenarios/process.ts";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { EVERY_USER, OFFLINE, RECOMMENDED_ROLES, describeRules, grants } from "../../src/commands/shared/permissions.ts";

const skip = process.env.PTAH_E2E_SKIP;

function lines(stdout: string, status: string): string[] {
  return stdout.split("\n").filter((l) => l.startsWith(`  ${status} `));
}

/** Polls `done` every `everyMs` until `ms` have passed; then fails with `why()`, what was seen. */
async function until(ms: number, done: () => boolean, why: () => string, everyMs = 500): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A CRD's deletion state in one phrase: name, deletion time, finalizers, the Terminating condition. */
function crdState(crd: KubeObject): string {
  const meta = crd.metadata as { name: string; deletionTimestamp?: string; finalizers?: string[] };
  const terminating = ((crd.status as { conditions?: { type: string; status: string; reason?: string; message?: string }[] } | undefined)?.conditions ?? []).find(
    (c) => c.type === "Terminating",
  );
  const cond = terminating ? `Terminating=${terminating.status} ${terminating.reason ?? ""}: ${terminating.message ?? ""}` : "no Terminating condition";
  return `${meta.name} (deletionTimestamp ${meta.deletionTimestamp ?? "none"}, finalizers [${(meta.finalizers ?? []).join(", ")}], ${cond})`;
}

describe.skipIf(skip)("doctor on the lab, as each identity", { timeout: 180_000 }, () => {
  it("admin: every check ok or skipped with why, exit 0; stuck objects in the shared lab only a warning", () => {
    const r = ptah(["doctor"], "admin");
    expect(r.stderr).toBe("");
    expect(r.status, r.stdout).toBe(0);
    expect(lines(r.stdout, "problem")).toEqual([]);
    // The lab is shared: a scenario (stuck-resources) leaves stalled and overdue objects on purpose, and the
    // stuck row counts every namespace, so it is ok or a warning depending on what ran before.
    expect(r.stdout).toMatch(
      /^ {2}(ok +stuck resources +none: no schema or migration in any namespace|warning +stuck resources +\d+ stuck in any namespace \(overdue \d+, stalled \d+, lock release owed \d+, unresolved run \d+, outcome unknown \d+\); kubectl ptah status -A --stuck$)/mu,
    );
    for (const name of ["kubeconfig", "server", "version skew", "clock", "plugin on PATH", "kinds served", "mutating webhooks", "validating webhooks", "commands"]) {
      expect(r.stdout, name).toMatch(new RegExp(`^  ok +${name} `, "mu"));
    }
    expect(r.stdout).toMatch(/context lab-admin, from current-context in /u);
    expect(r.stdout).toMatch(/mapproval\.operator\.ptah\.run \(ptah-operator-simulator\) → https:\/\/127\.0\.0\.1:\d+\/mutate/u);
  });

  it("viewer: approve --dry-run=server named as not permitted, ptah-approver named as the fix, exit 1", () => {
    const r = ptah(["doctor", "-n", "default"], "viewer");
    expect(r.status, r.stdout).toBe(1);
    const forms = ALL_COMMANDS.flatMap((c) => c.permissions);
    expect(lines(r.stdout, "problem").map((l) => l.trim())).toEqual([`problem  commands            4 of ${forms.length} command forms are not permitted`]);
    // A row for every form of every command (the declarations), each verdict what ptah-viewer grants.
    const section = r.stdout.slice(r.stdout.indexOf("Permissions ("));
    const rows = new Map(
      section
        .split("\n")
        .filter((l) => /^ {31}\S/u.test(l) && !l.trimStart().startsWith("fix: "))
        .map((l) => /^ {31}(.*?) {2,}(\S.*)$/u.exec(l)!.slice(1, 3) as [string, string]),
    );
    expect([...rows.keys()]).toEqual(forms.map((f) => f.form));
    for (const f of forms) {
      const lacking = f.rules.filter((rule) => !grants(RECOMMENDED_ROLES["ptah-viewer"], rule) && !grants(EVERY_USER, rule));
      expect(rows.get(f.form), f.form).toBe(
        lacking.length > 0 ? `missing ${describeRules(lacking, "")}` : f.rules.length === 0 && f.note === OFFLINE ? "needs no cluster" : "permitted",
      );
    }
    expect(r.stdout).toMatch(/fix: bind the ClusterRole ptah-approver \(rbac\/ptah-approver\.yaml\)/u);
    // What the viewer may not read is skipped, never ok.
    expect(r.stdout).toMatch(/skipped +CRD generation +the account may not get customresourcedefinitions/u);
    expect(r.stdout).toMatch(/skipped +mutating webhooks +the account may not list mutatingwebhookconfigurations/u);
  });

  it("approver: everything it may check holds, exit 0", () => {
    const r = ptah(["doctor"], "approver");
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/ok +commands +every command form is permitted/u);
  });

  it("nobody: every command form is a problem, the binding that fixes them is named", () => {
    const r = ptah(["doctor", "-o", "json"], "nobody");
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as { problems: number; checks: { name: string; status: string; fix?: string; details: string[] }[] };
    const commands = doc.checks.find((c) => c.name === "commands")!;
    expect(commands.status).toBe("problem");
    expect(commands.details.filter((d) => / permitted$/u.test(d)).map((d) => d.replace(/ +permitted$/u, ""))).toEqual(["version"]);
    // doctor itself runs, but its spec-writer check lists schemas and migrations, which nobody may.
    expect(commands.details).toContainEqual(expect.stringMatching(/^doctor +missing list ptahschemas, ptahmigrations$/u));
    expect(commands.fix).toMatch(
      /^bind the ClusterRole ptah-approver \(rbac\/ptah-approver\.yaml; ptah-viewer alone fixes every command but the creates\): kubectl create rolebinding <user>-ptah-approver -n default/u,
    );
    expect(doc.checks.find((c) => c.name === "kinds served")!.status).toBe("ok");
    // Elsewhere, the Forbidden that doctor explains says so.
    const status = ptah(["status"], "nobody");
    expect(status.status).toBe(1);
    expect(status.stderr).toMatch(/^error: .*cannot list resource "ptah\w+".* \(kubectl ptah doctor explains what is missing\)\n$/u);
  });
});

describe.skipIf(skip)("doctor --probe on the lab", { timeout: 180_000 }, () => {
  let managed = "";
  let unmanaged = "";

  beforeAll(async () => {
    // A namespace the simulator manages: it publishes the plan and waits for approval.
    managed = createScenarioNamespace("doctor-probe");
    kubectl(["apply", "-n", managed, "-f", "-"], {
      input: JSON.stringify({
        apiVersion: "v1",
        kind: "List",
        items: [
          { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "policy" }, immutable: true, data: { "policy.json": '{"artifactType":"application/vnd.ptah.schema.v1"}' } },
          { apiVersion: "v1", kind: "Secret", metadata: { name: "db" }, stringData: { url: "postgres://storefront@db.lab:5432/storefront" } },
          schemaManifest(managed, "storefront"),
        ],
      }),
    });
    const status = (): KubeObject["status"] => kubectlJson<KubeObject>(["get", "ptahschemas.operator.ptah.run", "storefront", "-n", managed]).status;
    await until(
      60_000,
      () => ((status() as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === "ApprovalRequired" && c.status === "True"),
      () => `storefront in ${managed} never waited for approval: ${JSON.stringify(status())}`,
      250,
    );
    // An unmanaged namespace: the webhooks' namespaceSelector leaves it alone.
    unmanaged = createNamespace("doctor-unmanaged");
    const schema = createObject(schemaManifest(unmanaged, "storefront"));
    const plan = publishPlanInLab({
      schema: { name: "storefront", namespace: unmanaged, uid: (schema.metadata as { uid: string }).uid },
      statements: [{ sql: 'CREATE TABLE "t" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
    });
    setStatus(schema, labAwaitingStatus(plan));
  });

  it("is admitted by the simulator's admission, which stamps the approver; nothing is stored", () => {
    const r = ptah(["doctor", "-n", managed, "--probe", "storefront"], "approver");
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`ok +probe +admission admitted a dry-run PtahSchemaApproval for ${managed}/storefront \\(nothing was stored\\)`, "u"));
    expect(r.stdout).toMatch(/stamped approver: lab-approver/u);
    expect(kubectl(["get", "ptahschemaapprovals.operator.ptah.run", "-n", managed, "-o", "name"]).stdout).toBe("");
  });

  it("reports admission's refusal where no webhook stamps the approval", () => {
    const r = ptah(["doctor", "-n", unmanaged, "--probe", "storefront"], "admin");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`problem +probe +admission refused the approval for ${unmanaged}/storefront: .*Required value`, "u"));
    expect(r.stdout).toMatch(/fix: the mutating webhook did not stamp the approval/u);
  });

  it("is skipped, with why, for a viewer (no create permission)", () => {
    const r = ptah(["doctor", "-n", managed, "--probe", "storefront"], "viewer");
    expect(r.stdout).toMatch(new RegExp(`skipped +probe +the account may not create ptahschemaapprovals in ${managed}`, "u"));
  });
});

describe.skipIf(skip)("doctor on a control plane without the operator", { timeout: 300_000 }, () => {
  const lab = new PrivateLab("e2e-doctor-lab", { simulator: false });
  let state: PrivateLabState;

  /** kubectl ptah ARGS (default doctor) as lab-admin of the private lab, through the real kubectl. */
  function doctor(args: readonly string[] = ["doctor"]): { status: number; stdout: string; stderr: string } {
    const env = { ...process.env, PATH: `${process.env.PTAH_BIN_DIR ?? ""}${path.delimiter}${process.env.PATH ?? ""}`, KUBECONFIG: state.kubeconfigs.admin, NO_COLOR: "1" };
    const r = spawnSync("kubectl", ["ptah", ...args], { encoding: "utf8", env, timeout: 60_000 });
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  beforeAll(() => {
    state = lab.start();
  }, 20 * 60_000);

  afterAll(() => {
    if (!state) return;
    try {
      spawnSync("sleep", ["2"]);
      const events = readAuditLog(state.auditLog).filter((e) => (e.userAgent ?? "").startsWith("kubectl-ptah/"));
      // The checker sees the reviews (access reviews; who am I, for the apply guard's exemption) as creates; allowed, they are the only non-reads.
      expect(pluginWrites(events).length).toBeGreaterThan(0);
      expect(pluginWrites(events).every(isReview)).toBe(true);
      const writes = pluginWrites(events, { allowAccessReviews: true });
      if (writes.length > 0) throw new Error(`the plugin sent requests it must never send:\n${writes.map(formatAuditEvent).join("\n")}`);
    } finally {
      lab.command("stop");
    }
  });

  it("CRDs but no webhooks: both webhook checks are problems that say what is missing", () => {
    const r = doctor();
    expect(r.status, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/ok +kinds served +all 8 Ptah kinds are served/u);
    expect(r.stdout).toMatch(
      /problem +mutating webhooks +no mutating webhook handles CREATE of ptahschemaapprovals\.operator\.ptah\.run, ptahmigrationapprovals\.operator\.ptah\.run, ptahmigrationrunacknowledgments\.operator\.ptah\.run/u,
    );
    expect(r.stdout).toMatch(/fix: install or repair the Ptah operator: without its mutating webhook nothing stamps the approver/u);
    expect(r.stdout).toMatch(/problem +validating webhooks +no validating webhook handles CREATE/u);
  });

  it("no CRDs: the API check is a problem naming every kind and its CRD", async () => {
    // Not --wait: finalising the CRDs can outlast kubectl's 60 s on a loaded machine. The API
    // server serves a group while any of its CRDs exists, terminating ones included (its
    // discovery controller lists CRDs from its informer), and a CRD is only removed once its
    // cleanup finalizer has deleted every instance. So the test waits in two steps, each
    // failing with what it saw: first the CRDs are gone, then discovery has dropped the group.
    // The cleanup finalizer first lists each CRD's instances; while a resource's storage is still
    // initialising that list fails ("storage is (re)initializing", seen for ptahrealms after 150 s
    // of the finalizer's backoff), so every kind is listed once, successfully, before the delete.
    for (const plural of lab.kubectl(["api-resources", "--api-group=operator.ptah.run", "-o", "name"]).trim().split("\n")) {
      await until(
        60_000,
        () => spawnSync(labKubectl(), ["--kubeconfig", state.kubeconfig, "--context", ADMIN_CONTEXT, "get", plural, "-A", "-o", "name"]).status === 0,
        () => `${plural} cannot be listed`,
      );
    }
    lab.kubectl(["delete", "crd", "-l", "app.kubernetes.io/part-of=ptah-lab", "--wait=false"]);
    await until(
      150_000,
      () => lab.kubectl(["get", "crd", "-l", "app.kubernetes.io/part-of=ptah-lab", "-o", "name"]).trim() === "",
      () => {
        const crds = JSON.parse(lab.kubectl(["get", "crd", "-l", "app.kubernetes.io/part-of=ptah-lab", "-o", "json"])) as { items: KubeObject[] };
        return `the Ptah CRDs are not deleted after 150 s: ${crds.items.map(crdState).join("; ")}`;
      },
    );
    await until(
      60_000,
      () => lab.kubectl(["api-resources", "--api-group=operator.ptah.run", "-o", "name"]).trim() === "",
      () => {
        const served = lab.kubectl(["api-resources", "--api-group=operator.ptah.run", "-o", "name"]).trim().split("\n").join(", ");
        return `the CRDs are gone but discovery still serves operator.ptah.run after 60 s: ${served}; APIServices: ${
          lab
            .kubectl(["get", "apiservices", "-o", "name"])
            .trim()
            .split("\n")
            .filter((n) => n.includes("ptah"))
            .join(", ") || "none for the group"
        }`;
      },
    );
    const r = doctor();
    expect(r.status, r.stdout).toBe(1);
    expect(r.stdout).toMatch(
      /problem +kinds served +operator\.ptah\.run\/v1alpha1 is not served: none of the 8 Ptah kinds \(PtahSchema, PtahSchemaPlan, PtahSchemaPlanChunk, PtahSchemaApproval, PtahMigration, PtahMigrationPlan, PtahMigrationApproval, PtahMigrationRunAcknowledgment\)/u,
    );
    expect(r.stdout).toMatch(/PtahSchemaApproval: CRD ptahschemaapprovals\.operator\.ptah\.run/u);
    expect(r.stdout).toMatch(/skipped +CRD generation +no Ptah CRD is served/u);
    // Elsewhere, a read of a Ptah kind names the missing CRD (not a missing schema) and doctor.
    for (const args of [["schema", "storefront"], ["status"]]) {
      const read = doctor(args);
      expect(read.stdout).toBe("");
      expect(read.stderr).toBe(
        "error: the server doesn't have a resource type \"ptahschemas\": is the Ptah operator's CRD installed? (kubectl ptah doctor explains what is missing)\n",
      );
    }
  });
});
