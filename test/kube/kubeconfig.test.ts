// kubectl's kubeconfig rules (as kubectl applies them): --kubeconfig loads one file;
// KUBECONFIG is a deduplicated path list merged so that the first file to set a name (or
// current-context) wins, missing files are skipped and duplicate names never fail; relative
// paths are resolved against the file that holds them; namespace is -n, else the context's,
// else default.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadError } from "../../src/errors.ts";
import { loadKubeconfig } from "../../src/kube/connect.ts";
import { kubeconfigPaths, mergeKubeconfigs, resolveContext, resolveNamespace, type KubeconfigDoc, type SourceFile } from "../../src/kube/kubeconfig.ts";

const cluster = (name: string, server: string, extra: Record<string, unknown> = {}) => ({ name, cluster: { server, ...extra } });
const user = (name: string, body: Record<string, unknown>) => ({ name, user: body });
const context = (name: string, c: string, u: string, namespace?: string) => ({ name, context: { cluster: c, user: u, ...(namespace ? { namespace } : {}) } });
const file = (p: string, content: unknown): SourceFile => ({ path: p, content });

describe("kubeconfigPaths", () => {
  it.each([
    { name: "--kubeconfig loads exactly that file, even with KUBECONFIG set", explicit: "/x/one", env: "/a:/b", home: "/var/empty/u", out: ["/x/one"] },
    { name: "KUBECONFIG is split on the path delimiter, in order", explicit: undefined, env: "/a:/b:/c", home: "/var/empty/u", out: ["/a", "/b", "/c"] },
    { name: "a repeated KUBECONFIG entry is read once, at its first place", explicit: undefined, env: "/a:/b:/a:/b", home: "/var/empty/u", out: ["/a", "/b"] },
    { name: "empty KUBECONFIG entries are skipped", explicit: undefined, env: ":/a::/b:", home: "/var/empty/u", out: ["/a", "/b"] },
    { name: "an empty KUBECONFIG falls back to ~/.kube/config", explicit: undefined, env: "", home: "/var/empty/u", out: ["/var/empty/u/.kube/config"] },
    { name: "no KUBECONFIG falls back to ~/.kube/config", explicit: undefined, env: undefined, home: "/var/empty/u", out: ["/var/empty/u/.kube/config"] },
    { name: "no KUBECONFIG and no home reads nothing", explicit: undefined, env: undefined, home: undefined, out: [] },
    { name: "an empty --kubeconfig is ignored", explicit: "", env: "/a", home: "/var/empty/u", out: ["/a"] },
  ])("$name", ({ explicit, env, home, out }) => {
    expect(kubeconfigPaths(explicit, env, home, ":")).toEqual(out);
  });

  it("splits on ';' where that is the platform's delimiter", () => {
    expect(kubeconfigPaths(undefined, "C:\\a;C:\\b", undefined, ";")).toEqual(["C:\\a", "C:\\b"]);
  });
});

