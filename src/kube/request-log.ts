// kubectl's -v request log (client-go's round_trippers, klog's text format), on stderr:
//   -v=6  one line per request: "Response" verb, url, status, milliseconds
//   -v=7  a "Request" entry with the request headers before it, then "Response" status, milliseconds
//   -v=8  the response headers too, then the response body cut at 1024 characters
//   -v=9  the response body in full
// Authorization is always masked (`Bearer <masked>`, `Basic <masked>`); client keys and
// certificates are never logged; only requests are logged, so stdout is unaffected.
import { STATUS_CODES, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import { sanitize } from "../errors.ts";

export const BODY_LIMIT_AT_8 = 1024;

interface Logged {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** undefined for a stream (a watch: its events are not logged). */
  readonly body: Buffer | undefined;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** The wall clock in milliseconds, to the microsecond (Date.now() has whole milliseconds only). */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * klog's header: `I1201 09:01:00.142439   14128 file]`, to the microsecond. A "Response" line is
 * written when the answer is in, so a request ran from its header's time less its milliseconds to
 * that time: two requests in flight at once show as overlapping spans.
 */
function prefix(at: number = preciseNow()): string {
  const whole = Math.floor(at);
  const now = new Date(whole);
  const micro = pad(now.getMilliseconds() * 1000 + Math.floor((at - whole) * 1000), 6);
  const time = `${pad(now.getHours(), 2)}:${pad(now.getMinutes(), 2)}:${pad(now.getSeconds(), 2)}.${micro}`;
  return `I${pad(now.getMonth() + 1, 2)}${pad(now.getDate(), 2)} ${time} ${String(process.pid).padStart(7)} round_trippers.go]`;
}

/** Whole milliseconds since `started`, as client-go prints them (truncated). */
function elapsed(started: number): number {
  return Math.floor(performance.now() - started);
}

function quote(text: string): string {
  return JSON.stringify(sanitize(text));
}

/** A header's value as logged: credentials masked. */
export function redactHeader(name: string, value: string): string {
  if (name.toLowerCase() !== "authorization" && name.toLowerCase() !== "proxy-authorization") return value;
  const scheme = /^(\S+)\s/u.exec(value)?.[1];
  return scheme ? `${scheme} <masked>` : "<masked>";
}

function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/gu, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

function headerBlock(headers: OutgoingHttpHeaders | IncomingHttpHeaders): string {
  const lines: string[] = [];
  for (const name of Object.keys(headers).sort()) {
    const value = headers[name];
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [String(value)]) lines.push(`\t${canonical(name)}: ${sanitize(redactHeader(name, String(v)))}`);
  }
  return `headers=<\n${lines.join("\n")}\n >`;
}

function statusText(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? ""}`.trimEnd();
}

export class RequestLog {
  readonly level: number;
  private readonly write: (line: string) => void;

  constructor(level: number, write: (line: string) => void) {
    this.level = level;
    this.write = write;
  }

  /**
   * Before a request; returns its start time (performance.now(), read only when something is
   * logged: the global loads Node's perf_hooks, which no quiet run needs).
   */
  request(method: string, url: URL, headers: OutgoingHttpHeaders): number {
    if (this.level < 6) return 0;
    if (this.level >= 7) this.write(`${prefix()} "Request" verb=${quote(method)} url=${quote(url.toString())} ${headerBlock(headers)}`);
    return performance.now();
  }

  /** A request that got no response (refused, reset, timed out): kubectl logs an empty status. */
  failure(method: string, url: URL, started: number): void {
    if (this.level < 6) return;
    const where = this.level >= 7 ? "" : ` verb=${quote(method)} url=${quote(url.toString())}`;
    this.write(`${prefix()} "Response"${where} status="" milliseconds=${elapsed(started)}`);
  }

  /** After the response's headers (a stream) or its whole body. */
  response(method: string, url: URL, res: Logged, started: number): void {
    if (this.level < 6) return;
    const ms = elapsed(started);
    const where = this.level >= 7 ? "" : ` verb=${quote(method)} url=${quote(url.toString())}`;
    const headers = this.level >= 8 ? ` ${headerBlock(res.headers)}` : "";
    this.write(`${prefix()} "Response"${where} status=${quote(statusText(res.status))}${headers} milliseconds=${ms}`);
    if (this.level >= 8 && res.body !== undefined && res.body.length > 0) {
      const text = res.body.toString("utf8");
      const shown = this.level >= 9 || text.length <= BODY_LIMIT_AT_8 ? text : `${text.slice(0, BODY_LIMIT_AT_8)} [truncated ${text.length - BODY_LIMIT_AT_8} chars]`;
      this.write(`${prefix()} "Response Body" body=${quote(shown)}`);
    }
  }
}
