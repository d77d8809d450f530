// kubectl's connection flags over the REAL connection code (kubeconfig files, overrides, TLS,
// transport) against local servers: impersonation from flags and from the kubeconfig, --token,
// --server, --user, --insecure-skip-tls-verify, an http:// server, kubectl's refusals, -v=N logs.
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awaitingSchema } from "../support/builders.ts";
import { list, runRealCli, sendJson, useFaultServer, writeKubeconfig } from "../support/fault-server.ts";

const f = useFaultServer("ptah-conn-flags-", { beforeAll, afterAll });
let plain: http.Server;
let plainUrl: string;
const seen: http.IncomingHttpHeaders[] = [];
const distinct: NodeJS.Dict<string[]>[] = [];

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  seen.push(req.headers);
  distinct.push(req.headersDistinct);
  sendJson(res, 200, (req.url ?? "").includes("ptahschemas") ? list([awaitingSchema()]) : list([]));
}

beforeAll(async () => {
  f.server.handler = answer;
  plain = http.createServer(answer);
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => plain.close(() => resolve()));
});

function fresh(): void {
  seen.length = 0;
  distinct.length = 0;
  f.server.reset();
}

async function run(argv: string[], kubeconfig: string) {
  fresh();
  return runRealCli(argv, { kubeconfig, home: f.home });
}

describe("connection flags", () => {
  it("--as, --as-group (repeated) and --as-uid become Impersonate-* headers on every request", async () => {
    const kc = writeKubeconfig(f.dir, "as.yaml", { server: f.server.url, caFile: f.pki.caFile });
    const r = await run(["status", "--as=alice", "--as-group", "devs", "--as-group=ops", "--as-uid", "42"], kc);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    expect(seen.length).toBeGreaterThan(0);
    for (const [i, h] of seen.entries()) {
      expect(h["impersonate-user"]).toBe("alice");
      expect(h["impersonate-uid"]).toBe("42");
      expect(distinct[i]!["impersonate-group"]).toEqual(["devs", "ops"]);
      expect(h.authorization).toBe("Bearer fault-token");
    }
  });

  it("the kubeconfig's as, as-groups, as-uid and as-user-extra are honoured; flags win", async () => {
    const user = { token: "t", as: "file-user", "as-groups": ["g1"], "as-uid": "7", "as-user-extra": { "acme.com/team": ["a"] } };
    const kc = writeKubeconfig(f.dir, "as-file.yaml", { server: f.server.url, caFile: f.pki.caFile, user });
    expect((await run(["status"], kc)).status).toBe(0);
    expect(seen[0]).toMatchObject({ "impersonate-user": "file-user", "impersonate-group": "g1", "impersonate-uid": "7", "impersonate-extra-acme.com%2fteam": "a" });
    expect((await run(["status", "--as=bob"], kc)).status).toBe(0);
    expect(seen[0]).toMatchObject({ "impersonate-user": "bob", "impersonate-group": "g1" });
  });

  it("--as-group without a user to impersonate is kubectl's refusal", async () => {
    const kc = writeKubeconfig(f.dir, "as-group.yaml", { server: f.server.url, caFile: f.pki.caFile });
    const r = await run(["status", "--as-group=devs"], kc);
    expect(r).toMatchObject({ status: 1, stdout: "", stderr: "error: requesting uid, groups or user-extra for tester without impersonating a user\n" });
    expect(seen).toEqual([]);
  });

  it("--token replaces the kubeconfig's credentials; --server its server; --user picks another user", async () => {
    const kc = writeKubeconfig(f.dir, "override.yaml", { server: "https://127.0.0.1:1", caFile: f.pki.caFile });
    const doc = JSON.parse(fs.readFileSync(kc, "utf8")) as { users: unknown[] };
    doc.users.push({ name: "other", user: { token: "other-token" } });
    fs.writeFileSync(kc, JSON.stringify(doc));
    expect((await run(["status", `--server=${f.server.url}`, "--token=flag-token"], kc)).status).toBe(0);
    expect(seen[0]!.authorization).toBe("Bearer flag-token");
    expect((await run(["status", "-s", f.server.url, "--user=other"], kc)).status).toBe(0);
    expect(seen[0]!.authorization).toBe("Bearer other-token");
    const missing = await run(["status", "-s", f.server.url, "--user=nobody"], kc);
    expect(missing).toMatchObject({ status: 1, stdout: "", stderr: 'error: auth info "nobody" does not exist\n' });
    const noCluster = await run(["status", "--cluster=nowhere"], kc);
    expect(noCluster).toMatchObject({ status: 1, stdout: "", stderr: 'error: no server found for cluster "nowhere"\n' });
  });

  it("insecure-skip-tls-verify with a CA in the kubeconfig is refused with kubectl's message; the flag replaces the file's CA", async () => {
    const kc = writeKubeconfig(f.dir, "insecure.yaml", { server: f.server.url, caFile: f.pki.caFile });
    const doc = JSON.parse(fs.readFileSync(kc, "utf8")) as { clusters: { cluster: Record<string, unknown> }[] };
    doc.clusters[0]!.cluster["insecure-skip-tls-verify"] = true;
    fs.writeFileSync(kc, JSON.stringify(doc));
    const r = await run(["status"], kc);
    expect(r).toMatchObject({ status: 1, stdout: "", stderr: "error: specifying a root certificates file with the insecure flag is not allowed\n" });
    const other = writeKubeconfig(f.dir, "other-ca.yaml", { server: f.server.url, caFile: f.pki.otherCaFile });
    expect((await run(["status"], other)).status).toBe(1);
    expect((await run(["status", "--insecure-skip-tls-verify"], other)).status).toBe(0);
    expect((await run(["status", `--certificate-authority=${f.pki.caFile}`], other)).status).toBe(0);
  });

  it("--server alone (no kubeconfig at all) is enough, with --certificate-authority and --token", async () => {
    fresh();
    const r = await runRealCli(["status", "-o", "name", `--server=${f.server.url}`, `--certificate-authority=${f.pki.caFile}`, "--token=lone", "-n", "app"], { home: f.home });
    expect(r).toMatchObject({ status: 0, stderr: "", stdout: "ptahschema.operator.ptah.run/storefront\n" });
    expect(seen[0]!.authorization).toBe("Bearer lone");
  });

  it("an http:// server works, without credentials (kubectl sends them only over TLS), with impersonation", async () => {
    const kc = writeKubeconfig(f.dir, "http.yaml", { server: plainUrl });
    const r = await run(["status", "--as=alice", "-o", "name"], kc);
    expect(r).toMatchObject({ status: 0, stderr: "", stdout: "ptahschema.operator.ptah.run/storefront\n" });
    expect(seen[0]!.authorization).toBeUndefined();
    expect(seen[0]!["impersonate-user"]).toBe("alice");
  });
});

