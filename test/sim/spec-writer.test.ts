// The simulator's four-eyes: the spec-writer stamp (from the AdmissionReview's user, overwriting
// forged values, carried over on metadata-only updates) and the distinct-approver refusal behind
// the lab's namespace label, in upstream's words.
import { describe, expect, it } from "vitest";
import type { AdmissionRequest } from "./admission.ts";
import { resourcePath, type Kube, type Obj } from "./kube.ts";
import { DISTINCT_APPROVER_LABEL, WRITER_UID, WRITER_USERNAME, distinctApproverRefusal, stampSpecWriter, stampedAnnotations } from "./spec-writer.ts";

const schema = (spec: unknown, annotations?: Record<string, string>): Obj => ({ metadata: { name: "s", namespace: "ns", ...(annotations ? { annotations } : {}) }, spec }) as Obj;

function review(operation: "CREATE" | "UPDATE", object: Obj, oldObject?: Obj, user = { username: " alice ", uid: "uid-a" }): AdmissionRequest {
  return {
    uid: "r1",
    kind: { group: "operator.ptah.run", version: "v1alpha1", kind: "PtahSchema" },
    resource: { group: "operator.ptah.run", version: "v1alpha1", resource: "ptahschemas" },
    namespace: "ns",
    operation,
    userInfo: user,
    object,
    ...(oldObject ? { oldObject } : {}),
  };
}

const FORGED = { [WRITER_USERNAME]: "mallory", [WRITER_UID]: "uid-m", team: "x" };

describe("spec-writer stamp", () => {
  it.each([
    [
      "a create stamps the request's user (trimmed), over forged values",
      review("CREATE", schema({ a: 1 }, FORGED)),
      { [WRITER_USERNAME]: "alice", [WRITER_UID]: "uid-a", team: "x" },
    ],
    [
      "a spec change stamps again",
      review("UPDATE", schema({ a: 2 }, FORGED), schema({ a: 1 }, { [WRITER_USERNAME]: "bob" })),
      { [WRITER_USERNAME]: "alice", [WRITER_UID]: "uid-a", team: "x" },
    ],
    [
      "a metadata-only update keeps the old writer and drops forged ones",
      review("UPDATE", schema({ a: 1 }, FORGED), schema({ a: 1 }, { [WRITER_USERNAME]: "bob" })),
      { [WRITER_USERNAME]: "bob", team: "x" },
    ],
    ["a metadata-only update of an unstamped object records nobody", review("UPDATE", schema({ a: 1 }, FORGED), schema({ a: 1 })), { team: "x" }],
    ["no UID from the authenticator: none recorded", review("CREATE", schema({ a: 1 }), undefined, { username: "alice", uid: "" }), { [WRITER_USERNAME]: "alice" }],
  ])("%s", (_name, req, want) => {
    expect(stampedAnnotations(req)).toEqual(want);
    const answer = stampSpecWriter(req);
    expect(answer.allowed).toBe(true);
    const patch = JSON.parse(Buffer.from(answer.patch!, "base64").toString("utf8"));
    expect(patch).toEqual([{ op: "add", path: "/metadata/annotations", value: want }]);
  });

  it("sends no patch when nothing changes", () => {
    const old = schema({ a: 1 }, { [WRITER_USERNAME]: "bob" });
    expect(stampSpecWriter(review("UPDATE", schema({ a: 1 }, { [WRITER_USERNAME]: "bob" }), old))).toEqual({ uid: "r1", allowed: true });
  });
});

function kubeWith(label: string | undefined): Kube {
  return {
    async get(path: string) {
      return path === resourcePath("namespaces", undefined, "ns", "") ? { metadata: { name: "ns", labels: label ? { [DISTINCT_APPROVER_LABEL]: label } : {} } } : undefined;
    },
  } as unknown as Kube;
}

describe("distinct-approver refusal (lab setting)", () => {
  const alice = { username: "alice", uid: "" };
  it.each([
    ["off: nothing is refused", undefined, { [WRITER_USERNAME]: "alice" }, alice, undefined],
    ["on: the writer is refused", "true", { [WRITER_USERNAME]: "alice" }, alice, "schema requires a distinct approver, and alice last changed its spec"],
    ["on: another user passes", "true", { [WRITER_USERNAME]: "bob" }, alice, undefined],
    ["on: same name, other UID passes", "true", { [WRITER_USERNAME]: "alice", [WRITER_UID]: "u1" }, alice, undefined],
    ["on: no writer recorded is refused", "true", {}, alice, "schema requires a distinct approver, and no spec writer is recorded for it"],
    ["on: a blank writer counts as none", "true", { [WRITER_USERNAME]: "  " }, alice, "schema requires a distinct approver, and no spec writer is recorded for it"],
  ])("%s", async (_name, label, annotations, approver, want) => {
    expect(await distinctApproverRefusal(kubeWith(label), "ns", "schema", schema({}, annotations), approver)).toBe(want);
  });
});
