// The record's binding copies (newest CRD): every copy status.plan or
// status.applied carries must equal the plan's spec, in plan, approve and plan --verify alike;
// an older record without copies is still read; status SCHEMA names what the record pins.
import { describe, expect, it } from "vitest";
import { pinnedBindings, recordCopies } from "../../src/plan/record-bindings.ts";
import { runCliWith } from "../support/cli.ts";
import { awaitingSchema } from "../support/builders.ts";
import { FakeReader } from "../support/fake-reader.ts";
import { appliedStatus, currentPlanStatus, fakeObjectsOf } from "../support/publish-plan.ts";
import { clusterState, NS, publishApplied, publishCurrent, SCHEMA, SCHEMA_UID } from "./fixtures.ts";

type Raw = Record<string, unknown>;

const current = publishCurrent();
const applied = publishApplied();
const currentSpec = current.plan.spec as Raw;

/** Another value of the same type, for each kind of copy. */
function other(value: unknown): unknown {
  if (typeof value === "number") return value + 1;
  if (typeof value === "boolean") return !value;
  if (Array.isArray(value)) return [...value, "Ownership"].sort();
  return `${String(value).slice(0, -1)}${String(value).endsWith("0") ? "1" : "0"}`;
}

const CURRENT_FIELDS = Object.keys(recordCopies("current", currentPlanStatus(current) as never).values);
const APPLIED_FIELDS = Object.keys(recordCopies("applied", appliedStatus(applied) as never).values);

describe("the binding copies of the record", () => {
  it("cover every binding the newest CRD requires status.plan and status.applied to repeat", () => {
    expect(CURRENT_FIELDS.sort()).toEqual(
      [
        "actualStateFingerprint",
        "artifactDigest",
        "contentDigest",
        "controllerImage",
        "controllerRevision",
        "controllerStateVersion",
        "coordinationDigest",
        "desiredStateFingerprint",
        "destructive",
        "executionBindingID",
        "executorImage",
        "policyFingerprint",
        "privilegeChanges",
        "ptahVersion",
        "runnerImage",
        "runnerProtocolVersion",
        "statementCount",
        "targetIdentityDigest",
        "verificationPolicyDigest",
        "verificationPolicyUID",
      ].sort(),
    );
    expect(APPLIED_FIELDS.sort()).toEqual(
      [
        "artifactDigest",
        "controllerImage",
        "controllerRevision",
        "controllerStateVersion",
        "coordinationDigest",
        "executionBindingID",
        "executorImage",
        "ptahVersion",
        "runnerImage",
        "runnerProtocolVersion",
        "targetIdentityDigest",
      ].sort(),
    );
  });

  it.each(CURRENT_FIELDS)("plan refuses a status.plan whose %s is not the plan's (exit 1, the field named)", async (field) => {
    const recorded = field === "privilegeChanges" ? ["FunctionReplacement", "Grant"] : currentSpec[field];
    const record = { ...currentPlanStatus(current), [field]: other(recorded) };
    const { reader } = clusterState({ currentRecord: record });
    // approve needs a schema it may approve: waiting for an approval of exactly this record.
    const approvable = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ name: SCHEMA, namespace: NS, uid: SCHEMA_UID, plan: record }) }, ...fakeObjectsOf(current)]);
    for (const [argv, cluster] of [
      [["plan", SCHEMA], reader],
      [["plan", SCHEMA, "--verify"], reader],
      [["approve", SCHEMA], approvable],
    ] as const) {
      const r = await runCliWith([...argv, "-n", NS], cluster);
      expect(r.status).toBe(1);
      if ((argv as readonly string[]).includes("--verify")) {
        // --verify's report goes to stdout (docs/decisions.md): the failed check marked, no SQL.
        expect(r.stdout).toMatch(new RegExp(`^record bindings\\s+FAILED\\s+the stored plan ${current.name} carries ${field} `, "mu"));
        expect(r.stdout).not.toMatch(/CREATE|ALTER|INSERT/u);
      } else {
        expect(r.stdout).toBe("");
      }
      expect(r.stderr).toContain(`the stored plan ${current.name} carries ${field} `);
      expect(r.stderr.trimEnd().split("\n").at(-1)).toMatch(new RegExp(`^error: .* in status\\.plan\\.${field}$`, "u"));
    }
  });

  it.each(APPLIED_FIELDS)("plan --applied refuses a status.applied whose %s is not the plan's", async (field) => {
    const record = { ...appliedStatus(applied), [field]: other((applied.plan.spec as Raw)[field]) };
    const r = await runCliWith(["plan", SCHEMA, "--applied", "-n", NS], clusterState({ appliedRecord: record }).reader);
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toMatch(new RegExp(`^error: the stored plan ${applied.name} carries ${field} .* in status\\.applied\\.${field}\\n$`, "u"));
  });

  it("reads an older record that repeats no binding, and says so under --verify", async () => {
    const older = { name: current.name, uid: (current.plan.metadata as Raw).uid, fingerprint: current.fingerprint, statementCount: 4 };
    const { reader } = clusterState({ currentRecord: older, appliedRecord: appliedStatus(applied, undefined, { copies: false }) });
    expect((await runCliWith(["plan", SCHEMA, "-n", NS], reader)).status).toBe(0);
    expect((await runCliWith(["plan", SCHEMA, "--applied", "-n", NS], reader)).status).toBe(0);
    const report = await runCliWith(["plan", SCHEMA, "--verify", "-n", NS], reader);
    expect(report.stdout).toMatch(/record bindings\s+ok\s+status\.plan repeats 1 of the plan's bindings/u);
  });

  it("treats a left-out privilegeChanges of a record that repeats every other binding as none", () => {
    const record = { ...currentPlanStatus(current) };
    delete record.privilegeChanges;
    expect(recordCopies("current", record as never).values.privilegeChanges).toEqual([]);
    expect(recordCopies("current", { name: "x" } as never).values.privilegeChanges).toBeUndefined();
  });

  it("names what a record pins, for status SCHEMA", async () => {
    expect(pinnedBindings(recordCopies("applied", appliedStatus(applied) as never))).toEqual([
      "artifact",
      "coordination",
      "target identity",
      "execution binding",
      "controller state version",
      "ptah version",
      "images",
      "runner protocol",
    ]);
    const r = await runCliWith(["status", SCHEMA, "-n", NS], clusterState().reader);
    expect(r.stdout).toContain(
      "  Pins:          content, artifact, coordination, target identity, actual state, desired state, policy, verification policy, execution binding, controller state version, ptah version, images, runner protocol, privilege kinds\n",
    );
  });
});
