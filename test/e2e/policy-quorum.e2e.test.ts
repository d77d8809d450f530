// Two endorsements for a risky plan, enforced by the lab's real kube-apiserver alone, through the
// real kubectl: the policies `kubectl ptah policy render --endorsements 2 --endorser-group …`
// prints, applied to this test's namespace only and removed after it. Every refused and admitted
// case of the quorum and of the endorsement annotations, a stale --resource-version (409), a
// re-plan voiding the endorsements, and the operator's own writes going through (the plans are
// reserved, applied and converge with the policies bound). `kubectl ptah endorse` prints the
// command each endorser runs, and runs nothing itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endorsementKey } from "../../src/approval/endorsement.ts";
import { kubectl } from "../support/lab.ts";
import { ptah } from "../support/plugin.ts";
import {
  applyPolicy,
  approvalOf,
  explainPaste,
  grant,
  kubectlAs,
  phaseOf,
  planOf,
  ptahAs,
  removePolicy,
  RESOURCE,
  runLineAs,
  SCHEMA,
  schemaOf,
  storefrontNamespace,
  until,
  waitSchema,
  type Person,
  type Run,
} from "./policy-setup.ts";

const skip = process.env.PTAH_E2E_SKIP;
const NAME = `quorum${Date.now().toString(36)}`;
const DBA = `dba-${NAME}`;
const alice: Person = { name: "alice", groups: [DBA] };
const bob: Person = { name: "bob", groups: [DBA] };
const dave: Person = { name: "dave", groups: [DBA] };
const carol: Person = { name: "carol", groups: ["storage"] };
const writer: Person = { name: "lab-admin", groups: ["system:masters", DBA] };
const approver: Person = { name: "lab-approver", groups: [] };

let ns = "";
const refusedWith = (r: Run, text: string) => {
  expect(r.code, r.stdout).not.toBe(0);
  expect(r.stderr).toContain(text);
};
const admitted = (r: Run) => expect(r, r.stderr).toMatchObject({ code: 0 });
/** The approval `approve` prints, created as `p` with dryRun=All (nothing is stored). */
const tryApprove = (p: Person) => kubectlAs(p, ["create", "--dry-run=server", "-f", "-"], approvalOf(ns));
/** `kubectl ptah endorse` as `p`, and the line it printed run as `p`. */
function endorse(p: Person): Run {
  const line = ptahAs(p, ["endorse", SCHEMA, "-n", ns]);
  expect(line, line.stderr).toMatchObject({ code: 0, stderr: "" });
  expect(line.stdout.split("\n")).toHaveLength(2);
  return runLineAs(p, line.stdout);
}
const annotate = (p: Person, ...args: string[]) => kubectlAs(p, ["annotate", RESOURCE, "-n", ns, ...args]);

