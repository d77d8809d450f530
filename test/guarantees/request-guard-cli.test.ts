// The run-time guard (kube/request-guard.ts) lets through everything the commands send: every
// permission form with a command line runs through the real CLI and the real connection code
// (kubeconfig, TLS, transport, guard) against the fault server serving the cluster where each form
// succeeds (test/support/permission-world.ts); each form still ends as it does against the fake
// reader (test/commands/shared/permissions.test.ts), no run prints a refusal, every request the server
// recorded passes the guard, and together they cover each shape of request the guard allows.
import type http from "node:http";
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { KINDS } from "../../src/model/parse.ts";
import { guardRequest, REVIEW_PATHS } from "../../src/kube/request-guard.ts";
import { LAST_SPEC_WRITER_USERNAME } from "../../src/model/spec-writer.ts";
import { OFFLINE } from "../../src/commands/shared/permissions.ts";
import { matchesFields, matchesLabels, type FakeObject } from "../support/fake-reader.ts";
import { emptyList, list, runRealCli, sendJson, statusBody, useFaultServer, writeKubeconfig, type SeenRequest } from "../support/fault-server.ts";
import { world } from "../support/permission-world.ts";

const f = useFaultServer("ptah-guard-cli-", { beforeAll, afterAll });

const byPlural = new Map(Object.entries(KINDS).map(([name, info]) => [`${info.group ? `/apis/${info.group}` : "/api"}/${info.version}/${info.plural}`, name]));

/** The world with its schemas and migrations last written by bob: commands then ask who the caller is (SelfSubjectReview). */
function writtenByBob(objects: readonly FakeObject[]): FakeObject[] {
  return objects.map((o) => {
    if (o.kind !== "PtahSchema" && o.kind !== "PtahMigration") return o;
    const metadata = (o.raw.metadata ?? {}) as Record<string, unknown>;
    const annotations = { ...((metadata.annotations ?? {}) as Record<string, string>), [LAST_SPEC_WRITER_USERNAME]: "bob" };
    return { ...o, raw: { ...o.raw, metadata: { ...metadata, annotations } } };
  });
}

/** An API server of `objects`: gets, lists (label and field selectors), held-open watches, the dry runs echoed, the reviews allowed. */
function serve(objects: readonly FakeObject[], onWatch: () => void): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? "/", "https://x");
    const path = url.pathname;
    if (req.method === "POST") {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
        if (path === REVIEW_PATHS.SelfSubjectAccessReview) sendJson(res, 201, { ...body, status: { allowed: true } });
        else if (path === REVIEW_PATHS.SelfSubjectReview)
          sendJson(res, 201, { ...body, status: { userInfo: { username: "alice", uid: "u-1", groups: ["system:authenticated"] } } });
        else sendJson(res, 201, body);
      });
      return;
    }
    if (path === "/version") return sendJson(res, 200, { gitVersion: "v1.31.0", major: "1", minor: "31" });
    if (path === "/apis/operator.ptah.run/v1alpha1") {
      const resources = Object.values(KINDS)
        .filter((k) => k.group === "operator.ptah.run")
        .map((k) => ({ name: k.plural, kind: k.kind }));
      return sendJson(res, 200, { kind: "APIResourceList", groupVersion: "operator.ptah.run/v1alpha1", resources });
    }
    if (path.includes("webhookconfigurations")) return sendJson(res, 200, emptyList());
    const m = /^(\/apis?\/(?:[^/]+\/)?v1(?:alpha1)?)\/(?:namespaces\/([^/]+)\/)?([^/]+)(?:\/([^/]+))?$/u.exec(path);
    const kind = m ? byPlural.get(`${m[1]}/${m[3]}`) : undefined;
    if (!m || !kind) return sendJson(res, 404, statusBody(404, "NotFound", `the server could not find the requested resource (${path})`));
    const ns = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
    const name = m[4] === undefined ? undefined : decodeURIComponent(m[4]);
    const meta = (o: FakeObject): { namespace?: string; name?: string } => (o.raw.metadata ?? {}) as { namespace?: string; name?: string };
    const mine = objects.filter((o) => o.kind === kind && (ns === undefined || meta(o).namespace === ns));
    if (name !== undefined) {
      const found = mine.find((o) => meta(o).name === name);
      return found ? sendJson(res, 200, found.raw) : sendJson(res, 404, statusBody(404, "NotFound", `${m[3]} "${name}" not found`));
    }
    if (url.searchParams.get("watch") === "true") {
      res.writeHead(200, { "content-type": "application/json" });
      res.flushHeaders();
      onWatch();
      return; // held open until the command is interrupted
    }
    const items = mine.filter(
      (o) => matchesLabels(o.raw, url.searchParams.get("labelSelector") ?? undefined) && matchesFields(o.raw, url.searchParams.get("fieldSelector") ?? undefined),
    );
    return sendJson(
      res,
      200,
      list(
        items.map((o) => o.raw),
        "42",
      ),
    );
  };
}

