// The lab's PKI (openssl): a CA, kube-apiserver's serving certificate for 127.0.0.1/localhost,
// one client certificate per identity, the service-account key pair. Kept across stop/start
// (.lab/pki/): the CA is not state, and reusing it keeps restarts fast.
import fs from "node:fs";
import path from "node:path";
import { PLUGIN_GROUP, SENTINEL_USER, USERS, type LabContext, type LabUser } from "./config.ts";
import { LabError, say } from "./errors.ts";
import type { ClientTls } from "./net.ts";
import { run } from "./processes.ts";
import type { LabState } from "./state.ts";

const DAYS = "3650";

export async function ensurePki(lab: LabContext): Promise<void> {
  const dir = lab.paths.pki;
  const leaves = [...USERS.flatMap((u) => [u.name, `${u.name}.plugin`]), SENTINEL_USER.name];
  const want = ["ca.crt", "apiserver.crt", "sa.key", "sa.pub", ...leaves.flatMap((name) => [`${name}.crt`, `${name}.key`])];
  if (want.every((f) => fs.existsSync(path.join(dir, f)))) return;
  say("generating a CA and certificates with openssl");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "apiserver"), { recursive: true });
  const step = "certificates (openssl)";
  const o = async (...args: string[]) => {
    const r = await run("openssl", args, { cwd: dir, timeoutMs: lab.timeouts.openssl, step });
    if (r.code !== 0) throw new LabError(step, `openssl ${args[0]} failed: ${r.stderr.trim()}`);
  };
  await o("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", DAYS, "-subj", "/CN=ptah-lab-ca", "-keyout", "ca.key", "-out", "ca.crt");
  fs.writeFileSync(path.join(dir, "serving.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  fs.writeFileSync(path.join(dir, "client.ext"), "extendedKeyUsage=clientAuth\n");
  const leaf = async (name: string, subj: string, ext: string) => {
    await o("req", "-newkey", "rsa:2048", "-nodes", "-subj", subj, "-keyout", `${name}.key`, "-out", `${name}.csr`);
    await o("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", DAYS, "-extfile", ext, "-out", `${name}.crt`);
    fs.rmSync(path.join(dir, `${name}.csr`));
  };
  await leaf("apiserver", "/CN=kube-apiserver", "serving.ext");
  for (const u of USERS) {
    const org = "org" in u ? `/O=${u.org}` : "";
    await leaf(u.name, `${org}/CN=${u.name}`, "client.ext");
    // The twin the e2e tier runs the plugin with: the same user, and the plugin's group.
    await leaf(`${u.name}.plugin`, `${org}/O=${PLUGIN_GROUP}/CN=${u.name}`, "client.ext");
  }
  await leaf(SENTINEL_USER.name, `/O=${PLUGIN_GROUP}/CN=${SENTINEL_USER.name}`, "client.ext");
  await o("genrsa", "-out", "sa.key", "2048");
  await o("rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub");
  for (const f of fs.readdirSync(dir)) {
    if (f.endsWith(".key")) fs.chmodSync(path.join(dir, f), 0o600);
  }
}

/** A file in .lab/pki/. */
export function pkiFile(lab: LabContext, name: string): string {
  return path.join(lab.paths.pki, name);
}

/** TLS options to reach the lab's apiserver as one identity. */
export function clientTls(state: LabState, user: LabUser): ClientTls {
  const u = state.users[user];
  return { ca: fs.readFileSync(state.caFile), cert: fs.readFileSync(u.cert), key: fs.readFileSync(u.key) };
}