describe("server warnings", () => {
  it("are printed once each as kubectl prints them; --warnings-as-errors makes them fail the command", async () => {
    const kc = writeKubeconfig(f.dir, "warn.yaml", { server: f.server.url, caFile: f.pki.caFile });
    fresh();
    f.server.handler = (req, res) => {
      res.setHeader("warning", '299 - "operator.ptah.run/v1alpha1 is deprecated"');
      answer(req, res);
    };
    try {
      const r = await runRealCli(["status"], { kubeconfig: kc, home: f.home });
      expect(r.status).toBe(0);
      expect(r.logged).toEqual(["Warning: operator.ptah.run/v1alpha1 is deprecated"]);
      const strict = await runRealCli(["status", "--warnings-as-errors"], { kubeconfig: kc, home: f.home });
      expect(strict).toMatchObject({
        status: 1,
        stdout: "",
        stderr: "error: the server sent a warning and --warnings-as-errors is set: operator.ptah.run/v1alpha1 is deprecated\n",
      });
    } finally {
      f.server.handler = answer;
    }
  });
});

describe("-v=N", () => {
  it.each([0, 5])("-v=%i logs nothing", async (level) => {
    const kc = writeKubeconfig(f.dir, "v0.yaml", { server: f.server.url, caFile: f.pki.caFile });
    const r = await run(["status", `-v=${level}`], kc);
    expect(r.status).toBe(0);
    expect(r.logged).toEqual([]);
  });

  it("-v=6 logs one line per request: verb, URL, status, milliseconds; stdout is the same", async () => {
    const kc = writeKubeconfig(f.dir, "v6.yaml", { server: f.server.url, caFile: f.pki.caFile });
    const quiet = await run(["status"], kc);
    const r = await run(["status", "-v=6"], kc);
    expect(r.stdout).toBe(quiet.stdout);
    expect(r.logged.length).toBe(f.server.requests.length);
    for (const line of r.logged) {
      expect(line).toMatch(
        /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ round_trippers\.go\] "Response" verb="GET" url="https:\/\/127\.0\.0\.1:\d+\/apis\/operator\.ptah\.run\/v1alpha1\/namespaces\/app\/\w+\?limit=500" status="200 OK" milliseconds=\d+$/u,
      );
    }
  });

  it("-v=6 logs a request that got no answer with an empty status, as kubectl does", async () => {
    const r = await runRealCli(["status", "--server=https://127.0.0.1:1", "--insecure-skip-tls-verify", "-v=6"], { home: f.home });
    expect(r.status).toBe(1);
    expect(r.logged.length).toBeGreaterThan(0);
    for (const line of r.logged) expect(line).toMatch(/"Response" verb="GET" url="https:\/\/127\.0\.0\.1:1\/[^"]+" status="" milliseconds=\d+$/u);
  });

  it("-v=7 adds request headers with the token masked; -v=8 response headers and a cut body; -v=9 the whole body", async () => {
    const kc = writeKubeconfig(f.dir, "v7.yaml", { server: f.server.url, caFile: f.pki.caFile, user: { token: "s3cret-token" } });
    const seven = await run(["status", "--v", "7"], kc);
    expect(seven.logged.join("\n")).toContain("\tAuthorization: Bearer <masked>");
    expect(seven.logged.join("\n")).toContain("\tUser-Agent: kubectl-ptah/v0.0.0-test");
    expect(seven.logged.some((l) => l.includes('"Response" status="200 OK" milliseconds='))).toBe(true);
    expect(seven.logged.join("\n")).not.toContain("Response Body");
    const eight = await run(["status", "-v8"], kc);
    expect(eight.logged.join("\n")).toContain("\tContent-Type: application/json");
    const bodies = eight.logged.filter((l) => l.includes('"Response Body"'));
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.some((l) => /\[truncated \d+ chars\]"$/u.test(l))).toBe(true);
    const nine = await run(["status", "-v=9"], kc);
    expect(nine.logged.filter((l) => l.includes('"Response Body"')).every((l) => !l.includes("[truncated"))).toBe(true);
    for (const r of [seven, eight, nine]) expect(r.logged.join("\n")).not.toContain("s3cret-token");
  });

  it("basic auth is masked too", async () => {
    const kc = writeKubeconfig(f.dir, "basic.yaml", { server: f.server.url, caFile: f.pki.caFile, user: { username: "u", password: "hunter2" } });
    const r = await run(["status", "-v=9"], kc);
    expect(r.logged.join("\n")).toContain("\tAuthorization: Basic <masked>");
    expect(r.logged.join("\n")).not.toContain(Buffer.from("u:hunter2").toString("base64"));
  });
});
