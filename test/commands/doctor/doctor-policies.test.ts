// doctor's approval-policy row, as a table: none, in force, a policy without a binding, a binding
// whose policy is gone, a binding that only warns, and the reads it could not make.
import { describe, expect, it } from "vitest";
import { approvalPolicyCheck } from "../../../src/commands/doctor/doctor-policies.ts";
import type { PolicySet } from "../../../src/approval/policy-set.ts";

const policy = (name: string, part: string) => ({ name, part, spec: {} });
const binding = (name: string, policyName: string, actions: string[], labelled = true) => ({ name, policyName, labelled, spec: { policyName, validationActions: actions } });
const check = (set: PolicySet) => approvalPolicyCheck({ kind: "value", value: set });

describe("doctor: approval policies", () => {
  it.each([
    ["none bound", { policies: [], bindings: [] }, "ok", /^none: no ValidatingAdmissionPolicy labelled ptah\.run\/approval-policy/u],
    [
      "every policy bound with Deny",
      {
        policies: [policy("ptah-quorum", "quorum"), policy("ptah-window", "window")],
        bindings: [binding("ptah-quorum", "ptah-quorum", ["Deny"]), binding("ptah-window", "ptah-window", ["Deny"])],
      },
      "ok",
      /^2 of 2 in force$/u,
    ],
    [
      "a policy no binding names",
      { policies: [policy("ptah-quorum", "quorum"), policy("ptah-window", "window")], bindings: [binding("ptah-quorum", "ptah-quorum", ["Deny"])] },
      "warning",
      /^1 of 2 in force; policy ptah-window has no binding: it enforces nothing$/u,
    ],
    [
      "a binding whose policy is gone",
      { policies: [], bindings: [binding("ptah-freeze", "ptah-freeze", ["Deny"])] },
      "warning",
      /^0 of 0 in force; binding ptah-freeze names a policy that is gone: what it bound is not enforced$/u,
    ],
    [
      "a binding that only warns",
      { policies: [policy("ptah-window", "window")], bindings: [binding("ptah-window", "ptah-window", ["Warn"])] },
      "warning",
      /^0 of 1 in force; binding ptah-window does not Deny: it refuses nothing$/u,
    ],
  ] as const)("%s", (_, set, status, summary) => {
    const c = check(set as PolicySet);
    expect(c.status).toBe(status);
    expect(c.summary).toMatch(summary);
  });

  it("lists each policy with the bindings that name it and their actions", () => {
    const c = check({
      policies: [policy("ptah-quorum", "quorum")],
      bindings: [binding("ptah-quorum", "ptah-quorum", ["Deny"]), binding("extra", "ptah-quorum", ["Warn", "Audit"], false)],
    });
    expect(c.details).toEqual(["ptah-quorum (quorum): bound by ptah-quorum [Deny], extra [Warn, Audit]"]);
  });

  it("names the read it could not make", () => {
    expect(approvalPolicyCheck({ kind: "forbidden", message: "nope" })).toMatchObject({
      status: "skipped",
      summary: "may not list validatingadmissionpolicies and their bindings (cluster scope): nope",
    });
    expect(approvalPolicyCheck({ kind: "error", message: "boom" })).toMatchObject({ status: "skipped", summary: "not read: boom" });
  });
});
