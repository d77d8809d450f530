// A long-running oracle (test/oracle/<name>, one JSON line in, one JSON line out) asked
// synchronously: fixtures such as test/support/publish-plan.ts compute in plain synchronous code,
// called thousands of times a run, where a process per call costs ~3 ms. A worker thread owns the
// oracle's process and its pipes; the caller posts a line and sleeps on a shared flag
// (Atomics.wait) until the worker has the answer, then takes it from the port at once
// (receiveMessageOnPort). One process and one worker per name, per test worker. Each question
// carries a number the worker puts on its answer (the oracle answers in order), so an answer that
// arrives after its caller gave up is recognised and dropped, never taken for the next one's; an
// oracle that did not answer in time is stopped, and the next question starts a new one.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { buildOracle } from "./build.ts";

const WORKER = `
const { workerData } = require("node:worker_threads");
const { spawn } = require("node:child_process");
const { bin, args, port, flag } = workerData;
const child = spawn(bin, args, { stdio: ["pipe", "pipe", "inherit"] });
child.stdout.setEncoding("utf8");
let pending = "";
const ids = [];
const answer = (msg) => { port.postMessage(msg); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
child.stdout.on("data", (chunk) => {
  pending += chunk;
  for (let nl = pending.indexOf("\\n"); nl >= 0; nl = pending.indexOf("\\n")) {
    answer({ id: ids.shift(), line: pending.slice(0, nl) });
    pending = pending.slice(nl + 1);
  }
});
child.on("exit", (code) => answer({ error: "the oracle exited (" + code + ")" }));
child.on("error", (err) => answer({ error: err.message }));
port.on("message", (m) => { ids.push(m.id); child.stdin.write(m.line + "\\n"); });
`;

interface Oracle {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly flag: Int32Array;
  /** The number of the last question asked. */
  asked: number;
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
  const oracle: Oracle = { worker, port: port1, flag, asked: 0 };
  oracles.set(key, oracle);
  return oracle;
}

/** The oracle `name`'s answer to one input, synchronously, from one long-running process. */
export function askOracleSync<A>(name: string, input: unknown, args: readonly string[] = []): A {
  const key = `${name}\0${args.join("\0")}`;
  const o = start(name, args);
  const id = ++o.asked;
  Atomics.store(o.flag, 0, 0);
  o.port.postMessage({ id, line: JSON.stringify(input) });
  const deadline = Date.now() + 30_000;
  for (;;) {
    // Every message waiting is read before sleeping, so a signal reset below loses no answer.
    const got = receiveMessageOnPort(o.port)?.message as { id?: number; line?: string; error?: string } | undefined;
    if (got?.error !== undefined) throw new Error(`test/oracle/${name}: ${got.error}`);
    if (got?.id === id && got.line !== undefined) return JSON.parse(got.line) as A;
    if (got) continue; // an answer to a question whose caller gave up
    const left = deadline - Date.now();
    if (left <= 0) {
      oracles.delete(key);
      void o.worker.terminate();
      throw new Error(`test/oracle/${name} did not answer in 30 s`);
    }
    Atomics.wait(o.flag, 0, 0, left);
    Atomics.store(o.flag, 0, 0);
  }
}
