// Proves the read-only proof (test/e2e/read-only-reporter.ts) can fail: requests the plugin must
// never send go to the lab with a plugin certificate (group ptah:plugin-under-test), most under
// the plugin's user agent and some under other agents (Go's, curl's, a spawned kubectl's), and
// the verdict must name each one — by identity, whatever the agent. They are sent as
// lab-sentinel, whose requests the real verdict leaves out, so they do not fail the run they are
// part of; judged here as if a plugin identity had sent them. The judge is an allowlist
// (test/support/wire-allowlist.ts): a GET through a service's proxy is a read by verb that
// reaches a workload, and must be named too.
import { beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_GROUP, SENTINEL_AGENT, SENTINEL_USER, formatAuditEvent, readOnlyVerdict, verdictFailures, type AuditEvent } from "../support/audit.ts";
import { API_VERSION, auditEventsSince, auditMark, createNamespace, sendAsSentinel } from "../support/lab.ts";

const skip = process.env.PTAH_E2E_SKIP;
const UID = "00000000-0000-4000-8000-000000000001";
const SHA = `sha256:${"1".repeat(64)}`;

let ns = "";

describe.skipIf(skip)("the read-only proof names every request the plugin must not send", () => {
  beforeAll(() => {
    ns = createNamespace("read-only-proof");
  });

  it("flags a PATCH, a create without dryRun, a dry-run create of another kind, a read of Secrets and a GET through a service's proxy; passes the allowed ones", async () => {
    const mark = auditMark();
    const ptah = `/apis/operator.ptah.run/v1alpha1/namespaces/${ns}`;
    const approval = {
      apiVersion: API_VERSION,
      kind: "PtahSchemaApproval",
      metadata: { name: "a" },
      spec: { schemaRef: { name: "s", uid: UID }, planRef: { name: "p", uid: UID }, planFingerprint: SHA },
    };
    // forbidden
    await sendAsSentinel("PATCH", `${ptah}/ptahschemas/storefront`, { metadata: { labels: { patched: "yes" } } });
    await sendAsSentinel("POST", `${ptah}/ptahschemaapprovals`, approval);
    await sendAsSentinel("POST", `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } });
    await sendAsSentinel("GET", `/api/v1/namespaces/${ns}/secrets`);
    // no such service: answered 404 or 503, and audited as a get of services/proxy all the same
    await sendAsSentinel("GET", `/api/v1/namespaces/${ns}/services/nope/proxy/`);
    // forbidden, under agents that are not the plugin's: only the identity tells
    await sendAsSentinel("DELETE", `${ptah}/ptahschemas/storefront`, undefined, "kubectl/v1.33.0 (linux/amd64) kubernetes/abcdef");
    await sendAsSentinel("PATCH", `${ptah}/ptahschemas/storefront`, { metadata: { labels: { fetched: "yes" } } }, "node");
    // allowed
    await sendAsSentinel("GET", `${ptah}/ptahschemas`);
    await sendAsSentinel("POST", `${ptah}/ptahschemaapprovals?dryRun=All`, approval);
    await sendAsSentinel("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { group: "operator.ptah.run", resource: "ptahschemaapprovals", verb: "create", namespace: ns } },
    });

    const sentinel = (e: AuditEvent) => e.user?.username === SENTINEL_USER;
    let events = auditEventsSince(mark);
    for (let i = 0; i < 20 && events.filter(sentinel).length < 10; i++) {
      await new Promise((r) => setTimeout(r, 250)); // audit events are written asynchronously
      events = auditEventsSince(mark);
    }
    const probes = events.filter(sentinel);
    expect(probes.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual([
      "patch ptahschemas",
      "create ptahschemaapprovals",
      "create configmaps",
      "list secrets",
      "get services",
      "delete ptahschemas",
      "patch ptahschemas",
      "list ptahschemas",
      "create ptahschemaapprovals",
      "create selfsubjectaccessreviews",
    ]);
    expect(probes.every((e) => e.user.groups?.includes(PLUGIN_GROUP))).toBe(true);
    expect(probes[4]!.objectRef?.subresource).toBe("proxy");

    // The checker, judging the probes as if a plugin identity had sent them.
    const verdict = readOnlyVerdict(probes, { exemptUser: null });
    const failures = verdictFailures(verdict);
    expect(verdict.offending.map((o) => o.event.auditID)).toEqual(probes.slice(0, 7).map((e) => e.auditID));
    expect(failures).toHaveLength(7);
    expect(failures[0]).toContain(`patch ${ptah}/ptahschemas/storefront`);
    expect(failures[0]).toContain(`ua=${SENTINEL_AGENT}`);
    expect(failures[1]).toContain("a create of ptahschemaapprovals without dryRun=All");
    expect(failures[2]).toContain("a dry-run create of configmaps, which is not an approval kind");
    expect(failures[3]).toContain("a list of secrets");
    expect(failures[4]).toContain("a get of services/proxy: the plugin reads no subresource");
    expect(failures[4]).toContain(`get /api/v1/namespaces/${ns}/services/nope/proxy/`);
    expect(failures[5]).toContain("a delete of ptahschemas");
    expect(failures[5]).toContain("ua=kubectl/v1.33.0");
    expect(failures[6]).toContain("ua=node");
    expect(verdict.dryRunCreates).toBe(1);
    expect(verdict.reviews).toBe(1);
    // The user-agent rule alone (a person's identity) sees the first five only.
    const byAgent = readOnlyVerdict(
      probes.map((e) => ({ ...e, user: { username: "someone", groups: [] } })),
      { exemptUser: null },
    );
    expect(byAgent.offending).toHaveLength(5);
    console.log(
      `read-only proof, proved: it names ${failures.length} forbidden sentinel requests, 2 of them by identity alone:\n${verdict.offending.map((o) => formatAuditEvent(o.event)).join("\n")}`,
    );

    // The real verdict leaves the sentinel out, so these probes do not fail the run.
    const real = readOnlyVerdict(events);
    expect(real.requests.some(sentinel)).toBe(false);
  });
});
