#!/usr/bin/env node
// The lab: a real, local Kubernetes control plane (kube-apiserver + etcd, no Docker) for the
// end-to-end tests, the demo and the benchmarks of kubectl-ptah.
//
//   node lab/lab.mjs [start]   build once (cached outside the repo), start, print `export KUBECONFIG=…`
//   node lab/lab.mjs stop      stop the processes and wipe the etcd data (next start is clean)
//   node lab/lab.mjs status    report; exit 0 when running and healthy, 3 otherwise
//   node lab/lab.mjs env       print the export line; exit 3 when not running
//   node lab/lab.mjs stop-apiserver / start-apiserver
//                              stop only kube-apiserver (etcd and the data stay), start it again
//                              with the same arguments and port (fault tests: a watch across an
//                              apiserver restart)
//
// Only the export line goes to stdout (so `eval "$(npm run -s lab)"` works); progress and errors
// go to stderr. State lives in <repo>/.lab/ (or $PTAH_LAB_DIR): logs, PKI, kubeconfigs, the audit
// log and lab.json, the machine-readable description tests read.
//
// Exit codes: 0 ok, 1 a step failed (the message names the step and its log file),
// 2 usage, 3 not running (status/env), 4 the toolchain needed for the first build is missing.
//
// Plain Node 20 ESM, no build step, no npm dependencies.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LAB_DIR = path.resolve(process.env.PTAH_LAB_DIR || path.join(REPO, ".lab"));
const K8S_VERSION = process.env.PTAH_LAB_K8S || "1.33.13";
const ETCD_VERSION = process.env.PTAH_LAB_ETCD || "3.6.16";
const KUBECTL = process.env.PTAH_LAB_KUBECTL || "kubectl";
const CACHE_ROOT = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
// Must match the folder lab/build.sh writes to.
const EXPECTED_BIN_DIR = path.join(CACHE_ROOT, "kubectl-ptah", "lab-bin", `k8s-${K8S_VERSION}-etcd-${ETCD_VERSION}`);

const P = {
  state: path.join(LAB_DIR, "lab.json"),
  lock: path.join(LAB_DIR, "lock"),
  pki: path.join(LAB_DIR, "pki"),
  etcdData: path.join(LAB_DIR, "etcd-data"),
  etcdLog: path.join(LAB_DIR, "etcd.log"),
  apiserverLog: path.join(LAB_DIR, "kube-apiserver.log"),
  auditLog: path.join(LAB_DIR, "audit.log"),
  buildLog: path.join(LAB_DIR, "build.log"),
  applyLog: path.join(LAB_DIR, "apply.log"),
  simLog: path.join(LAB_DIR, "sim.log"),
  kubeconfig: path.join(LAB_DIR, "kubeconfig"),
  kubeconfigs: path.join(LAB_DIR, "kubeconfigs"),
  bindings: path.join(LAB_DIR, "bindings.yaml"),
  auditPolicy: path.join(REPO, "lab", "audit-policy.yaml"),
  crds: path.join(REPO, "lab", "crds"),
  rbac: path.join(REPO, "rbac"),
  buildScript: path.join(REPO, "lab", "build.sh"),
};

// Identities: one client certificate each, CN = user name; only lab-admin has a group.
const USERS = [
  { key: "admin", name: "lab-admin", org: "system:masters" },
  { key: "viewer", name: "lab-viewer", clusterRole: "ptah-viewer" },
  { key: "approver", name: "lab-approver", clusterRole: "ptah-approver" },
  { key: "nobody", name: "lab-nobody" },
];

const GROUP = "operator.ptah.run";
const VERSION = "v1alpha1";

// Timeouts (ms) for every start step; the build can be overridden because a cold build on a slow
// machine is the one step whose duration we cannot bound well.
const T = {
  build: Number(process.env.PTAH_LAB_BUILD_TIMEOUT_MIN || 90) * 60_000,
  lock: Number(process.env.PTAH_LAB_LOCK_TIMEOUT_MIN || 100) * 60_000,
  openssl: 30_000,
  etcd: 30_000,
  apiserver: 120_000,
  kubectl: 90_000,
  established: 60_000,
  discovery: 60_000,
  stop: 15_000,
  health: 3_000,
};

class LabError extends Error {
  constructor(step, message, logFile, code = 1) {
    super(message);
    this.step = step;
    this.logFile = logFile;
    this.code = code;
  }
}