describe("mergeKubeconfigs", () => {
  const first = {
    clusters: [cluster("prod", "https://first")],
    users: [user("alice", { token: "first" })],
    contexts: [context("prod", "prod", "alice", "shop")],
    "current-context": "prod",
  };
  const second = {
    clusters: [cluster("prod", "https://second"), cluster("dev", "https://dev")],
    users: [user("alice", { token: "second" }), user("bob", { token: "bob" })],
    contexts: [context("prod", "dev", "bob"), context("dev", "dev", "bob", "dev")],
    "current-context": "dev",
  };

  it.each<{ name: string; files: SourceFile[]; expected: Partial<KubeconfigDoc> | undefined }>([
    {
      name: "the first file to set a cluster, user or context name wins, as a whole entry",
      files: [file("/k/1", first), file("/k/2", second)],
      expected: {
        clusters: [cluster("prod", "https://first"), cluster("dev", "https://dev")],
        users: [user("alice", { token: "first" }), user("bob", { token: "bob" })],
        contexts: [context("prod", "prod", "alice", "shop"), context("dev", "dev", "bob", "dev")],
        "current-context": "prod",
      },
    },
    {
      name: "current-context comes from the first file that sets it, even a later one",
      files: [file("/k/1", { clusters: [cluster("a", "https://a")] }), file("/k/2", { "current-context": "x" }), file("/k/3", { "current-context": "y" })],
      expected: { clusters: [cluster("a", "https://a")], users: [], contexts: [], "current-context": "x" },
    },
    {
      name: "an empty current-context does not count as set",
      files: [file("/k/1", { "current-context": "" }), file("/k/2", { "current-context": "y" })],
      expected: { "current-context": "y" },
    },
    {
      name: "missing files are skipped",
      files: [file("/k/missing", undefined), file("/k/1", first), file("/k/also-missing", undefined)],
      expected: { clusters: first.clusters, users: first.users, contexts: first.contexts, "current-context": "prod" },
    },
    {
      name: "duplicate names within one file do not crash: the first is kept",
      files: [file("/k/1", { clusters: [cluster("a", "https://one"), cluster("a", "https://two")] })],
      expected: { clusters: [cluster("a", "https://one")] },
    },
    {
      name: "entries without a name and non-list sections are ignored",
      files: [file("/k/1", { clusters: [{ cluster: { server: "https://nameless" } }, null, 7, cluster("a", "https://a")], users: "nope", contexts: { a: 1 } })],
      expected: { clusters: [cluster("a", "https://a")], users: [], contexts: [] },
    },
    {
      name: "preferences come from the first file that has them",
      files: [file("/k/1", {}), file("/k/2", { preferences: { colors: true } }), file("/k/3", { preferences: { colors: false } })],
      expected: { preferences: { colors: true } },
    },
    {
      name: "an empty file counts as present but sets nothing",
      files: [file("/k/1", {})],
      expected: { clusters: [], users: [], contexts: [] },
    },
    { name: "no files at all merge to nothing", files: [], expected: undefined },
    { name: "only missing files merge to nothing", files: [file("/k/1", undefined), file("/k/2", undefined)], expected: undefined },
    { name: "a file that is not a mapping is skipped", files: [file("/k/1", "just a string"), file("/k/2", 42)], expected: undefined },
  ])("$name", ({ files, expected }) => {
    const merged = mergeKubeconfigs(files);
    if (expected === undefined) expect(merged).toBeUndefined();
    else expect(merged).toMatchObject(expected);
  });

  it.each([
    {
      name: "certificate-authority is resolved against its own file's folder",
      files: [
        file("/k/one/config", { clusters: [cluster("a", "https://a", { "certificate-authority": "ca.crt" })] }),
        file("/k/two/config", { clusters: [cluster("b", "https://b", { "certificate-authority": "certs/ca.crt" })] }),
      ],
      check: (d: KubeconfigDoc) => expect(d.clusters.map((c) => (c.cluster as Record<string, unknown>)["certificate-authority"])).toEqual(["/k/one/ca.crt", "/k/two/certs/ca.crt"]),
    },
    {
      name: "client-certificate, client-key and tokenFile are resolved; absolute paths are kept",
      files: [file("/k/one/config", { users: [user("u", { "client-certificate": "u.crt", "client-key": "/abs/u.key", tokenFile: "../tok" })] })],
      check: (d: KubeconfigDoc) => expect(d.users[0]!.user).toEqual({ "client-certificate": "/k/one/u.crt", "client-key": "/abs/u.key", tokenFile: "/k/tok" }),
    },
    {
      name: "an exec command that names a path is resolved; a bare command is looked up on PATH",
      files: [file("/k/one/config", { users: [user("a", { exec: { command: "./bin/creds" } }), user("b", { exec: { command: "aws" } })] })],
      check: (d: KubeconfigDoc) => expect(d.users.map((u) => ((u.user as Record<string, unknown>).exec as Record<string, unknown>).command)).toEqual(["/k/one/bin/creds", "aws"]),
    },
    {
      name: "data fields and the server URL are never treated as paths",
      files: [file("/k/one/config", { clusters: [cluster("a", "https://a", { "certificate-authority-data": "Y2E=" })] })],
      check: (d: KubeconfigDoc) => expect(d.clusters[0]!.cluster).toEqual({ server: "https://a", "certificate-authority-data": "Y2E=" }),
    },
  ])("$name", ({ files, check }) => {
    check(mergeKubeconfigs(files)!);
  });

  it("does not change the parsed files it merges", () => {
    const content = { clusters: [cluster("a", "https://a", { "certificate-authority": "ca.crt" })] };
    const before = structuredClone(content);
    mergeKubeconfigs([file("/k/config", content)]);
    expect(content).toEqual(before);
  });
});

