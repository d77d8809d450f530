// The single executable behaves exactly like the npm bin: the same command lines (offline
// commands, completion, usage errors, cluster reads against a local HTTPS API server, failures
// with their exit statuses) through `node bin/kubectl-ptah.js` and through the binary give the
// same stdout, stderr and status, and the expected status.
//
// The binary is $PTAH_TEST_BIN (e.g. dist/bin/kubectl-ptah from `npm run build:binary`); without
// it a fresh one is built into a temp folder from the current bundle (linux/darwin/windows on
// amd64/arm64, ~10 s), unless PTAH_TEST_BIN=skip.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aMigration, awaitingSchema, inSyncSchema } from "../support/builders.ts";
import { currentPlanStatus, publishSchemaPlan } from "../support/publish-plan.ts";
import { closedPort, FaultServer, list, sendJson, statusBody, writeKubeconfig } from "../support/fault-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const NPM_BIN = path.join(ROOT, "bin", "kubectl-ptah.js");
const requested = process.env.PTAH_TEST_BIN;
const buildable = ["linux", "darwin", "win32"].includes(process.platform) && ["x64", "arm64"].includes(process.arch);
const skip = requested === "skip" || (requested === undefined && !buildable);

let dir = "";
let subject = "";
let server: FaultServer;
const kubeconfigs: Record<string, string> = {};

/**
 * Fixture timestamps moved to mid-2010: past eight years kubectl's AGE is whole years ("16y"),
 * so it ticks once a year (mid-June), not daily as "6y335d" did when the npm-bin and binary
 * runs straddled the fixtures' time of day.
 */
function old<T>(raw: T): T {
  return JSON.parse(JSON.stringify(raw).replaceAll("2026-11-30T", "2010-06-15T")) as T;
}

/**
 * A schema whose current plan takes locks: `plan storefront --locks` loads PostgreSQL's parser, in
 * the binary from its gzipped SEA asset (src/cli/embedded.ts), in the npm tree from the .wasm file.
 */
const LOCKED = publishSchemaPlan({
  schema: { name: "storefront", namespace: "app", uid: "schema-uid-1" },
  statements: [
    { sql: 'CREATE INDEX "orders_placed_at_idx" ON "orders" ("placed_at")', severity: "safe", reason: "index added" },
    { sql: 'ALTER TABLE "orders" ALTER COLUMN "total" TYPE numeric(12,2)', severity: "warning", reason: "type changed" },
  ],
  createdAt: "2010-06-15T10:00:00Z",
  // A type change reads as destructive: recorded so, no warning on stderr.
  destructive: true,
});

const OBJECTS: Record<string, Array<Record<string, unknown>>> = {
  ptahschemas: [
    old(awaitingSchema({ name: "storefront", namespace: "app", plan: currentPlanStatus(LOCKED) })),
    old(inSyncSchema({ name: "orders", namespace: "app" })),
    old(inSyncSchema({ name: "billing", namespace: "other" })),
  ],
  ptahschemaplans: [LOCKED.plan],
  ptahschemaplanchunks: LOCKED.chunks,
  ptahmigrations: [old(aMigration({ name: "backfill", namespace: "app", phase: "Succeeded", conditions: [] }))],
};