const say = (msg) => process.stderr.write(`[lab] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// main

async function main(argv) {
  const cmd = argv[0] ?? "start";
  if (argv.length > 1 || ["-h", "--help", "help"].includes(cmd)) {
    process.stderr.write(usage());
    return cmd === "-h" || cmd === "--help" || cmd === "help" ? 0 : 2;
  }
  switch (cmd) {
    case "start":
      return start();
    case "stop":
      return stop();
    case "status":
      return status();
    case "env":
      return env();
    case "stop-apiserver":
      return stopApiserver();
    case "start-apiserver":
      return startApiserver();
    default:
      process.stderr.write(`lab: unknown command "${cmd}"\n${usage()}`);
      return 2;
  }
}

function usage() {
  return [
    "usage: node lab/lab.mjs [start|stop|status|env|stop-apiserver|start-apiserver]",
    "  start   build once, start kube-apiserver + etcd, print `export KUBECONFIG=…` (default)",
    "  stop    stop the lab and wipe its etcd data",
    "  status  show the lab; exit 0 when running, 3 when not",
    "  env     print the export line; exit 3 when not running",
    "  stop-apiserver   stop only kube-apiserver (etcd and its data stay)",
    "  start-apiserver  start it again with the same arguments and port; exit 3 when the lab is not running",
    "",
  ].join("\n");
}

function exportLine(state) {
  return `export KUBECONFIG=${shellQuote(state.kubeconfig)}\n${pgExports(state)}`;
}

function shellQuote(s) {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

// ---------------------------------------------------------------------------------------------
// start

async function start() {
  fs.mkdirSync(LAB_DIR, { recursive: true });
  const release = await acquireLock();
  try {
    const recorded = readState();
    if (recorded) {
      const health = await checkHealth(recorded);
      if (health.ok) {
        await refreshRunning(recorded);
        process.stdout.write(exportLine(recorded));
        return 0;
      }
      say(`the recorded lab is not healthy (${health.reason}); restarting it`);
      await stopProcesses(recorded);
      removeRunState();
    } else {
      await killStrays();
    }
    const state = await freshStart();
    process.stdout.write(exportLine(state));
    return 0;
  } finally {
    release();
  }
}

async function freshStart() {
  const t0 = Date.now();
  const binDir = await ensureBinaries();
  removeRunState();
  fs.rmSync(P.applyLog, { force: true });
  await ensurePki();

  const [etcdPort, etcdPeerPort, apiserverPort] = await freePorts(3);
  const server = `https://127.0.0.1:${apiserverPort}`;
  const state = {
    version: 1,
    labDir: LAB_DIR,
    kubeconfig: P.kubeconfig,
    kubeconfigs: Object.fromEntries(USERS.map((u) => [u.key, path.join(P.kubeconfigs, `${u.name}.yaml`)])),
    server,
    caFile: path.join(P.pki, "ca.crt"),
    auditLog: P.auditLog,
    logs: { etcd: P.etcdLog, apiserver: P.apiserverLog, apply: P.applyLog, build: P.buildLog, sim: P.simLog },
    ports: { etcd: etcdPort, etcdPeer: etcdPeerPort, apiserver: apiserverPort },
    pids: {},
    commands: {},
    contexts: Object.fromEntries(USERS.map((u) => [u.key, u.name])),
    users: Object.fromEntries(
      USERS.map((u) => [
        u.key,
        { name: u.name, groups: u.org ? [u.org] : [], cert: path.join(P.pki, `${u.name}.crt`), key: path.join(P.pki, `${u.name}.key`) },
      ]),
    ),
    binDir,
    versions: { kubernetes: K8S_VERSION, etcd: ETCD_VERSION },
    startedAt: new Date().toISOString(),
    manifestsDigest: "",
  };

  let started = false;
  try {
    // etcd
    say(`starting etcd ${ETCD_VERSION} on 127.0.0.1:${etcdPort}`);
    const etcdBin = path.join(binDir, "etcd");
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${etcdPeerPort}`;
    state.pids.etcd = spawnDetached(etcdBin, [
      "--name=lab",
      `--data-dir=${P.etcdData}`,
      "--unsafe-no-fsync",
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=lab=${peerUrl}`,
      "--initial-cluster-state=new",
      "--log-level=warn",
    ], P.etcdLog);
    state.commands.etcd = etcdBin;
    started = true;
    writeState(state);
    await waitFor("etcd", P.etcdLog, T.etcd, state.pids.etcd, async () => {
      const r = await httpGet(`${etcdUrl}/health`, {});
      return r.status === 200 && /"health":\s*"true"/.test(r.body);
    });

    // kube-apiserver
    say(`starting kube-apiserver ${K8S_VERSION} on ${server}`);
    fs.rmSync(P.auditLog, { force: true });
    const apiBin = path.join(binDir, "kube-apiserver");
    const pki = (f) => path.join(P.pki, f);
    const apiArgs = [
      `--etcd-servers=${etcdUrl}`,
      "--bind-address=127.0.0.1",
      "--advertise-address=127.0.0.1",
      `--secure-port=${apiserverPort}`,
      `--cert-dir=${pki("apiserver")}`,
      `--tls-cert-file=${pki("apiserver.crt")}`,
      `--tls-private-key-file=${pki("apiserver.key")}`,
      `--client-ca-file=${pki("ca.crt")}`,
      `--service-account-issuer=${server}`,
      `--service-account-key-file=${pki("sa.pub")}`,
      `--service-account-signing-key-file=${pki("sa.key")}`,
      "--service-cluster-ip-range=10.0.0.0/24",
      "--allow-privileged=true",
      "--authorization-mode=RBAC",
      // No controller-manager: nothing would create the default ServiceAccount per namespace.
      "--disable-admission-plugins=ServiceAccount",
      // A loopback address cannot be published as the `kubernetes` Service endpoint.
      "--endpoint-reconciler-type=none",
      `--audit-policy-file=${P.auditPolicy}`,
      `--audit-log-path=${P.auditLog}`,
      "--audit-log-format=json",
      "--audit-log-mode=blocking",
      // The log is written through a rotating writer; make rotation practically unreachable
      // (100 GB) so the audit check sees every request of a test run in one file.
      "--audit-log-maxsize=100000",
      "--audit-log-maxbackup=1",
      "--profiling=false",
    ];
    state.pids.apiserver = spawnDetached(apiBin, apiArgs, P.apiserverLog);
    state.commands.apiserver = apiBin;
    state.apiserverArgs = apiArgs;
    writeState(state);
    const admin = clientTls(state, "admin");
    await waitFor("kube-apiserver /readyz", P.apiserverLog, T.apiserver, state.pids.apiserver, async () => {
      const r = await httpGet(`${server}/readyz`, admin);
      return r.status === 200;
    });

    writeKubeconfigs(state);
    await applyManifests(state);
    await startPostgres(state); // HOOK: PostgreSQL
    await startSimulator(state);
    writeState(state);
    say(`ready in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${server} (contexts ${USERS.map((u) => u.name).join(", ")})`);
    return state;
  } catch (err) {
    if (started && !process.env.PTAH_LAB_KEEP_ON_FAILURE) {
      say("stopping what was started (set PTAH_LAB_KEEP_ON_FAILURE=1 to keep it for debugging)");
      await stopProcesses(state);
      removeRunState();
    }
    throw err;
  }
}

