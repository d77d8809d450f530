// describeOrigin: where kubectl took the context, cluster, user and namespace from, by the
// merge rule (the first file to define a name, or current-context, wins).
import { describe, expect, it } from "vitest";
import { describeOrigin, mergeKubeconfigs, resolveContext, type SourceFile } from "../../src/kube/kubeconfig.ts";

const A: SourceFile = {
  path: "/k/a.yaml",
  content: { "current-context": "dev", contexts: [{ name: "dev", context: { cluster: "c1", user: "u1" } }], users: [{ name: "u1", user: { token: "t" } }] },
};
const B: SourceFile = {
  path: "/k/b.yaml",
  content: {
    "current-context": "prod",
    contexts: [
      { name: "prod", context: { cluster: "c2", user: "u2", namespace: "shop" } },
      { name: "dev", context: { cluster: "c2" } },
    ],
    clusters: [
      { name: "c1", cluster: { server: "https://one:6443" } },
      { name: "c2", cluster: { server: "https://two:6443" } },
    ],
    users: [
      { name: "u1", user: {} },
      { name: "u2", user: {} },
    ],
  },
};

function origin(files: SourceFile[], flags: { context?: string; namespace?: string }) {
  const ctx = resolveContext(mergeKubeconfigs(files)!, flags.context);
  return describeOrigin(files, ctx, { context: flags.context, namespace: flags.namespace });
}

describe("describeOrigin", () => {
  it("names the first file for current-context and for each entry", () => {
    expect(origin([A, B], {})).toEqual({
      context: { name: "dev", from: "current-context in /k/a.yaml" },
      cluster: { name: "c1", server: "https://one:6443", from: "/k/b.yaml" },
      user: { name: "u1", from: "/k/a.yaml" },
      namespace: { name: "default", from: "the default (the context sets none)" },
    });
  });

  it("says --context and -n when they chose, and the context's namespace otherwise", () => {
    const o = origin([A, B], { context: "prod" });
    expect(o.context).toEqual({ name: "prod", from: "--context (defined in /k/b.yaml)" });
    expect(o.namespace).toEqual({ name: "shop", from: 'context "prod"' });
    expect(origin([A, B], { context: "prod", namespace: "x" }).namespace).toEqual({ name: "x", from: "-n/--namespace" });
  });

  it("names the service account for in-cluster configuration", () => {
    const ctx = resolveContext(mergeKubeconfigs([B])!, undefined);
    expect(describeOrigin("in-cluster", ctx, { context: undefined, namespace: undefined }).cluster.from).toBe("the in-cluster service account");
  });
});
