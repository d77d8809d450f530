// A long-running oracle (test/oracle/<name>, one JSON line in, one JSON line out) asked
// synchronously: fixtures such as test/support/publish-plan.ts compute in plain synchronous code,
// called thousands of times a run, where a process per call costs ~3 ms. A worker thread owns the
// oracle's process and its pipes; the caller posts a line and sleeps on a shared flag
// (Atomics.wait) until the worker has the answer, then takes it from the port at once
// (receiveMessageOnPort). One process and one worker per name, per test worker.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { buildOracle } from "./build.ts";

const WORKER = `
const { workerData } = require("node:worker_threads");
const { spawn } = require("node:child_process");
const { bin, args, port, flag } = workerData;
const child = spawn(bin, args, { stdio: ["pipe", "pipe", "inherit"] });
child.stdout.setEncoding("utf8");
let pending = "";
const answer = (msg) => { port.postMessage(msg); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
child.stdout.on("data", (chunk) => {
  pending += chunk;
  for (let nl = pending.indexOf("\\n"); nl >= 0; nl = pending.indexOf("\\n")) {
    answer({ line: pending.slice(0, nl) });
    pending = pending.slice(nl + 1);
  }
});
child.on("exit", (code) => answer({ error: "the oracle exited (" + code + ")" }));
child.on("error", (err) => answer({ error: err.message }));
port.on("message", (line) => child.stdin.write(line + "\\n"));
`;

interface Oracle {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly flag: Int32Array;
}

const oracles = new Map<string, Oracle>();

function start(name: string, args: readonly string[]): Oracle {
  const key = `${name}\0${args.join("\0")}`;
  const running = oracles.get(key);
  if (running) return running;
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER, { eval: true, workerData: { bin: buildOracle(name), args, port: port2, flag }, transferList: [port2] });
  worker.unref();
  port1.unref();
  const oracle = { worker, port: port1, flag };
  oracles.set(key, oracle);
  return oracle;
}

/** The oracle `name`'s answer to one input, synchronously, from one long-running process. */
export function askOracleSync<A>(name: string, input: unknown, args: readonly string[] = []): A {
  const o = start(name, args);
  Atomics.store(o.flag, 0, 0);
  o.port.postMessage(JSON.stringify(input));
  if (Atomics.wait(o.flag, 0, 0, 30_000) === "timed-out") throw new Error(`test/oracle/${name} did not answer in 30 s`);
  const got = receiveMessageOnPort(o.port)?.message as { line?: string; error?: string } | undefined;
  if (!got?.line) throw new Error(`test/oracle/${name}: ${got?.error ?? "no answer"}`);
  return JSON.parse(got.line) as A;
}