const forms = ALL_COMMANDS.flatMap((c) => c.permissions.map((p) => [p.form, p] as const)).filter(([, p]) => p.argv !== undefined);
const recorded: SeenRequest[] = [];

describe("every request the commands send passes the run-time guard", () => {
  it.each(forms)("%s runs through the guard", async (_form, p) => {
    const controller = new AbortController();
    const watches = p.rules.filter((r) => r.verb === "watch").length;
    let watching = 0;
    f.server.reset(
      serve(writtenByBob(world(p)), () => {
        if (++watching >= watches) controller.abort();
      }),
    );
    const kubeconfig = writeKubeconfig(f.dir, "guard-cli.kubeconfig", { server: f.server.url, caFile: f.pki.caFile, namespace: "default" });
    // No kubectl on PATH: doctor's `kubectl version --client` is a child process outside the
    // plugin's transport (a kubectl build may itself ask the server for /version).
    const r = await runRealCli([...p.argv!, "-n", "default"], { kubeconfig, home: f.home, signal: controller.signal, env: { PATH: f.home } });
    recorded.push(...f.server.requests);
    // plans exits 1 on the world's dangling pin (its old approval names a pruned plan): a finding, not a refusal.
    const ended =
      (p.form === "doctor" && r.status === 1) ||
      ((p.form === "plans" || p.form === "plans -o wide") && r.status === 1 && r.stdout.includes("Dangling pins")) ||
      (p.form.startsWith("wait ") && r.status === 1 && r.stderr.startsWith("error: timed out waiting for "));
    expect([0, 130].includes(r.status) || ended, `${p.form} exits ${r.status}: ${r.stderr}`).toBe(true);
    expect(r.stderr + r.stdout).not.toContain("refused to send");
    if (p.note !== OFFLINE) expect(f.server.requests.length, p.form).toBeGreaterThan(0);
    const server = new URL(f.server.url);
    for (const s of f.server.requests) expect(() => guardRequest(s.method, new URL(s.url, server), server), `${s.method} ${s.url}`).not.toThrow();
  });

  it("the commands' requests cover every shape the guard allows", () => {
    const shapes = new Set(
      recorded.map((s) => {
        const u = new URL(s.url, "https://x");
        const p = u.pathname.replace(/\/namespaces\/[^/]+\//u, "/namespaces/NS/");
        const kind = u.searchParams.has("watch") ? "watch" : u.searchParams.has("limit") ? "list" : u.searchParams.has("dryRun") ? "dry-run" : "";
        return `${s.method} ${p.replace(/\/(ptah[a-z]+|configmaps|events)\/[^/]+$/u, "/$1/NAME")} ${kind}`.trim();
      }),
    );
    const want = [
      "GET /version",
      "GET /apis/operator.ptah.run/v1alpha1",
      "GET /apis/operator.ptah.run/v1alpha1/namespaces/NS/ptahschemas/NAME",
      "GET /apis/operator.ptah.run/v1alpha1/namespaces/NS/ptahschemas list",
      "GET /apis/operator.ptah.run/v1alpha1/namespaces/NS/ptahschemas watch",
      "GET /api/v1/namespaces/NS/events list",
      "GET /apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations list",
      "GET /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations list",
      "GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/ptahschemas.operator.ptah.run",
      "POST /apis/operator.ptah.run/v1alpha1/namespaces/NS/ptahschemaapprovals dry-run",
      "POST /apis/operator.ptah.run/v1alpha1/namespaces/NS/ptahmigrationapprovals dry-run",
      "POST /apis/operator.ptah.run/v1alpha1/namespaces/NS/ptahmigrationrunacknowledgments dry-run",
      "POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
      "POST /apis/authentication.k8s.io/v1/selfsubjectreviews",
    ];
    expect(
      want.filter((w) => !shapes.has(w)),
      [...shapes].sort().join("\n"),
    ).toEqual([]);
  });
});
