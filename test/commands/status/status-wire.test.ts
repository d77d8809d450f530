// `status SCHEMA` over the real connection code (kubeconfig, TLS, the transport): the server holds
// the schema's answer until the approvals LIST has arrived, so the run passes only if both
// requests are on the wire at once (a bounded wait answers 409 otherwise, which is not retried). Today's transport is
// HTTP/1.1 through one keep-alive agent (maxSockets 8): two requests in flight are two TLS
// connections. -v=6 shows the overlap: a "Response" line is written when the answer is in, its
// klog time to the microsecond, so a request ran from that time less its milliseconds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSUMED_AND_STALE, anApproval, awaitingSchema } from "../../support/builders.ts";
import { list, runRealCli, sendJson, statusBody, useFaultServer, writeKubeconfig } from "../../support/fault-server.ts";
import { HOLD_BOUND_MS } from "../../support/held-reads.ts";
import { expectGolden } from "../../support/golden.ts";

const f = useFaultServer("ptah-status-wire-", { beforeAll, afterAll });
/** How long the schema's answer stays held after the LIST arrived: its span visibly holds the LIST's start. */
const AFTER_MS = 40;

interface Span {
  readonly url: string;
  readonly start: number;
  readonly end: number;
}

/** A -v=6 line's span in microseconds of the day: [klog time − milliseconds, klog time]. */
function span(line: string): Span {
  const m = /^I\d{4} (\d\d):(\d\d):(\d\d)\.(\d{6}) .* url="([^"]+)" status="200 OK" milliseconds=(\d+)$/u.exec(line);
  if (!m) throw new Error(`not a -v=6 response line: ${line}`);
  const end = ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1e6 + Number(m[4]);
  return { url: m[5]!, end, start: end - Number(m[6]) * 1000 };
}

describe("status SCHEMA on the wire", () => {
  it("has the GET and the LIST in flight at once (two connections of the one agent); -v=6 spans overlap; the same view", async () => {
    const sockets = new Set<number>();
    let releaseSchema: (() => void) | undefined;
    let listArrived = false;
    f.server.reset((req, res) => {
      const url = req.url ?? "";
      // The approval policies are read beside them (none here): only the Ptah reads' sockets count.
      if (url.startsWith("/apis/admissionregistration.k8s.io/")) {
        sendJson(res, 200, list([]));
        return;
      }
      sockets.add(req.socket.remotePort ?? 0);
      if (url.includes("/ptahschemaapprovals")) {
        listArrived = true;
        sendJson(res, 200, list([anApproval({ name: "storefront-old", conditions: CONSUMED_AND_STALE })]));
        setTimeout(() => releaseSchema?.(), AFTER_MS);
        return;
      }
      if (url.endsWith("/ptahschemas/storefront")) {
        const timer = setTimeout(() => sendJson(res, 409, statusBody(409, "Conflict", `the approvals LIST never came while this GET was held ${HOLD_BOUND_MS} ms`)), HOLD_BOUND_MS);
        releaseSchema = () => {
          clearTimeout(timer);
          sendJson(res, 200, awaitingSchema());
        };
        if (listArrived) setTimeout(() => releaseSchema?.(), AFTER_MS);
        return;
      }
      sendJson(res, 404, statusBody(404, "NotFound", `unexpected ${url}`));
    });
    const kc = writeKubeconfig(f.dir, "wire.yaml", { server: f.server.url, caFile: f.pki.caFile });
    const r = await runRealCli(["status", "storefront", "-n", "app", "-v=6"], { kubeconfig: kc, home: f.home });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "status/detail-awaiting.txt");
    expect(f.server.requests.map((q) => q.url).sort()).toEqual([
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies?labelSelector=ptah.run%2Fapproval-policy&limit=500",
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings?limit=500",
      "/apis/operator.ptah.run/v1alpha1/namespaces/app/ptahschemaapprovals?limit=500",
      "/apis/operator.ptah.run/v1alpha1/namespaces/app/ptahschemas/storefront",
    ]);
    // HTTP/1.1 has no second request on a busy connection: the agent opened one per request in flight.
    expect(sockets.size).toBe(2);
    const [listSpan, getSpan] = r.logged.filter((l) => l.includes("/operator.ptah.run/")).map(span);
    expect(listSpan!.url).toContain("/ptahschemaapprovals");
    expect(getSpan!.url).toContain("/ptahschemas/storefront");
    // The schema's GET was sent before the LIST answered, and answered after it: the spans overlap.
    expect(getSpan!.start).toBeLessThan(listSpan!.end);
    expect(listSpan!.start).toBeLessThan(getSpan!.end);
  });
});