beforeAll(async () => {
  if (skip) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-parity-"));
  if (!fs.existsSync(path.join(ROOT, "dist", "start.cjs")) || !fs.existsSync(path.join(ROOT, "dist", "sea-start.cjs"))) {
    const b = spawnSync(process.execPath, [path.join(ROOT, "krew", "bundle.mjs")], { cwd: ROOT, encoding: "utf8" });
    expect(b.status, b.stderr).toBe(0);
  }
  if (requested) {
    subject = path.resolve(ROOT, requested);
  } else {
    subject = path.join(dir, process.platform === "win32" ? "kubectl-ptah.exe" : "kubectl-ptah");
    const b = spawnSync(process.execPath, [path.join(ROOT, "krew", "build-binary.mjs"), "--out", subject], { cwd: ROOT, encoding: "utf8", timeout: 300_000 });
    expect(b.status, b.stderr).toBe(0);
  }
  // One self-signed certificate, trusted as its own CA: plain enough for the openssl (or
  // LibreSSL) of every release runner.
  const tls = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "server.key",
      "-out",
      "server.crt",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ],
    { cwd: dir, encoding: "utf8" },
  );
  expect(tls.status, tls.stderr).toBe(0);
  const pki = { caFile: path.join(dir, "server.crt"), serverCert: fs.readFileSync(path.join(dir, "server.crt")), serverKey: fs.readFileSync(path.join(dir, "server.key")) };
  server = await new FaultServer(pki.serverCert, pki.serverKey).start();
  server.handler = (req, res) => {
    const url = new URL(req.url ?? "/", "https://api");
    const m = /^\/apis\/operator\.ptah\.run\/v1alpha1\/(?:namespaces\/([^/]+)\/)?([a-z]+)(?:\/([^/]+))?$/u.exec(url.pathname);
    if (!m) return sendJson(res, 404, statusBody(404, "NotFound", "the server could not find the requested resource"));
    const [, namespace, plural, name] = m;
    const items = (OBJECTS[plural!] ?? []).filter((o) => namespace === undefined || (o.metadata as { namespace: string }).namespace === namespace);
    if (name === undefined) return sendJson(res, 200, list(items));
    const found = items.find((o) => (o.metadata as { name: string }).name === name);
    if (found) return sendJson(res, 200, found);
    return sendJson(res, 404, statusBody(404, "NotFound", `${plural}.operator.ptah.run "${name}" not found`));
  };
  kubeconfigs.fake = writeKubeconfig(dir, "fake.yaml", { server: server.url, caFile: pki.caFile, namespace: "app" });
  kubeconfigs.closed = writeKubeconfig(dir, "closed.yaml", { server: `https://127.0.0.1:${await closedPort()}`, caFile: pki.caFile });
  kubeconfigs.missing = path.join(dir, "no-such-config.yaml");
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/** Asynchronous on purpose: the API server answers from this process's event loop. */
function run(command: string, args: readonly string[], kubeconfig: string | undefined): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      // Only what a run needs: no proxy or kubeconfig from the developer's environment.
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        NO_COLOR: "1",
        ...(kubeconfig ? { KUBECONFIG: kubeconfig } : {}),
        // Windows processes need these to start at all.
        ...(process.platform === "win32" ? { SystemRoot: process.env.SystemRoot, USERPROFILE: dir } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ stdout, stderr, status }));
  });
}

type Case = readonly [args: readonly string[], status: number, kubeconfig?: "fake" | "closed" | "missing"];

const CASES: readonly Case[] = [
  // offline
  [["--version"], 0],
  [["--help"], 0],
  [[], 2],
  [["help", "status"], 0],
  [["status", "--help"], 0],
  [["-n", "app", "--version"], 0],
  [["version", "--client"], 0],
  [["version", "--client", "-o", "json"], 0],
  [["explain"], 0],
  [["explain", "stale"], 0],
  [["explain", "PlanNoLongerCurrent", "-o", "json"], 0],
  [["explain", "migration", "phase", "Blocked"], 0],
  [["explain", "PlanNoLongerCurent"], 3],
  [["completion", "bash"], 0],
  [["completion", "zsh"], 0],
  [["completion", "fish"], 0],
  [["completion", "kubectl"], 0],
  [["__complete", ""], 0],
  [["__complete", "status", "-"], 0],
  [["__complete", "status", "--output="], 0],
  [["__complete", "explain", "st"], 0],
  // usage errors
  [["nope"], 2],
  [["completion", "powershell"], 2],
  [["status", "--bogus"], 2],
  [["status", "a", "b"], 2],
  [["status", "-o", "table"], 2],
  [["status", "--color", "sometimes"], 2],
  [["plan"], 2],
  // the cluster
  [["status"], 0, "fake"],
  [["status", "-A"], 0, "fake"],
  [["status", "-A", "-o", "name"], 0, "fake"],
  [["status", "storefront", "-o", "yaml"], 0, "fake"],
  [["status", "orders", "-o", "json"], 0, "fake"],
  [["status", "-n", "empty"], 0, "fake"],
  [["status", "missing"], 3, "fake"],
  [["schema", "missing"], 3, "fake"],
  [["__complete", "status", ""], 0, "fake"],
  [["__complete", "-n", "other", "plan", ""], 0, "fake"],
  [["__complete", "approve", "migration", ""], 0, "fake"],
  [["plan", "storefront", "--locks"], 0, "fake"],
  [["plan", "storefront", "--locks", "-o", "json"], 0, "fake"],
  [["status"], 1, "closed"],
  [["__complete", "status", ""], 0, "closed"],
  [["status"], 1, "missing"],
];