describe.skipIf(Boolean(skip))("policy: two endorsements for risky plans, on the real API server", () => {
  beforeAll(() => {
    ns = storefrontNamespace("policy-quorum");
    grant(ns, DBA, { endorsers: [carol.name], approvers: [bob.name] });
    applyPolicy(ns, NAME, ["--endorsements", "2", "--endorser-group", DBA]);
  });
  afterAll(() => removePolicy(NAME));

  it("admits a plain plan with no endorsement, and the operator's own writes go through", async () => {
    await waitSchema(ns, (s) => phaseOf(s) === "AwaitingApproval", "AwaitingApproval");
    // The policies take effect a moment after they are applied: wait for the endorsement policy to refuse.
    refusedWith(
      await until(
        () => annotate(alice, "endorsements.ptah.run/probe=alice", "--dry-run=server"),
        (r) => r.code !== 0,
      ),
      "ValidatingAdmissionPolicy",
    );
    expect(planOf(schemaOf(ns))?.destructive).toBe(false);
    admitted(kubectlAs(approver, ["create", "-f", "-"], approvalOf(ns)));
    await waitSchema(ns, (s) => phaseOf(s) === "InSync", "InSync (reserved, applied, converged: the operator's writes)");
  }, 120_000);

  let key = "";
  it("refuses a destructive plan's approval with 0 and with 1 endorsement, naming who endorsed and what to run", async () => {
    kubectl(["patch", RESOURCE, "--type", "merge", "-p", '{"spec":{"desired":{"ociRef":"oci://registry.lab/schemas/demo:v3"}}}'], { namespace: ns });
    const s = await waitSchema(ns, (x) => phaseOf(x) === "AwaitingApproval" && planOf(x)?.destructive === true, "a destructive plan");
    key = endorsementKey(planOf(s)!.fingerprint!);
    const none = await until(
      () => tryApprove(approver),
      (r) => r.code !== 0,
    );
    refusedWith(none, `the current plan of schema ${ns}/${SCHEMA} is destructive and needs 2 endorsements from group ${DBA} besides the approver; it has 0.`);
    expect(none.stderr).toContain(`runs the line kubectl ptah endorse ${SCHEMA} -n ${ns} prints`);
    // The real kubectl's stderr, pasted into explain: the quorum's topic, with the names read back.
    const placed = explainPaste(none.stderr);
    expect(placed).toMatchObject([{ topic: "concept/endorsement", slots: { namespace: ns, schema: SCHEMA, group: DBA, count: "2", have: "0" } }]);
    expect(placed[0]!.next.map((n) => n.command)).toContain(`kubectl ptah status ${SCHEMA} -n ${ns}`);
    admitted(endorse(alice));
    const one = tryApprove(approver);
    refusedWith(one, "it has 1 (alice).");
    expect(explainPaste(one.stderr)).toMatchObject([{ topic: "concept/endorsement", slots: { namespace: ns, schema: SCHEMA, have: "1", users: "alice" } }]);
    // Read back by the plugin from the policy the cluster holds: one of two, by alice.
    expect(ptah(["status", SCHEMA, "-n", ns], "approver").stdout).toMatch(/\n {2}Endorsed: +1\/2 \(alice\)\n/u);
    expect(ptah(["inbox", "-n", ns], "approver").stdout).toMatch(/ENDORSED[\s\S]*1\/2 \(alice\)/u);
    const warned = ptah(["approve", SCHEMA, "-n", ns], "approver");
    expect(warned.status).toBe(0);
    expect(warned.stderr).toContain(`(ValidatingAdmissionPolicy ${NAME}-quorum): the current plan of schema ${ns}/${SCHEMA} is destructive and needs 2 endorsements`);
    const doctor = ptah(["doctor", "-n", ns], "admin");
    expect(doctor.stdout).toMatch(new RegExp(`approval policies +\\d+ of \\d+ in force`, "u"));
    expect(doctor.stdout).toContain(`${NAME}-quorum (quorum): bound by ${NAME}-quorum [Deny]`);
  }, 120_000);

  it("refuses a duplicate, a non-member, a forged list, the last spec writer, another plan's key, a removal, a spec change", () => {
    refusedWith(annotate(alice, `${key}=alice,alice`, "--overwrite"), "alice already endorsed the current plan");
    const again = ptahAs(alice, ["endorse", SCHEMA, "-n", ns]);
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(again.stderr).toMatch(
      /^error: cannot endorse \S+: you \(alice\) already endorsed its current plan \(endorsements\.ptah\.run\/sha256-[0-9a-f]{56}\); next: kubectl ptah status storefront -n \S+\n$/u,
    );
    const outsider = annotate(carol, `${key}=alice,carol`, "--overwrite");
    refusedWith(outsider, `carol is not a member of group ${DBA}`);
    expect(explainPaste(outsider.stderr)).toMatchObject([{ topic: "concept/endorsement-refused", slots: { user: "carol", group: DBA } }]);
    refusedWith(annotate(bob, `${key}=alice,bob,dave`, "--overwrite"), "an endorsement appends exactly your own username");
    refusedWith(annotate(writer, `${key}=alice,lab-admin`, "--overwrite"), "lab-admin last changed the spec");
    const self = ptahAs(writer, ["endorse", SCHEMA, "-n", ns]);
    expect(self).toMatchObject({ code: 1, stdout: "" });
    expect(self.stderr).toContain("you (lab-admin) last changed its spec, and the plan's last spec writer never endorses it (four eyes)");
    refusedWith(annotate(bob, "endorsements.ptah.run/sha256-0123456789abcdef=bob"), "is not the key of the current plan");
    refusedWith(annotate(writer, `${key}-`), "cannot be removed");
    const both = JSON.stringify({ metadata: { annotations: { [key]: "alice,lab-approver" } }, spec: { interval: "11m" } });
    refusedWith(kubectlAs(writer, ["patch", RESOURCE, "-n", ns, "--type", "merge", "-p", both]), "an endorsement cannot change the spec");
    // An endorser holds patch only: anything but their own endorsement is refused.
    refusedWith(kubectlAs(bob, ["label", RESOURCE, "-n", ns, "team=dba"]), "bob may not update schema");
    refusedWith(kubectlAs(bob, ["patch", RESOURCE, "-n", ns, "--type", "merge", "-p", '{"spec":{"interval":"12m"}}']), "bob may not update schema");
    expect(schemaOf(ns).metadata.annotations?.[key]).toBe("alice");
  });

  it("refuses a stale --resource-version with 409, and the approver never counts themself", () => {
    const stale = ptahAs(bob, ["endorse", SCHEMA, "-n", ns]).stdout;
    kubectl(["annotate", RESOURCE, "lab.example/touched=yes"], { namespace: ns });
    const conflict = runLineAs(bob, stale);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain("Error from server (Conflict)");
    // Bob runs endorse again: a merge patch body this time, with the fresh resourceVersion.
    const body = ptahAs(bob, ["endorse", SCHEMA, "-n", ns, "-o", "json"]);
    expect(body.code, body.stderr).toBe(0);
    admitted(kubectlAs(bob, ["patch", RESOURCE, "-n", ns, "--type", "merge", "-p", body.stdout]));
    expect(schemaOf(ns).metadata.annotations?.[key]).toBe("alice,bob");
    refusedWith(tryApprove(bob), "it has 1 (alice).");
  });

  it("voids the endorsements on a re-plan, and admits two endorsements of the new plan", async () => {
    const before = planOf(schemaOf(ns))!.fingerprint;
    kubectl(["patch", RESOURCE, "--type", "merge", "-p", '{"spec":{"policy":{"lockTimeout":"31s"}}}'], { namespace: ns });
    const s = await waitSchema(ns, (x) => phaseOf(x) === "AwaitingApproval" && planOf(x)?.fingerprint !== before && planOf(x)?.destructive === true, "a new destructive plan");
    const next = endorsementKey(planOf(s)!.fingerprint!);
    expect(next).not.toBe(key);
    expect(s.metadata.annotations?.[key]).toBe("alice,bob");
    refusedWith(tryApprove(approver), "it has 0.");
    admitted(endorse(alice));
    admitted(endorse(dave));
    expect(ptah(["approve", SCHEMA, "-n", ns], "approver")).toMatchObject({ status: 0, stderr: "" });
    admitted(kubectlAs(approver, ["create", "-f", "-"], approvalOf(ns)));
    await waitSchema(ns, (x) => phaseOf(x) === "InSync", "InSync after the endorsed destructive plan");
    // The ledger names who endorsed the plan each approval approved.
    expect(ptah(["ledger", SCHEMA, "-n", ns], "approver").stdout).toMatch(/ENDORSERS[\s\S]*alice,dave/u);
  }, 120_000);
});
