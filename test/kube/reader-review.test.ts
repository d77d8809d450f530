// HttpClusterReader.reviewAccess: one SelfSubjectAccessReview POST naming group, resource, verb and
// namespace; the answer is status.allowed, and a refusal of the review itself is an error.
import { describe, expect, it } from "vitest";
import type { HttpResponse, RequestOptions, Transport } from "../../src/kube/http.ts";
import { HttpClusterReader } from "../../src/kube/reader.ts";

function transportAnswering(status: number, answer: unknown): { transport: Transport; seen: { path: string; options: RequestOptions | undefined }[] } {
  const seen: { path: string; options: RequestOptions | undefined }[] = [];
  const transport = {
    request: async (path: string, options?: RequestOptions): Promise<HttpResponse> => {
      seen.push({ path, options });
      return { status, headers: {}, body: Buffer.from(JSON.stringify(answer)) };
    },
  } as unknown as Transport;
  return { transport, seen };
}

describe("HttpClusterReader.reviewAccess", () => {
  it("asks the authorizer about one verb on one kind in one namespace", async () => {
    const { transport, seen } = transportAnswering(201, { kind: "SelfSubjectAccessReview", status: { allowed: true } });
    expect(await new HttpClusterReader(transport).reviewAccess("PtahSchemaApproval", "app", "create")).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
    expect(seen[0]!.options?.method).toBe("POST");
    expect(JSON.parse(seen[0]!.options!.body!.toString("utf8"))).toEqual({
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { group: "operator.ptah.run", resource: "ptahschemaapprovals", verb: "create", namespace: "app" } },
    });
  });

  it("is false unless the answer says allowed: true", async () => {
    for (const answer of [{ status: { allowed: false, reason: "no" } }, { status: {} }, {}, { status: { allowed: "true" } }]) {
      const { transport } = transportAnswering(201, answer);
      expect(await new HttpClusterReader(transport).reviewAccess("PtahMigrationApproval", "ops", "create")).toBe(false);
    }
  });

  it("reports a refused review as one error", async () => {
    const { transport } = transportAnswering(403, { kind: "Status", message: 'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "x" cannot create resource "selfsubjectaccessreviews"' });
    await expect(new HttpClusterReader(transport).reviewAccess("PtahSchemaApproval", "app", "create")).rejects.toThrow(/cannot create resource "selfsubjectaccessreviews"/u);
  });
});