describe("resolveContext", () => {
  const doc: KubeconfigDoc = {
    clusters: [cluster("prod", "https://prod"), cluster("dev", "https://dev")],
    users: [user("alice", { token: "t" })],
    contexts: [context("prod", "prod", "alice", "shop"), context("dev", "dev", "nobody"), context("broken", "gone", "alice"), context("blank-ns", "dev", "alice", "")],
    "current-context": "prod",
  };

  it.each([
    { name: "uses current-context", override: undefined, out: { contextName: "prod", namespace: "shop", cluster: "prod", user: "alice" } },
    { name: "--context overrides current-context", override: "dev", out: { contextName: "dev", namespace: undefined, cluster: "dev", user: undefined } },
    { name: "an empty context namespace counts as none", override: "blank-ns", out: { contextName: "blank-ns", namespace: undefined, cluster: "dev", user: "alice" } },
  ])("$name", ({ override, out }) => {
    const r = resolveContext(doc, override);
    expect({ contextName: r.contextName, namespace: r.namespace, cluster: r.cluster.name, user: r.user?.name }).toEqual(out);
  });

  it.each([
    { name: "a context that does not exist", d: doc, override: "staging", message: 'context "staging" does not exist in the kubeconfig' },
    { name: "a context whose cluster does not exist", d: doc, override: "broken", message: 'cluster "gone" of context "broken" does not exist in the kubeconfig' },
    { name: "no current-context and no --context", d: { ...doc, "current-context": undefined }, override: undefined, message: "current-context is not set in the kubeconfig" },
  ])("refuses $name", ({ d, override, message }) => {
    expect(() => resolveContext(d, override)).toThrow(message);
  });
});

describe("resolveNamespace", () => {
  it.each([
    { name: "-n wins over the context's namespace", flag: "ops", ctx: "shop", out: "ops" },
    { name: "the context's namespace is used without -n", flag: undefined, ctx: "shop", out: "shop" },
    { name: "default is used when neither is set", flag: undefined, ctx: undefined, out: "default" },
    { name: "-n wins when the context has none", flag: "ops", ctx: undefined, out: "ops" },
  ])("$name", ({ flag, ctx, out }) => {
    expect(resolveNamespace(flag, ctx)).toBe(out);
  });
});

describe("loadKubeconfig over real files", () => {
  let dir: string;
  const write = (rel: string, content: unknown): string => {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, typeof content === "string" ? content : JSON.stringify(content));
    return p;
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-kubeconfig-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("merges a KUBECONFIG list, skipping a missing file and resolving paths per file", () => {
    const a = write("a/config", "clusters:\n- name: prod\n  cluster:\n    server: https://a\n    certificate-authority: ca.crt\ncurrent-context: prod\n");
    const b = write("b/config", { clusters: [cluster("prod", "https://b"), cluster("dev", "https://dev", { "certificate-authority": "ca.crt" })], "current-context": "dev" });
    const doc = loadKubeconfig({ kubeconfig: undefined }, { KUBECONFIG: [path.join(dir, "missing"), a, b].join(path.delimiter), HOME: dir });
    expect(doc["current-context"]).toBe("prod");
    expect(doc.clusters.map((c) => [c.name, (c.cluster as Record<string, string>).server, (c.cluster as Record<string, string>)["certificate-authority"]])).toEqual([
      ["prod", "https://a", path.join(dir, "a/ca.crt")],
      ["dev", "https://dev", path.join(dir, "b/ca.crt")],
    ]);
  });

  it("--kubeconfig loads that one file and ignores KUBECONFIG", () => {
    const one = write("one/config", { clusters: [cluster("only", "https://only")] });
    const other = write("other/config", { clusters: [cluster("x", "https://x")], "current-context": "x" });
    const doc = loadKubeconfig({ kubeconfig: one }, { KUBECONFIG: other, HOME: dir });
    expect(doc.clusters.map((c) => c.name)).toEqual(["only"]);
    expect(doc["current-context"]).toBeUndefined();
  });

  it("--kubeconfig naming a missing file is an error, not a fallback", () => {
    expect(() => loadKubeconfig({ kubeconfig: path.join(dir, "nope") }, { HOME: dir })).toThrow(ReadError);
  });

  it("falls back to ~/.kube/config without KUBECONFIG", () => {
    write("home/.kube/config", { clusters: [cluster("home", "https://home")] });
    expect(loadKubeconfig({ kubeconfig: undefined }, { HOME: path.join(dir, "home") }).clusters[0]!.name).toBe("home");
  });

  it("an invalid YAML file is a one-line error naming it", () => {
    const bad = write("bad/config", "clusters: [\n  - {name: x\n");
    expect(() => loadKubeconfig({ kubeconfig: bad }, { HOME: dir })).toThrow(
      new RegExp(`^error loading config file "${bad.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")}": [^\\n]+$`, "u"),
    );
  });

  it("no kubeconfig anywhere is an error that never guesses localhost:8080", () => {
    const empty = fs.mkdtempSync(path.join(dir, "empty-"));
    expect(() => loadKubeconfig({ kubeconfig: undefined }, { HOME: empty })).toThrow(/^no kubeconfig found: .*never guesses a server such as localhost:8080\)$/u);
    expect(() => loadKubeconfig({ kubeconfig: undefined }, { HOME: empty, KUBECONFIG: path.join(empty, "missing") })).toThrow(ReadError);
  });
});
