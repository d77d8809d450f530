// The admission and lease reads parse what the API server serves: the writer entries and
// annotations of ptah-operator-admission (404: not found), the guard's exempt groups from its CEL
// list variable and its bindings' actions, a namespace's Leases; each sends only its one allowed GET.
// A refusal is the API error it stands for, a body that is not JSON the invalid-JSON error.
import { describe, expect, it } from "vitest";
import { celStringList, getAdmissionConfiguration, listApplyGuards, listLeases } from "../../src/kube/admission-reads.ts";
import type { HttpResponse, Transport } from "../../src/kube/http.ts";
import { guardRequest } from "../../src/kube/request-guard.ts";

const SERVER = new URL("https://api.example.com:6443");

function transport(answers: Record<string, unknown>): Transport & { sent: string[] } {
  const sent: string[] = [];
  const get = async (path: string): Promise<HttpResponse> => {
    guardRequest("GET", new URL(path, SERVER), SERVER);
    sent.push(path);
    const key = Object.keys(answers).find((k) => path.startsWith(k));
    const body = key === undefined ? undefined : answers[key];
    return body === undefined ? { status: 404, headers: {}, body: Buffer.from("{}") } : { status: 200, headers: {}, body: Buffer.from(JSON.stringify(body)) };
  };
  return { get, sent } as unknown as Transport & { sent: string[] };
}

const A = "/apis/admissionregistration.k8s.io/v1";

describe("admission reads", () => {
  it("reads the configuration's entries and annotations, and a 404 as not found", async () => {
    const t = transport({
      [`${A}/mutatingwebhookconfigurations/ptah-operator-admission`]: {
        metadata: { annotations: { "operator.ptah.run/coordination-namespace": "ptah-system" } },
        webhooks: [{ name: "mapproval.operator.ptah.run" }, { name: "mschemawriter.operator.ptah.run" }],
      },
    });
    expect(await getAdmissionConfiguration(t)).toEqual({
      found: true,
      name: "ptah-operator-admission",
      webhookNames: ["mapproval.operator.ptah.run", "mschemawriter.operator.ptah.run"],
      annotations: { "operator.ptah.run/coordination-namespace": "ptah-system" },
    });
    expect((await getAdmissionConfiguration(transport({}))).found).toBe(false);
  });

  it("reads the guard's exempt groups and its bindings' actions, by its label only", async () => {
    const t = transport({
      [`${A}/validatingadmissionpolicies?`]: {
        items: [
          {
            metadata: { name: "guard" },
            spec: {
              variables: [
                { name: "other", expression: "['x']" },
                { name: "exemptGroups", expression: `['ptah:apply-admins', "platform"]` },
              ],
            },
          },
        ],
        metadata: {},
      },
      [`${A}/validatingadmissionpolicybindings?`]: {
        items: [
          { metadata: { name: "b1" }, spec: { policyName: "guard", validationActions: ["Deny"] } },
          { metadata: { name: "b2" }, spec: { policyName: "else" } },
        ],
      },
    });
    expect(await listApplyGuards(t)).toEqual([{ name: "guard", exemptGroups: ["ptah:apply-admins", "platform"], bindings: [{ name: "b1", actions: ["Deny"] }] }]);
    expect(t.sent[0]).toBe(`${A}/validatingadmissionpolicies?labelSelector=app.kubernetes.io%2Fcomponent%3Dapply-policy-guard&limit=500`);
    expect(celStringList("size(x) > 0")).toEqual([]);
  });

  it("reads a namespace's Leases", async () => {
    const t = transport({
      "/apis/coordination.k8s.io/v1/namespaces/ptah-system/leases?": {
        items: [{ metadata: { name: "ptah-t-a" }, spec: { holderIdentity: "ptah-h-b", leaseDurationSeconds: 60 } }],
      },
    });
    expect(await listLeases(t, "ptah-system")).toEqual([{ name: "ptah-t-a", holderIdentity: "ptah-h-b", renewTime: undefined, leaseDurationSeconds: 60 }]);
  });

  it("turns a refusal into its API error and a body that is not JSON into the invalid-JSON error", async () => {
    const answering = (status: number, body: string): Transport => ({ get: async () => ({ status, headers: {}, body: Buffer.from(body) }) }) as unknown as Transport;
    const forbidden = JSON.stringify({ kind: "Status", code: 403, message: 'leases is forbidden: User "u" cannot list resource "leases"' });
    await expect(listLeases(answering(403, forbidden), "ptah-system")).rejects.toMatchObject({ httpStatus: 403, message: expect.stringContaining("forbidden") as unknown });
    await expect(getAdmissionConfiguration(answering(200, "{not json"))).rejects.toThrow(/is not valid JSON/u);
  });
});
