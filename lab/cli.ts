// The lab's command line (lab/lab.mjs bundles this module and calls run()):
//   start (default), stop, status, env, stop-apiserver, start-apiserver.
// Only the export line goes to stdout (so `eval "$(npm run -s lab)"` works); progress and errors
// go to stderr. Exit codes: 0 ok, 1 a step failed (the message names the step and its log
// file), 2 usage, 3 not running (status/env/…-apiserver), 4 the toolchain needed for the first
// build is missing.
import fs from "node:fs";
import path from "node:path";
import { ADMIN_CONTEXT, USERS, labContext, type LabContext } from "./config.ts";
import { apiserverVersion, restartApiserver, restartable, stopApiserverOnly } from "./apiserver.ts";
import { ensureBinaries } from "./binaries.ts";
import { LabError, say } from "./errors.ts";
import { etcdUrl, etcdVersion } from "./etcd.ts";
import { freePorts } from "./net.ts";
import { postgresShell } from "./postgres-service.ts";
import { ensurePki } from "./pki.ts";
import { checkServices, refreshServices, startServices, stopLeftovers, stopServices, wipeServices } from "./services.ts";
import { newState, readState, withLock, type LabState } from "./state.ts";

const COMMANDS: Record<string, (lab: LabContext) => Promise<number>> = {
  start,
  stop,
  status,
  env,
  "stop-apiserver": stopApiserver,
  "start-apiserver": startApiserver,
};

function usage(): string {
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

/** Runs one lab command for the repository at `repo`; resolves with the exit code. */
export async function run(argv: readonly string[], repo: string): Promise<number> {
  const cmd = argv[0] ?? "start";
  const help = ["-h", "--help", "help"].includes(cmd);
  if (argv.length > 1 || help) {
    process.stderr.write(usage());
    return help ? 0 : 2;
  }
  const command = COMMANDS[cmd];
  if (!command) {
    process.stderr.write(`lab: unknown command "${cmd}"\n${usage()}`);
    return 2;
  }
  try {
    return await command(labContext(repo));
  } catch (err) {
    if (err instanceof LabError) {
      process.stderr.write(`lab: step "${err.step}" failed: ${err.message}\n`);
      if (err.logFile) process.stderr.write(`lab: see ${err.logFile}\n`);
      return err.code;
    }
    process.stderr.write(`lab: ${(err as Error | undefined)?.stack ?? String(err)}\n`);
    return 1;
  }
}

function exportLine(lab: LabContext, state: LabState): string {
  return `export KUBECONFIG=${shellQuote(state.kubeconfig)}\n${postgresShell.exports(lab)}`;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Reuses a healthy recorded lab (bringing its services up to date), else starts one from scratch. */
async function start(lab: LabContext): Promise<number> {
  const state = await withLock(lab, async () => {
    const recorded = readState(lab);
    if (recorded) {
      const reason = await checkServices(lab, recorded);
      if (!reason) {
        await refreshServices(lab, recorded);
        return recorded;
      }
      say(`the recorded lab is not healthy (${reason}); restarting it`);
      await stopServices(lab, recorded);
      wipeServices(lab);
    } else {
      await stopLeftovers(lab);
    }
    return freshStart(lab);
  });
  process.stdout.write(exportLine(lab, state));
  return 0;
}

async function freshStart(lab: LabContext): Promise<LabState> {
  const t0 = Date.now();
  const binDir = await ensureBinaries(lab);
  wipeServices(lab);
  fs.rmSync(lab.paths.logs.apply, { force: true });
  await ensurePki(lab);
  const [etcd, etcdPeer, apiserver] = (await freePorts(3)) as [number, number, number];
  const state = newState(lab, binDir, { etcd, etcdPeer, apiserver });
  await startServices(lab, state);
  say(`ready in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${state.server} (contexts ${USERS.map((u) => u.name).join(", ")})`);
  return state;
}

async function stop(lab: LabContext): Promise<number> {
  return withLock(lab, async () => {
    const state = readState(lab);
    if (!state) {
      await stopLeftovers(lab);
      wipeServices(lab);
      say("the lab is not running");
      return 0;
    }
    await stopServices(lab, state);
    wipeServices(lab);
    say("stopped; etcd data wiped");
    return 0;
  });
}

async function status(lab: LabContext): Promise<number> {
  const state = readState(lab);
  if (!state) {
    process.stdout.write(`not running (no ${path.relative(process.cwd(), lab.paths.state) || lab.paths.state}); start it with: npm run lab\n`);
    return 3;
  }
  const reason = await checkServices(lab, state);
  if (reason) {
    process.stdout.write(`not running: ${reason}; start it again with: npm run lab\n`);
    return 3;
  }
  const pids = Object.entries(state.pids)
    .map(([k, p]) => `${k}=${p}`)
    .join(" ");
  process.stdout.write(
    [
      "running",
      `server:         ${state.server}`,
      `kubeconfig:     ${state.kubeconfig}`,
      `contexts:       ${Object.values(state.contexts).join(", ")} (current: ${ADMIN_CONTEXT})`,
      `kube-apiserver: ${await apiserverVersion(state)}`,
      `etcd:           ${await etcdVersion(state)} (${etcdUrl(state)})`,
      `postgres:       ${postgresShell.status(lab)}`,
      `pids:           ${pids}`,
      `audit log:      ${state.auditLog}`,
      `binaries:       ${state.binDir}`,
      `started:        ${state.startedAt}`,
      "",
    ].join("\n"),
  );
  return 0;
}

async function env(lab: LabContext): Promise<number> {
  const state = readState(lab);
  const reason = state ? await checkServices(lab, state) : "not started";
  if (!state || reason) {
    process.stderr.write(`lab: not running (${reason}); start it with: npm run lab\n`);
    return 3;
  }
  process.stdout.write(exportLine(lab, state));
  return 0;
}

async function stopApiserver(lab: LabContext): Promise<number> {
  return withLock(lab, async () => {
    const state = readState(lab);
    if (!state) {
      process.stderr.write("lab: not running; start it with: npm run lab\n");
      return 3;
    }
    await stopApiserverOnly(lab, state);
    return 0;
  });
}

async function startApiserver(lab: LabContext): Promise<number> {
  return withLock(lab, async () => {
    const state = readState(lab);
    if (!restartable(state)) {
      process.stderr.write("lab: not running (or started before stop-apiserver existed); start it with: npm run lab\n");
      return 3;
    }
    await restartApiserver(lab, state);
    return 0;
  });
}
