// A client certificate that rotates while a request is in flight: the next
// request gets a connection with the new certificate, and the one in flight on the old
// certificate still completes (the old agent was destroyed, resetting it).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Transport } from "../../src/kube/http.ts";
import type { AuthState } from "../../src/kube/credentials.ts";
import { FaultServer, makePki, sendJson, tempDir, type Pki } from "../support/fault-server.ts";

let dir: string;
let pki: Pki;
let server: FaultServer;

function clientPair(name: string): { cert: Buffer; key: Buffer } {
  const args = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", `/CN=${name}`];
  execFileSync("openssl", [...args, "-keyout", `${name}.key`, "-out", `${name}.crt`], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  return { cert: fs.readFileSync(path.join(dir, `${name}.crt`)), key: fs.readFileSync(path.join(dir, `${name}.key`)) };
}

beforeAll(async () => {
  dir = tempDir("ptah-rotation-");
  pki = makePki(dir);
  server = await new FaultServer(pki.serverCert, pki.serverKey).start();
});

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a client certificate rotated while a request is in flight", () => {
  it("lets the request in flight finish on the old certificate; the next one uses the new", async () => {
    const first = clientPair("first");
    const second = clientPair("second");
    let auth: AuthState = { headers: {}, ...first };
    let held: (() => void) | undefined;
    // Two paths the plugin reads (the transport refuses any other, kube/request-guard.ts).
    const SLOW = "/version";
    const FAST = "/apis/operator.ptah.run/v1alpha1";
    server.reset((req, res) => {
      if (req.url === SLOW) {
        // Answered only once the request on the rotated certificate arrived.
        held = () => sendJson(res, 200, { which: "slow" });
        return;
      }
      sendJson(res, 200, { which: "fast" });
      held?.();
    });
    const transport = new Transport({
      server: new URL(server.url),
      tls: { ca: fs.readFileSync(pki.caFile) },
      credentials: { current: async () => auth, invalidate: () => false },
      headers: {},
      proxy: undefined,
      userAgent: "test",
      timeoutMs: 10_000,
    });
    try {
      const slow = transport.get(SLOW);
      while (!held) await new Promise((resolve) => setTimeout(resolve, 5));
      auth = { headers: {}, ...second };
      const fast = await transport.get(FAST);
      expect(JSON.parse(fast.body.toString())).toEqual({ which: "fast" });
      const answered = await slow;
      expect({ status: answered.status, body: JSON.parse(answered.body.toString()) }).toEqual({ status: 200, body: { which: "slow" } });
    } finally {
      transport.close();
    }
  });
});
