// Running one command of the bench: wall time, peak RSS and the HTTP requests it sent (the lab's
// audit log between byte offsets, by user agent); and one case: every side of it interleaved.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

export function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function runSync(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  return r;
}

export const HAVE_TIME = (() => {
  try {
    return runSync("/usr/bin/time", ["-f", "%M", "true"]).status === 0;
  } catch {
    return false;
  }
})();

export const RSS_METHOD = HAVE_TIME ? "/usr/bin/time -f %M (max RSS of the command's process tree)" : "/proc/<pid>/status VmRSS polled every 5 ms over the process tree";

// ---------------------------------------------------------------------------------------------
// the audit log

function auditSize(file) {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function auditEventsSince(file, offset) {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - offset));
    let read = 0;
    while (read < buf.length) {
      const n = fs.readSync(fd, buf, read, buf.length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    const byId = new Map();
    for (const line of buf.subarray(0, read).toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      let ev;
      try {
        ev = JSON.parse(line);
      } catch {
        continue;
      }
      if (ev && typeof ev.auditID === "string" && !byId.has(ev.auditID)) byId.set(ev.auditID, ev);
    }
    return [...byId.values()];
  } finally {
    fs.closeSync(fd);
  }
}

/** Who sent a request, by user agent: plugin, floor (floor.mjs), kubectl, dispatcher, seed. */
function classify(userAgent = "") {
  if (userAgent.startsWith("kubectl-ptah-floor/")) return "floor";
  if (userAgent.startsWith("kubectl-ptah/")) return "plugin";
  if (userAgent.startsWith("kubectl-dispatcher/")) return "dispatcher";
  if (userAgent.startsWith("kubectl")) return "kubectl";
  if (userAgent.startsWith("ptah-bench-seed/")) return "seed";
  return "other";
}

function describeRequest(ev) {
  const r = ev.objectRef;
  if (!r?.resource) return `${ev.verb} ${ev.requestURI.split("?")[0]}`;
  return `${ev.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ""}`;
}

function summariseRequests(events) {
  const byAgent = {};
  const byRequest = {};
  for (const ev of events) {
    const who = classify(ev.userAgent);
    if (who === "seed") continue;
    byAgent[who] = (byAgent[who] ?? 0) + 1;
    const key = `${who}: ${describeRequest(ev)}`;
    byRequest[key] = (byRequest[key] ?? 0) + 1;
  }
  return { byAgent, byRequest };
}

// ---------------------------------------------------------------------------------------------
// one process

/** Peak RSS of a process tree by polling /proc (fallback when /usr/bin/time is missing). */
function pollRss(rootPid) {
  let peakKb = 0;
  const tick = () => {
    let total = 0;
    const stack = [rootPid];
    const seen = new Set();
    while (stack.length) {
      const pid = stack.pop();
      if (seen.has(pid)) continue;
      seen.add(pid);
      try {
        const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (m) total += Number(m[1]);
        for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
          const kids = fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim();
          if (kids) stack.push(...kids.split(/\s+/).map(Number));
        }
      } catch {
        /* gone */
      }
    }
    peakKb = Math.max(peakKb, total);
  };
  const timer = setInterval(tick, 5);
  tick();
  return () => {
    clearInterval(timer);
    return peakKb;
  };
}