// A lab found running: re-apply manifests if they changed since it started, restart the
// simulator if it should run and does not.
async function refreshRunning(state) {
  const digest = manifestsDigest();
  if (digest !== state.manifestsDigest) {
    say("lab/crds or rbac changed since the lab started; applying them again");
    await applyManifests(state);
    writeState(state);
  }
  await refreshSimulator(state);
}

// ---------------------------------------------------------------------------------------------
// build

async function ensureBinaries() {
  if (isExecutable(path.join(EXPECTED_BIN_DIR, "kube-apiserver")) && isExecutable(path.join(EXPECTED_BIN_DIR, "etcd"))) {
    return EXPECTED_BIN_DIR;
  }
  await checkGo();
  say(`building kube-apiserver ${K8S_VERSION} and etcd ${ETCD_VERSION} into ${EXPECTED_BIN_DIR}`);
  say(`first build: 15-30 minutes on 2 cores; progress below, full output in ${P.buildLog}`);
  const log = fs.openSync(P.buildLog, "w");
  const t0 = Date.now();
  let lastStep = "starting lab/build.sh";
  let stdout = "";
  let partial = "";
  const child = spawn("bash", [P.buildScript], {
    cwd: REPO,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PTAH_LAB_K8S: K8S_VERSION, PTAH_LAB_ETCD: ETCD_VERSION },
  });
  child.stdout.on("data", (d) => {
    stdout += d;
    fs.writeSync(log, d);
  });
  child.stderr.on("data", (d) => {
    fs.writeSync(log, d);
    partial += d.toString();
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.startsWith("[lab build]")) {
        lastStep = line.replace(/^\[lab build\]\s*/, "").replace(/\s*\([^)]*\)\s*$/, "");
        process.stderr.write(`${line}\n`);
      }
    }
  });
  const heartbeat = setInterval(() => {
    const m = Math.round((Date.now() - t0) / 60_000);
    process.stderr.write(`[lab build] … still working (${m} min elapsed): ${lastStep}\n`);
  }, 60_000);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid, "SIGKILL");
  }, T.build);
  const code = await new Promise((resolve) => child.on("close", (c, sig) => resolve(c ?? (sig ? 128 : 1))));
  clearInterval(heartbeat);
  clearTimeout(timer);
  fs.closeSync(log);
  if (timedOut) {
    throw new LabError(`build (${lastStep})`, `timed out after ${T.build / 60_000} min (PTAH_LAB_BUILD_TIMEOUT_MIN)`, P.buildLog);
  }
  if (code !== 0) {
    throw new LabError(`build (${lastStep})`, `lab/build.sh exited with ${code}\n${tail(P.buildLog, 15)}`, P.buildLog);
  }
  const dir = stdout.trim().split("\n").pop()?.trim();
  const binDir = dir && isExecutable(path.join(dir, "kube-apiserver")) ? dir : EXPECTED_BIN_DIR;
  for (const b of ["kube-apiserver", "etcd"]) {
    if (!isExecutable(path.join(binDir, b))) {
      throw new LabError("build", `lab/build.sh finished but ${path.join(binDir, b)} is missing`, P.buildLog);
    }
  }
  say(`build finished in ${Math.round((Date.now() - t0) / 1000)}s`);
  return binDir;
}

