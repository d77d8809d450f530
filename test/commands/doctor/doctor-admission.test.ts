// doctor's four-eyes and apply-policy guard rows, read exactly: on/off from ptah-operator-admission's
// writer entries; the guard in force only with a Deny binding, its exempt groups, and whether you are exempt.
import { describe, expect, it } from "vitest";
import { applyGuardCheck, fourEyesCheck } from "../../../src/commands/doctor/doctor-admission.ts";
import { skipped } from "../../../src/commands/doctor/doctor-report.ts";
import type { ApplyGuardPolicy } from "../../../src/kube/types.ts";

const INFERENCE = skipped("Operator", "spec writers", "stamped: 2 of 2 schemas and migrations in app record a last spec writer");
const ALWAYS = ["mapproval.operator.ptah.run", "mmigrationapproval.operator.ptah.run", "mmigrationrunacknowledgment.operator.ptah.run"];
const config = (entries: string[]) => ({ kind: "value" as const, value: { found: true, name: "ptah-operator-admission", webhookNames: entries, annotations: {} } });
const GUARD: ApplyGuardPolicy = {
  name: "ptah-apply-policy-guard",
  exemptGroups: ["ptah:apply-admins", "platform"],
  bindings: [{ name: "ptah-apply-policy-guard", actions: ["Deny"] }],
};
const me = (groups: string[]) => ({ kind: "value" as const, value: { username: "alice", uid: "", groups } });

describe("four-eyes row", () => {
  it("is on with both writer entries, off with none, and says so", () => {
    expect(fourEyesCheck(config([...ALWAYS, "mschemawriter.operator.ptah.run", "mmigrationwriter.operator.ptah.run"]), INFERENCE).summary).toMatch(
      /^on: ptah-operator-admission has mschemawriter/u,
    );
    expect(fourEyesCheck(config(ALWAYS), INFERENCE).summary).toMatch(/^off: ptah-operator-admission lacks/u);
    // One entry alone is not the switch (the operator refuses to start so): off.
    expect(fourEyesCheck(config([...ALWAYS, "mschemawriter.operator.ptah.run"]), INFERENCE).summary).toMatch(/^off:/u);
  });

  it("without permission, is today's inference labelled as one", () => {
    const c = fourEyesCheck({ kind: "forbidden", message: "cannot get" }, INFERENCE);
    expect(c).toMatchObject({ status: "skipped" });
    expect(c.summary).toBe(`not read: may not get mutatingwebhookconfigurations/ptah-operator-admission (cannot get); inferred instead: ${INFERENCE.summary}`);
  });
});

describe("apply-policy guard row", () => {
  it("in force: names the policy, the Deny binding, the exempt groups and whether you are exempt", () => {
    expect(applyGuardCheck({ kind: "value", value: [GUARD] }, me(["platform", "system:authenticated"])).summary).toBe(
      "in force: ptah-apply-policy-guard, binding ptah-apply-policy-guard [Deny]; exempt groups: ptah:apply-admins, platform; you (alice) are exempt, by group platform",
    );
    expect(applyGuardCheck({ kind: "value", value: [GUARD] }, me(["system:authenticated"])).summary).toMatch(
      /you \(alice\) are not exempt: admission refuses your change of spec\.policy\.apply to Always$/u,
    );
  });

  it("a binding that only warns, or none, is not in force; no policy is none", () => {
    const warn = { ...GUARD, bindings: [{ name: "b", actions: ["Warn", "Audit"] }] };
    expect(applyGuardCheck({ kind: "value", value: [warn] }, undefined).summary).toBe(
      "installed, not in force: ptah-apply-policy-guard: not in force (its bindings only Warn, Audit); exempt groups: ptah:apply-admins, platform",
    );
    expect(applyGuardCheck({ kind: "value", value: [{ ...GUARD, bindings: [] }] }, undefined).summary).toMatch(/no binding names it/u);
    expect(applyGuardCheck({ kind: "value", value: [] }, undefined).summary).toMatch(
      /^none: no ValidatingAdmissionPolicy labelled app\.kubernetes\.io\/component=apply-policy-guard/u,
    );
  });

  it("a refused list is a skipped row naming the read", () => {
    expect(applyGuardCheck({ kind: "forbidden", message: "no" }, undefined)).toMatchObject({
      status: "skipped",
      summary: "may not list validatingadmissionpolicies and their bindings (cluster scope): no",
    });
  });
});