export async function runOnce(argv, ctx, { capture = false } = {}) {
  const timeFile = path.join(ctx.tmp, "time.out");
  fs.rmSync(timeFile, { force: true });
  const [cmd, ...args] = HAVE_TIME ? ["/usr/bin/time", "-f", "%M", "-o", timeFile, ...argv] : argv;
  const stdoutFile = capture ? path.join(ctx.tmp, "stdout.out") : "/dev/null";
  const out = fs.openSync(stdoutFile, "w");
  const mark = auditSize(ctx.lab.auditLog);
  let stderr = "";
  const start = performance.now();
  const child = spawn(cmd, args, { env: ctx.env, stdio: ["ignore", out, "pipe"] });
  const stopPoll = HAVE_TIME ? undefined : pollRss(child.pid);
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c, sig) => resolve(c ?? (sig ? 128 : 1)));
  });
  const ms = performance.now() - start;
  fs.closeSync(out);
  let rssKb = stopPoll?.() ?? NaN;
  if (HAVE_TIME) {
    const lines = fs.readFileSync(timeFile, "utf8").trim().split("\n");
    rssKb = Number(lines[lines.length - 1]);
  }
  const requests = ctx.countRequests === false ? { byAgent: {}, byRequest: {} } : summariseRequests(auditEventsSince(ctx.lab.auditLog, mark));
  const stdoutBytes = capture ? fs.statSync(stdoutFile).size : undefined;
  return { ms, rssKb, code, stderr, requests, stdoutBytes };
}

// ---------------------------------------------------------------------------------------------
// one case: the plugin and every reference, interleaved

function record(rec, x, spec) {
  rec.samplesMs.push(round(x.ms, 1));
  rec.rssKb.push(x.rssKb);
  rec.requests.push(spec.agent ? (x.requests.byAgent[spec.agent] ?? 0) : 0);
  rec.requestDetail = x.requests.byRequest;
}

/**
 * One warm-up per side, then `runs` rounds; each round runs every side once, the order rotated
 * from round to round so drift in the machine's load hits all sides alike. `c.sides` maps a side
 * name (plugin, floor, kubectl, node, pipeline, …) to { argv, display, agent, check }.
 */
export async function measureCase(c, ctx) {
  const names = Object.keys(c.sides);
  const result = { id: c.id, group: c.group, label: c.label, goals: c.goals, expectedRequests: c.expectedRequests, sides: {} };
  for (const name of names) {
    const spec = c.sides[name];
    const warm = await runOnce(spec.argv, ctx, { capture: true });
    const problem = warm.code !== 0 ? `exit ${warm.code}: ${warm.stderr.trim().split("\n")[0] ?? ""}` : spec.check?.(warm);
    const rec = { command: spec.display, argv: spec.argv, samplesMs: [], rssKb: [], requests: [], stdoutBytes: warm.stdoutBytes, error: problem || undefined, over: spec.over };
    result.sides[name] = rec;
    // One run only (--quick's 8 MiB cases): that run is the sample, there is no separate warm-up.
    if ((c.runs ?? ctx.runs) === 1 && !problem) record(rec, warm, spec);
  }
  const runs = c.runs ?? ctx.runs;
  result.runs = runs;
  for (let r = runs === 1 ? 1 : 0; r < runs; r++) {
    const order = names.map((_, i) => names[(i + r) % names.length]);
    for (const name of order) {
      const rec = result.sides[name];
      if (rec.error) continue;
      const x = await runOnce(c.sides[name].argv, ctx);
      if (x.code !== 0) {
        rec.error = `exit ${x.code} in run ${r + 1}: ${x.stderr.trim().split("\n")[0] ?? ""}`;
        continue;
      }
      record(rec, x, c.sides[name]);
    }
  }
  for (const rec of Object.values(result.sides)) {
    rec.medianMs = rec.samplesMs.length ? round(median(rec.samplesMs), 1) : null;
    rec.peakRssMb = rec.rssKb.length ? round(Math.max(...rec.rssKb) / 1024, 1) : null;
    rec.requestCount = rec.requests.length ? Math.max(...rec.requests) : null;
  }
  const plugin = result.sides.plugin;
  result.ratios = {};
  for (const name of names.filter((n) => n !== "plugin")) {
    const ref = result.sides[name];
    // `over`: the side over the plugin (the single binary against the npm bin), not the plugin over it.
    const [a, b] = ref.over ? [ref, plugin] : [plugin, ref];
    result.ratios[name] = a.medianMs && b.medianMs ? round(a.medianMs / b.medianMs, 2) : null;
  }
  result.requestsHeld = c.expectedRequests === undefined || plugin.requestCount === null ? null : plugin.requestCount === c.expectedRequests;
  return result;
}
