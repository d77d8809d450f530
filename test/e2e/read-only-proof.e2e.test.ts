// Proves the read-only proof (test/e2e/read-only-reporter.ts) can fail: requests the plugin must
// never send go to the lab under the plugin's user agent, and the verdict must name each one.
// They carry the sentinel agent kubectl-ptah/0.0.0-e2e, which the real verdict leaves out, so
// they do not fail the run they are part of.
import { beforeAll, describe, expect, it } from "vitest";
import { SENTINEL_AGENT, formatAuditEvent, readOnlyVerdict, verdictFailures } from "../support/audit.ts";
import { API_VERSION, auditEventsSince, auditMark, createNamespace, sendAsSentinel } from "../support/lab.ts";

const skip = process.env.PTAH_E2E_SKIP;
const UID = "00000000-0000-4000-8000-000000000001";
const SHA = `sha256:${"1".repeat(64)}`;

let ns = "";

describe.skipIf(skip)("the read-only proof names every request the plugin must not send", () => {
  beforeAll(() => {
    ns = createNamespace("read-only-proof");
  });

  it("flags a PATCH, a create without dryRun, a dry-run create of another kind and a read of Secrets; passes the allowed ones", async () => {
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
    // allowed
    await sendAsSentinel("GET", `${ptah}/ptahschemas`);
    await sendAsSentinel("POST", `${ptah}/ptahschemaapprovals?dryRun=All`, approval);
    await sendAsSentinel("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { group: "operator.ptah.run", resource: "ptahschemaapprovals", verb: "create", namespace: ns } },
    });

    let events = auditEventsSince(mark);
    for (let i = 0; i < 20 && events.filter((e) => e.userAgent?.startsWith(SENTINEL_AGENT)).length < 7; i++) {
      await new Promise((r) => setTimeout(r, 250)); // audit events are written asynchronously
      events = auditEventsSince(mark);
    }
    const probes = events.filter((e) => e.userAgent?.startsWith(SENTINEL_AGENT));
    expect(probes.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual([
      "patch ptahschemas",
      "create ptahschemaapprovals",
      "create configmaps",
      "list secrets",
      "list ptahschemas",
      "create ptahschemaapprovals",
      "create selfsubjectaccessreviews",
    ]);

    // The checker, judging the probes as if the plugin had sent them.
    const verdict = readOnlyVerdict(probes);
    const failures = verdictFailures(verdict);
    expect(verdict.offending.map((o) => o.event.auditID)).toEqual(probes.slice(0, 4).map((e) => e.auditID));
    expect(failures).toHaveLength(4);
    expect(failures[0]).toContain(`patch ${ptah}/ptahschemas/storefront`);
    expect(failures[0]).toContain(`ua=${SENTINEL_AGENT}`);
    expect(failures[1]).toContain("a create of ptahschemaapprovals without dryRun=All");
    expect(failures[2]).toContain("a dry-run create of configmaps, which is not an approval kind");
    expect(failures[3]).toContain("a list of secrets");
    expect(verdict.dryRunCreates).toBe(1);
    expect(verdict.reviews).toBe(1);
    console.log(`read-only proof, proved: it names ${failures.length} forbidden sentinel requests:\n${verdict.offending.map((o) => formatAuditEvent(o.event)).join("\n")}`);

    // The real verdict leaves the sentinel out, so these probes do not fail the run.
    const real = readOnlyVerdict(events, { sentinel: SENTINEL_AGENT });
    expect(real.requests.some((e) => e.userAgent?.startsWith(SENTINEL_AGENT))).toBe(false);
  });
});