async function checkGo() {
  const r = await run("go", ["env", "GOVERSION"], { timeoutMs: 30_000, step: "toolchain check" }).catch(() => null);
  const v = r && r.code === 0 ? r.stdout.trim() : "";
  const m = /^go(\d+)\.(\d+)/.exec(v);
  if (!m) {
    throw new LabError("toolchain check", "Go >= 1.26 is not on PATH; the first lab build compiles kube-apiserver and etcd from the Go module proxy", undefined, 4);
  }
  if (Number(m[1]) < 1 || (Number(m[1]) === 1 && Number(m[2]) < 26)) {
    throw new LabError("toolchain check", `found ${v}, but the lab build needs Go >= 1.26`, undefined, 4);
  }
}

// ---------------------------------------------------------------------------------------------
// PKI (openssl). Kept across stop/start: the CA is not state, and reusing it keeps restarts fast.

async function ensurePki() {
  const want = ["ca.crt", "apiserver.crt", "sa.key", "sa.pub", ...USERS.flatMap((u) => [`${u.name}.crt`, `${u.name}.key`])];
  if (want.every((f) => fs.existsSync(path.join(P.pki, f)))) return;
  say("generating a CA and certificates with openssl");
  fs.rmSync(P.pki, { recursive: true, force: true });
  fs.mkdirSync(path.join(P.pki, "apiserver"), { recursive: true });
  const o = (...args) => run("openssl", args, { cwd: P.pki, timeoutMs: T.openssl, step: "certificates (openssl)" }).then((r) => {
    if (r.code !== 0) throw new LabError("certificates (openssl)", `openssl ${args[0]} failed: ${r.stderr.trim()}`);
  });
  const days = "3650";
  await o("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", days, "-subj", "/CN=ptah-lab-ca", "-keyout", "ca.key", "-out", "ca.crt");
  fs.writeFileSync(path.join(P.pki, "serving.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  fs.writeFileSync(path.join(P.pki, "client.ext"), "extendedKeyUsage=clientAuth\n");
  const leaf = async (name, subj, ext) => {
    await o("req", "-newkey", "rsa:2048", "-nodes", "-subj", subj, "-keyout", `${name}.key`, "-out", `${name}.csr`);
    await o("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", days, "-extfile", ext, "-out", `${name}.crt`);
    fs.rmSync(path.join(P.pki, `${name}.csr`));
  };
  await leaf("apiserver", "/CN=kube-apiserver", "serving.ext");
  for (const u of USERS) {
    await leaf(u.name, u.org ? `/O=${u.org}/CN=${u.name}` : `/CN=${u.name}`, "client.ext");
  }
  await o("genrsa", "-out", "sa.key", "2048");
  await o("rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub");
  for (const f of fs.readdirSync(P.pki)) {
    if (f.endsWith(".key")) fs.chmodSync(path.join(P.pki, f), 0o600);
  }
}

function clientTls(state, userKey) {
  const u = state.users[userKey];
  return { ca: fs.readFileSync(state.caFile), cert: fs.readFileSync(u.cert), key: fs.readFileSync(u.key) };
}

// ---------------------------------------------------------------------------------------------
// kubeconfig

function writeKubeconfigs(state) {
  const b64 = (f) => fs.readFileSync(f).toString("base64");
  const ca = b64(state.caFile);
  const render = (current) =>
    [
      "# Generated by lab/lab.mjs; rewritten on every lab start (the port changes).",
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      "- name: ptah-lab",
      "  cluster:",
      `    server: ${state.server}`,
      `    certificate-authority-data: ${ca}`,
      "users:",
      ...USERS.flatMap((u) => [
        `- name: ${u.name}`,
        "  user:",
        `    client-certificate-data: ${b64(state.users[u.key].cert)}`,
        `    client-key-data: ${b64(state.users[u.key].key)}`,
      ]),
      "contexts:",
      ...USERS.flatMap((u) => [`- name: ${u.name}`, "  context:", "    cluster: ptah-lab", `    user: ${u.name}`, "    namespace: default"]),
      `current-context: ${current}`,
      "preferences: {}",
      "",
    ].join("\n");
  writePrivate(P.kubeconfig, render("lab-admin"));
  fs.mkdirSync(P.kubeconfigs, { recursive: true });
  for (const u of USERS) writePrivate(state.kubeconfigs[u.key], render(u.name));
}

function writePrivate(file, text) {
  fs.writeFileSync(file, text, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

// ---------------------------------------------------------------------------------------------
// CRDs, ClusterRoles, bindings

function manifestFiles() {
  const yamls = (dir) =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f))
      : [];
  return { crds: yamls(P.crds), rbac: yamls(P.rbac) };
}

function bindingsYaml() {
  return USERS.filter((u) => u.clusterRole)
    .map((u) =>
      [
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRoleBinding",
        "metadata:",
        `  name: ${u.name}-${u.clusterRole}`,
        "  labels:",
        "    app.kubernetes.io/part-of: ptah-lab",
        "roleRef:",
        "  apiGroup: rbac.authorization.k8s.io",
        "  kind: ClusterRole",
        `  name: ${u.clusterRole}`,
        "subjects:",
        "- apiGroup: rbac.authorization.k8s.io",
        "  kind: User",
        `  name: ${u.name}`,
        "",
      ].join("\n"),
    )
    .join("---\n");
}

function manifestsDigest() {
  const h = createHash("sha256");
  const { crds, rbac } = manifestFiles();
  for (const f of [...crds, ...rbac]) h.update(`${path.relative(REPO, f)}\0`).update(fs.readFileSync(f)).update("\0");
  h.update(bindingsYaml());
  return `sha256:${h.digest("hex")}`;
}

async function applyManifests(state) {
  const { crds, rbac } = manifestFiles();
  if (crds.length === 0) throw new LabError("install CRDs", `no CRD files in ${P.crds}`);
  if (rbac.length === 0) throw new LabError("install RBAC", `no ClusterRole files in ${P.rbac}`);
  const digest = manifestsDigest();
  fs.writeFileSync(P.bindings, bindingsYaml());
  const kc = ["--kubeconfig", state.kubeconfig, "--context", "lab-admin"];
  const fileArgs = [...crds, ...rbac, P.bindings].flatMap((f) => ["-f", f]);
  say(`installing ${crds.length} CRDs, ${rbac.length} ClusterRoles and the lab bindings`);
  await kubectlStep("install CRDs and RBAC", [...kc, "apply", "--server-side", "--force-conflicts", "--field-manager=ptah-lab", ...fileArgs]);

  const names = crdNames(crds);
  await kubectlStep("wait for CRDs to be Established", [
    ...kc, "wait", "--for=condition=Established", `--timeout=${T.established / 1000}s`, ...names.map((n) => `crd/${n}`),
  ], T.established + 15_000);

  // Established does not mean discovery shows the resources yet; kubectl api-resources reads
  // discovery, so wait until every plural is served there.
  const plurals = names.map((n) => n.slice(0, n.indexOf(".")));
  const admin = clientTls(state, "admin");
  await waitFor("discovery of operator.ptah.run", P.apiserverLog, T.discovery, state.pids.apiserver, async () => {
    const r = await httpGet(`${state.server}/apis/${GROUP}/${VERSION}`, admin);
    if (r.status !== 200) return false;
    const served = new Set(JSON.parse(r.body).resources.map((x) => x.name));
    return plurals.every((p) => served.has(p));
  });
  state.manifestsDigest = digest;
}

// metadata.name of every CRD document in the given files (a tiny, purpose-built scan: top-level
// `kind: CustomResourceDefinition` documents whose `metadata:` block has a `name:` line).
function crdNames(files) {
  const names = [];
  for (const f of files) {
    for (const doc of fs.readFileSync(f, "utf8").split(/^---\s*$/m)) {
      if (!/^kind:\s*CustomResourceDefinition\s*$/m.test(doc)) continue;
      const m = /^metadata:\s*\n(?:[ \t]+.*\n)*?[ \t]+name:\s*["']?([a-z0-9.-]+)["']?\s*$/m.exec(doc);
      if (!m) throw new LabError("install CRDs", `cannot find metadata.name in a CRD in ${f}`);
      names.push(m[1]);
    }
  }
  return names;
}

async function kubectlStep(step, args, timeoutMs = T.kubectl) {
  const r = await run(KUBECTL, args, { timeoutMs, step });
  fs.appendFileSync(P.applyLog, `$ ${KUBECTL} ${args.join(" ")}\n${r.stdout}${r.stderr}(exit ${r.code})\n\n`);
  if (r.code !== 0) throw new LabError(step, `${KUBECTL} exited with ${r.code}: ${r.stderr.trim().split("\n").slice(-10).join("\n")}`, P.applyLog);
  return r;
}

// ---------------------------------------------------------------------------------------------
// ======================= HOOK: operator simulator (owned by the test/sim/ authors) ============
// When test/sim/main.ts exists, `lab start` bundles it (esbuild, a devDependency) into
// .lab/sim.mjs and runs `node .lab/sim.mjs` detached, with
//   KUBECONFIG=<lab admin kubeconfig>, PTAH_LAB_JSON=<.lab/lab.json>, PTAH_LAB_DIR=<.lab>,
//   PTAH_SIM_BUNDLE_DIGEST=<sha256 of the bundle>
// stdout/stderr to .lab/sim.log; its pid is recorded as pids.sim and `lab stop` stops it.
// Start waits until the simulator says it is ready (.lab/sim.json: webhooks registered, watches
// listed). A reused lab rebuilds the bundle and restarts the simulator when the bundle changed
// (test/sim/** or what it imports was edited) or when it died. PTAH_LAB_SIM=0 skips it.
const SIM = {
  entry: path.join(REPO, "test", "sim", "main.ts"),
  out: path.join(LAB_DIR, "sim.mjs"),
  next: path.join(LAB_DIR, "sim.next.mjs"),
  ready: path.join(LAB_DIR, "sim.json"),
  readyTimeout: 60_000,
};

function simulatorWanted() {
  return process.env.PTAH_LAB_SIM !== "0" && fs.existsSync(SIM.entry);
}

// Bundles into sim.next.mjs and returns its digest (the running bundle is left alone).
async function bundleSimulator() {
  try {
    const esbuild = await import("esbuild");
    await esbuild.build({
      entryPoints: [SIM.entry],
      outfile: SIM.next,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "error",
    });
  } catch (err) {
    throw new LabError("operator simulator (bundle test/sim/main.ts)", String(err?.message ?? err), P.simLog);
  }
  return `sha256:${createHash("sha256").update(fs.readFileSync(SIM.next)).digest("hex")}`;
}

async function startSimulator(state, digest) {
  if (!simulatorWanted()) return;
  digest ??= await bundleSimulator();
  fs.renameSync(SIM.next, SIM.out);
  fs.rmSync(SIM.ready, { force: true });
  say("starting the operator simulator (test/sim/main.ts)");
  state.pids.sim = spawnDetached(process.execPath, [SIM.out], P.simLog, {
    KUBECONFIG: state.kubeconfig,
    PTAH_LAB_JSON: P.state,
    PTAH_LAB_DIR: LAB_DIR,
    PTAH_SIM_BUNDLE_DIGEST: digest,
    ...pgEnv(state), // HOOK: PostgreSQL
  });
  state.commands.sim = SIM.out;
  state.simDigest = digest;
  writeState(state);
  await waitFor("operator simulator readiness (.lab/sim.json)", P.simLog, SIM.readyTimeout, state.pids.sim, async () => {
    const ready = JSON.parse(fs.readFileSync(SIM.ready, "utf8"));
    return ready.ready === true && ready.pid === state.pids.sim;
  });
}

// A running lab: restart the simulator when it died or when its bundle changed.
async function refreshSimulator(state) {
  if (!simulatorWanted()) return;
  const running = state.pids.sim && alive(state.pids.sim, state.commands.sim);
  const digest = await bundleSimulator();
  if (running && digest === state.simDigest) {
    fs.rmSync(SIM.next, { force: true });
    return;
  }
  if (running) {
    say("test/sim changed since the simulator started; restarting it");
    await terminate(state.pids.sim);
  }
  await startSimulator(state, digest);
  writeState(state);
}
// ======================= end of HOOK ===========================================================

// ======================= HOOK: PostgreSQL (lab/postgres.ts, issue #22) ========================
// lab/postgres.ts, bundled like the simulator into .lab/postgres.mjs: started after the apiserver
// (pids.postgres, .lab/postgres.json), passed to the simulator by env, stopped and wiped with the lab.
async function pg() {
  const out = path.join(LAB_DIR, "postgres.mjs");
  const esbuild = await import("esbuild").catch(() => null); // stop still works from the last bundle
  if (esbuild) await esbuild.build({ entryPoints: [path.join(REPO, "lab", "postgres.ts")], outfile: out, bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "error" });
  return import(`${pathToFileURL(out).href}?${fs.statSync(out).mtimeMs}`);
}
async function startPostgres(state) {
  const [port] = await freePorts(1);
  const info = await (await pg()).startPostgres(LAB_DIR, port, say).catch((e) => Promise.reject(new LabError(e.step ?? "postgres", e.message, e.logFile, e.code)));
  Object.assign(state.pids, { postgres: info.pid });
  Object.assign(state.commands, { postgres: path.join(info.bin, "postgres") });
  Object.assign(state, { postgres: path.join(LAB_DIR, "postgres.json"), pgEnv: { PGHOST: info.host, PGPORT: String(info.port), PGUSER: info.user } });
  state.versions.postgres = info.version;
  writeState(state);
}
const stopPostgres = async () => (await pg()).stopPostgres(LAB_DIR, say);
const pgEnv = (state) => (state.postgres ? { PTAH_LAB_POSTGRES: state.postgres, ...state.pgEnv } : {});
const pgExports = (state) => (state.pgEnv ? `export ${Object.entries(state.pgEnv).map(([k, v]) => `${k}=${v}`).join(" ")}\n` : "");
// ======================= end of HOOK: PostgreSQL ===============================================

// ---------------------------------------------------------------------------------------------
// stop / status / env

async function stop() {
  fs.mkdirSync(LAB_DIR, { recursive: true });
  const release = await acquireLock();
  try {
    const state = readState();
    if (!state) {
      await killStrays();
      removeRunState();
      say("the lab is not running");
      return 0;
    }
    await stopProcesses(state);
    removeRunState();
    say("stopped; etcd data wiped");
    return 0;
  } finally {
    release();
  }
}

async function status() {
  const state = readState();
  if (!state) {
    process.stdout.write(`not running (no ${path.relative(process.cwd(), P.state) || P.state}); start it with: npm run lab\n`);
    return 3;
  }
  const health = await checkHealth(state);
  if (!health.ok) {
    process.stdout.write(`not running: ${health.reason}; start it again with: npm run lab\n`);
    return 3;
  }
  const admin = clientTls(state, "admin");
  const v = await httpGet(`${state.server}/version`, admin).catch(() => null);
  const e = await httpGet(`http://127.0.0.1:${state.ports.etcd}/version`, {}).catch(() => null);
  const kv = v?.status === 200 ? JSON.parse(v.body).gitVersion : "unknown";
  const ev = e?.status === 200 ? JSON.parse(e.body).etcdserver : "unknown";
  const pids = Object.entries(state.pids).map(([k, p]) => `${k}=${p}`).join(" ");
  process.stdout.write(
    [
      "running",
      `server:         ${state.server}`,
      `kubeconfig:     ${state.kubeconfig}`,
      `contexts:       ${Object.values(state.contexts).join(", ")} (current: lab-admin)`,
      `kube-apiserver: ${kv}`,
      `etcd:           ${ev} (http://127.0.0.1:${state.ports.etcd})`,
      `postgres:       ${(await pg()).postgresStatusLine(LAB_DIR)}`, // HOOK: PostgreSQL
      `pids:           ${pids}`,
      `audit log:      ${state.auditLog}`,
      `binaries:       ${state.binDir}`,
      `started:        ${state.startedAt}`,
      "",
    ].join("\n"),
  );
  return 0;
}

async function env() {
  const state = readState();
  const health = state ? await checkHealth(state) : { ok: false, reason: "not started" };
  if (!state || !health.ok) {
    process.stderr.write(`lab: not running (${health.reason}); start it with: npm run lab\n`);
    return 3;
  }
  process.stdout.write(exportLine(state));
  return 0;
}

// Stops kube-apiserver alone (SIGTERM, then SIGKILL): clients see their connections close and
// then refused, as in an apiserver restart. etcd and its data stay; start-apiserver resumes.
async function stopApiserver() {
  const release = await acquireLock();
  try {
    const state = readState();
    if (!state) {
      process.stderr.write("lab: not running; start it with: npm run lab\n");
      return 3;
    }
    const pid = state.pids?.apiserver;
    if (!pid || !alive(pid, state.commands?.apiserver)) {
      say("kube-apiserver is not running");
      return 0;
    }
    // A lab started before apiserverArgs was recorded: take them from the running process.
    if (!state.apiserverArgs && process.platform === "linux") {
      state.apiserverArgs = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((a) => a !== "").slice(1);
      writeState(state);
    }
    say(`stopping kube-apiserver (pid ${pid}); etcd keeps running`);
    await terminate(pid);
    return 0;
  } finally {
    release();
  }
}

// Starts kube-apiserver again with the arguments (and so the port, PKI and audit log) it had.
async function startApiserver() {
  const release = await acquireLock();
  try {
    const state = readState();
    if (!state || !state.apiserverArgs || !alive(state.pids?.etcd, state.commands?.etcd)) {
      process.stderr.write("lab: not running (or started before stop-apiserver existed); start it with: npm run lab\n");
      return 3;
    }
    if (!alive(state.pids.apiserver, state.commands.apiserver)) {
      say(`starting kube-apiserver again on ${state.server}`);
      state.pids.apiserver = spawnDetached(state.commands.apiserver, state.apiserverArgs, P.apiserverLog, {}, "a");
      writeState(state);
    }
    const admin = clientTls(state, "admin");
    await waitFor("kube-apiserver /readyz", P.apiserverLog, T.apiserver, state.pids.apiserver, async () => {
      const r = await httpGet(`${state.server}/readyz`, admin);
      return r.status === 200;
    });
    say("kube-apiserver is ready");
    return 0;
  } finally {
    release();
  }
}

async function checkHealth(state) {
  for (const [name, pid] of Object.entries(state.pids ?? {})) {
    if (name === "sim") continue; // the simulator is restarted on demand, it does not make the lab unhealthy
    if (!alive(pid, state.commands?.[name])) return { ok: false, reason: `${name} (pid ${pid}) is not running` };
  }
  if (!state.pids?.postgres) return { ok: false, reason: "PostgreSQL was never started" }; // HOOK: PostgreSQL
  if (!state.pids?.apiserver) return { ok: false, reason: "kube-apiserver was never started" };
  try {
    const r = await httpGet(`${state.server}/readyz`, clientTls(state, "admin"), T.health);
    if (r.status !== 200) return { ok: false, reason: `/readyz answered ${r.status}` };
  } catch (err) {
    return { ok: false, reason: `/readyz: ${err.message}` };
  }
  if (!fs.existsSync(state.kubeconfig)) return { ok: false, reason: `${state.kubeconfig} is missing` };
  return { ok: true };
}

async function stopProcesses(state) {
  // Reverse start order: simulator, apiserver, then etcd.
  for (const name of ["sim", "apiserver", "etcd"]) {
    const pid = state.pids?.[name];
    if (!pid || !alive(pid, state.commands?.[name])) continue;
    say(`stopping ${name} (pid ${pid})`);
    await terminate(pid);
  }
  await stopPostgres(); // HOOK: PostgreSQL (also wipes its data)
}

// A lab whose lab.json was deleted by hand may still have processes: they run from our cache
// folder with our state dir in their arguments, so they can be found without guessing.
async function killStrays() {
  await stopPostgres(); // HOOK: PostgreSQL
  if (process.platform !== "linux") return;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number)) {
    if (pid === process.pid) continue;
    let cmdline = "";
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    const args = cmdline.split("\0");
    const isOurs =
      (args.some((a) => a === `--data-dir=${P.etcdData}`) && args[0]?.endsWith("/etcd")) ||
      (args.some((a) => a === `--audit-log-path=${P.auditLog}`) && args[0]?.endsWith("/kube-apiserver"));
    if (isOurs) {
      say(`stopping a leftover lab process (pid ${pid})`);
      await terminate(pid);
    }
  }
}

async function terminate(pid) {
  killGroup(pid, "SIGTERM");
  const deadline = Date.now() + T.stop;
  while (Date.now() < deadline) {
    if (!alive(pid)) return;
    await sleep(100);
  }
  killGroup(pid, "SIGKILL");
  const hard = Date.now() + 5_000;
  while (Date.now() < hard) {
    if (!alive(pid)) return;
    await sleep(100);
  }
  throw new LabError("stop", `process ${pid} did not exit after SIGKILL`);
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal); // detached children lead their own process group
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

// Alive and (when we know it) still the program we started: guards against pid reuse.
function alive(pid, command) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err.code !== "EPERM") return false;
  }
  if (process.platform === "linux") {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (/^\d+ \(.*\) Z /.test(stat)) return false; // zombie
      if (command) {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
        if (!cmdline.includes(command)) return false;
      }
    } catch {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// state, lock

function readState() {
  try {
    return JSON.parse(fs.readFileSync(P.state, "utf8"));
  } catch {
    return null;
  }
}

function writeState(state) {
  const tmp = `${P.state}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(tmp, P.state);
}

// Everything that describes a running lab; logs and the PKI are kept.
function removeRunState() {
  fs.rmSync(P.state, { force: true });
  fs.rmSync(P.etcdData, { recursive: true, force: true });
  fs.rmSync(P.kubeconfig, { force: true });
  fs.rmSync(P.kubeconfigs, { recursive: true, force: true });
  fs.rmSync(P.bindings, { force: true });
}

async function acquireLock() {
  const deadline = Date.now() + T.lock;
  let announced = false;
  for (;;) {
    try {
      const fd = fs.openSync(P.lock, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      const release = () => fs.rmSync(P.lock, { force: true });
      process.once("exit", release);
      return release;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    const holder = Number(fs.readFileSync(P.lock, "utf8").trim() || 0);
    if (!holder || !alive(holder)) {
      fs.rmSync(P.lock, { force: true });
      continue;
    }
    if (!announced) {
      say(`waiting for another lab command (pid ${holder}) to finish`);
      announced = true;
    }
    if (Date.now() > deadline) throw new LabError("lock", `${P.lock} is held by pid ${holder}`);
    await sleep(500);
  }
}

// ---------------------------------------------------------------------------------------------
// processes, ports, http

function spawnDetached(cmd, args, logFile, extraEnv = {}, mode = "w") {
  const fd = fs.openSync(logFile, mode);
  try {
    const child = spawn(cmd, args, {
      cwd: LAB_DIR,
      detached: true,
      stdio: ["ignore", fd, fd],
      env: { ...process.env, ...extraEnv },
    });
    child.on("error", () => {}); // reported through the readiness wait and the log
    child.unref();
    if (!child.pid) throw new LabError(`start ${path.basename(cmd)}`, `could not spawn ${cmd}`, logFile);
    return child.pid;
  } finally {
    fs.closeSync(fd);
  }
}

async function waitFor(step, logFile, timeoutMs, pid, probe) {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (pid && !alive(pid)) {
      throw new LabError(step, `the process exited before it was ready\n${tail(logFile, 20)}`, logFile);
    }
    try {
      if (await probe()) return;
    } catch (err) {
      last = err.message;
    }
    await sleep(250);
  }
  throw new LabError(step, `not ready after ${timeoutMs / 1000}s${last ? ` (last error: ${last})` : ""}\n${tail(logFile, 20)}`, logFile);
}

async function freePorts(n) {
  const servers = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      await new Promise((resolve, reject) => {
        s.once("error", reject);
        s.listen(0, "127.0.0.1", resolve);
      });
      servers.push(s);
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

function httpGet(url, tls, timeoutMs = 5_000) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const mod = u.protocol === "https:" ? https : http;
    const req = mod.request(
      { method: "GET", host: u.hostname, port: u.port, path: u.pathname + u.search, timeout: timeoutMs, ...tls, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}

function run(cmd, args, { cwd = REPO, timeoutMs, step, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new LabError(step ?? cmd, `${cmd} ${args.slice(0, 3).join(" ")}… timed out after ${timeoutMs / 1000}s`));
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new LabError(step ?? cmd, `cannot run ${cmd}: ${err.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
    child.stdin.end(input ?? "");
  });
}

function isExecutable(f) {
  try {
    fs.accessSync(f, fs.constants.X_OK);
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
}

function tail(file, n) {
  try {
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    return lines.slice(-n).map((l) => `    ${l}`).join("\n");
  } catch {
    return "";
  }
}

// ---------------------------------------------------------------------------------------------

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof LabError) {
      process.stderr.write(`lab: step "${err.step}" failed: ${err.message}\n`);
      if (err.logFile) process.stderr.write(`lab: see ${err.logFile}\n`);
      process.exit(err.code);
    }
    process.stderr.write(`lab: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