describe.skipIf(skip)("the single executable behaves like the npm bin", () => {
  it.each(CASES.map((c) => [c[0].join(" ") + (c[2] ? ` (${c[2]} cluster)` : ""), c] as const))("kubectl ptah %s", async (_name, [args, status, cluster]) => {
    const kubeconfig = cluster ? kubeconfigs[cluster] : undefined;
    const reference = await run(process.execPath, [NPM_BIN, ...args], kubeconfig);
    expect(reference.status, reference.stderr).toBe(status);
    // The cluster cases really read: names, rows or objects came back.
    if (cluster === "fake" && status === 0 && !args.includes("empty")) expect(reference.stdout).toMatch(/storefront|orders|billing|backfill/u);
    // The lock cases really analysed: PostgreSQL's parser loaded (from the .wasm, then the SEA asset).
    if (args.includes("--locks")) expect(reference.stdout).toContain("ACCESS EXCLUSIVE on public.orders");
    const binary = await run(subject, args, kubeconfig);
    expect(binary).toEqual(reference);
  });

  it("prints nothing on stderr for the offline commands and the cluster reads that succeed", async () => {
    for (const [args, status, cluster] of CASES) {
      if (status !== 0) continue;
      expect((await run(subject, args, cluster ? kubeconfigs[cluster] : undefined)).stderr).toBe(
        args.join(" ") === "status -n empty" ? "No resources found in empty namespace.\n" : "",
      );
    }
  });

  // The binary runs the npm tree from its SEA assets through the npm bin's loader (krew/build-binary.mjs):
  // the process guard's module first, then only what the command reaches, from the same code cache.
  it("loads the process guard first and only the command's files, compiled once and then from the code cache", () => {
    const home = fs.mkdtempSync(path.join(dir, "home-"));
    const loaded = (n: number): string[][] => {
      const log = path.join(home, `loaded-${n}.log`);
      const r = spawnSync(subject, ["explain", "stale"], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: home, NO_COLOR: "1", PTAH_CODE_CACHE_LOG: log } });
      expect(r.status, r.stderr).toBe(0);
      return fs
        .readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(" "));
    };
    // A line per script compiled (a file alone or a pack: krew/packs.mjs), and `packed FILE` per file run from a pack.
    const scripts = (lines: string[][]): Set<string> => new Set(lines.filter(([outcome]) => outcome !== "packed").map(([outcome]) => outcome!));
    const first = loaded(1);
    expect(first.filter(([, file]) => !file!.endsWith(".pack"))[0]![1]!).toMatch(/[\\/]npm[\\/]process-guard\.cjs$/u);
    expect(first.some(([outcome]) => outcome === "packed")).toBe(true);
    expect(scripts(first)).toEqual(new Set(["miss"]));
    expect(first.some(([, file]) => /mcp-server|libpg-query|client-node|connection/u.test(file!))).toBe(false);
    const second = loaded(2);
    expect(second.map(([, file]) => file)).toEqual(first.map(([, file]) => file));
    expect(scripts(second)).toEqual(new Set(["hit"]));
  });
});
