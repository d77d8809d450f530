// HttpClusterReader.list over a stub transport: pages of 500 with continue tokens, kind and
// apiVersion restored on items, keepRaw: false (human views) keeping only the parsed objects,
// and nulls dropped for the model but kept in the served form.
import { describe, expect, it } from "vitest";
import type { HttpResponse, RequestOptions, Transport } from "../../src/kube/http.ts";
import { HttpClusterReader } from "../../src/kube/reader.ts";

function approval(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    metadata: { name, namespace: "app", uid: `uid-${name}`, managedFields: [{ manager: "kubectl", operation: "Update" }] },
    spec: { schemaRef: { name: "storefront", uid: "s-1" }, planRef: { name: "p", uid: "p-1" }, planFingerprint: "sha256:1" },
    ...extra,
  };
}

function stubTransport(pages: Record<string, unknown>[]): { transport: Transport; seen: string[] } {
  const seen: string[] = [];
  const transport = {
    get: async (pathAndQuery: string, options?: RequestOptions): Promise<HttpResponse> => {
      seen.push(pathAndQuery);
      const page = pages[seen.length - 1] ?? { items: [] };
      const body = Buffer.from(JSON.stringify(page));
      const sink = options?.sink?.();
      if (!sink) return { status: 200, headers: {}, body };
      // As the real transport streams it: the body in pieces, cut anywhere.
      for (let at = 0; at < body.length; at += 7) sink(body.subarray(at, at + 7));
      return { status: 200, headers: {}, body: Buffer.alloc(0) };
    },
  } as unknown as Transport;
  return { transport, seen };
}

const PAGES = [
  { metadata: { continue: "next-1", resourceVersion: "10" }, items: [approval("a"), approval("b")] },
  { metadata: { resourceVersion: "11" }, items: [approval("c", { status: { observedGeneration: null, conditions: [] } })] },
];

describe("HttpClusterReader.list", () => {
  it("follows continue tokens with limit=500 and keeps the served objects by default", async () => {
    const { transport, seen } = stubTransport(PAGES);
    const r = await new HttpClusterReader(transport).list("PtahSchemaApproval", { namespace: "app" });
    expect(seen).toEqual([
      "/apis/operator.ptah.run/v1alpha1/namespaces/app/ptahschemaapprovals?limit=500",
      "/apis/operator.ptah.run/v1alpha1/namespaces/app/ptahschemaapprovals?limit=500&continue=next-1",
    ]);
    expect(r.resourceVersion).toBe("11");
    expect(r.items.map((i) => i.object.metadata.name)).toEqual(["a", "b", "c"]);
    expect(r.items[0]!.raw).toEqual({ apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchemaApproval", ...approval("a") });
    // The model drops a null; the served form keeps it.
    expect(r.items[2]!.object.status.observedGeneration).toBeUndefined();
    expect((r.items[2]!.raw.status as Record<string, unknown>).observedGeneration).toBeNull();
  });

  it("with keepRaw: false returns the same parsed objects and no served JSON", async () => {
    const kept = await new HttpClusterReader(stubTransport(PAGES).transport).list("PtahSchemaApproval", { namespace: "app" });
    const slim = await new HttpClusterReader(stubTransport(PAGES).transport).list("PtahSchemaApproval", { namespace: "app", keepRaw: false });
    expect(slim.items.map((i) => i.object)).toEqual(kept.items.map((i) => i.object));
    for (const item of slim.items) expect(item.raw).toEqual({});
    expect(slim.resourceVersion).toBe(kept.resourceVersion);
  });

  it("an item that does not fit the model is returned in notShown (with its served position), never a failed list", async () => {
    const odd = approval("odd", { spec: { schemaRef: "storefront" } });
    const pages = [
      { metadata: { continue: "next-1" }, items: [approval("a"), odd] },
      { metadata: {}, items: [approval("c")] },
    ];
    const r = await new HttpClusterReader(stubTransport(pages).transport).list("PtahSchemaApproval", { namespace: "app" });
    expect(r.items.map((i) => i.object.metadata.name)).toEqual(["a", "c"]);
    expect(r.notShown).toEqual([
      {
        raw: { apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchemaApproval", ...odd },
        problem: "ptahschemaapproval app/odd does not fit the PtahSchemaApproval model: spec.schemaRef: invalid input: expected object, received string",
        index: 1,
      },
    ]);
  });

  it("select: items it refuses on the served JSON are not parsed, returned nor not shown; the others are, with their served positions", async () => {
    const other = (name: string) => approval(name, { spec: { schemaRef: { name: "orders" } } });
    const odd = approval("odd", { spec: { schemaRef: { name: "orders" }, planRef: "not an object" } });
    const pages = [
      { metadata: { continue: "next-1" }, items: [other("x"), approval("a"), odd] },
      { metadata: {}, items: [approval("b", { spec: { schemaRef: { name: "storefront" }, planRef: 7 } }), approval("c")] },
    ];
    const select = (raw: Record<string, unknown>) => (raw.spec as { schemaRef?: { name?: string } }).schemaRef?.name === "storefront";
    const r = await new HttpClusterReader(stubTransport(pages).transport).list("PtahSchemaApproval", { namespace: "app", select });
    expect(r.items.map((i) => i.object.metadata.name)).toEqual(["a", "c"]);
    expect(r.notShown.map((x) => [x.index, (x.raw.metadata as { name: string }).name])).toEqual([[3, "b"]]);
  });
});
