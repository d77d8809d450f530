// HttpClusterReader.reviewAccess, the one access-review path (inbox and doctor): one
// SelfSubjectAccessReview create per check through the transport's closed create, naming group,
// resource, verb and namespace (none for "every namespace"); the answer is status.allowed, and a
// refusal of the review itself is an error.
import { describe, expect, it } from "vitest";
import type { CreateRequest, HttpResponse, Transport } from "../../src/kube/http.ts";
import { HttpClusterReader } from "../../src/kube/reader.ts";

function transportAnswering(status: number, answer: unknown): { transport: Transport; seen: CreateRequest[] } {
  const seen: CreateRequest[] = [];
  const transport = {
    create: async (request: CreateRequest): Promise<HttpResponse> => {
      seen.push(request);
      return { status, headers: {}, body: Buffer.from(JSON.stringify(answer)) };
    },
  } as unknown as Transport;
  return { transport, seen };
}

const SCHEMA_APPROVALS = { verb: "create", group: "operator.ptah.run", resource: "ptahschemaapprovals" };

describe("HttpClusterReader.reviewAccess", () => {
  it("asks the authorizer about one verb on one resource in one namespace", async () => {
    const { transport, seen } = transportAnswering(201, { kind: "SelfSubjectAccessReview", status: { allowed: true } });
    const answers = await new HttpClusterReader(transport).reviewAccess([{ ...SCHEMA_APPROVALS, namespace: "app" }]);
    expect(answers.map((a) => a.allowed)).toEqual([true]);
    expect(seen).toEqual([
      {
        kind: "SelfSubjectAccessReview",
        body: {
          apiVersion: "authorization.k8s.io/v1",
          kind: "SelfSubjectAccessReview",
          spec: { resourceAttributes: { group: "operator.ptah.run", resource: "ptahschemaapprovals", verb: "create", namespace: "app" } },
        },
      },
    ]);
  });

  it('names no namespace for "" (every namespace, inbox -A)', async () => {
    const { transport, seen } = transportAnswering(201, { status: { allowed: true } });
    await new HttpClusterReader(transport).reviewAccess([{ ...SCHEMA_APPROVALS, namespace: "" }]);
    expect((seen[0]!.body as { spec: unknown }).spec).toEqual({ resourceAttributes: { group: "operator.ptah.run", resource: "ptahschemaapprovals", verb: "create" } });
  });

  it("is false unless the answer says allowed: true", async () => {
    for (const answer of [{ status: { allowed: false, reason: "no" } }, { status: {} }, {}, { status: { allowed: "true" } }]) {
      const { transport } = transportAnswering(201, answer);
      const [a] = await new HttpClusterReader(transport).reviewAccess([{ ...SCHEMA_APPROVALS, resource: "ptahmigrationapprovals", namespace: "ops" }]);
      expect(a!.allowed).toBe(false);
    }
  });

  it("reports a refused review as one error", async () => {
    const { transport } = transportAnswering(403, {
      kind: "Status",
      message: 'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "x" cannot create resource "selfsubjectaccessreviews"',
    });
    await expect(new HttpClusterReader(transport).reviewAccess([{ ...SCHEMA_APPROVALS, namespace: "app" }])).rejects.toThrow(/cannot create resource "selfsubjectaccessreviews"/u);
  });
});
