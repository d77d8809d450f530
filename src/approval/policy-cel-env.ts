// The CEL of Kubernetes' admission, as far as the plugin evaluates it: @marcbachmann/cel-js (the
// CEL spec's macros, timestamps with IANA zones, the string extension's split/join/trim/substring)
// plus what Kubernetes' environment adds that the library lacks — the string extension's
// replace, and string(timestamp) in Go's RFC 3339 form. Loaded on first use only: a command that
// reads no policy never loads the library (docs/performance.md). An expression that uses anything
// else (the authorizer, a function the library does not know) fails to evaluate, and the verdict
// says it cannot be predicted instead of guessing.
import type { Environment } from "@marcbachmann/cel-js";

/** One compiled expression: evaluates against a context, throws on any CEL error. */
export type Compiled = (context: Record<string, unknown>) => unknown;

export interface Cel {
  compile(expression: string): Compiled;
}

/** Go's time.RFC3339Nano: fractional seconds without trailing zeros, none at all when zero. */
export function rfc3339(t: Date): string {
  return t.toISOString().replace(/\.(\d*?)0*Z$/u, (_, digits: string) => (digits === "" ? "Z" : `.${digits}Z`));
}

let loaded: Promise<Cel> | undefined;

/** The evaluator, loaded on its first use and kept. */
export function loadCel(): Promise<Cel> {
  loaded ??= import("@marcbachmann/cel-js").then((m) => celOf(new m.Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false })));
  return loaded;
}

function celOf(base: Environment): Cel {
  const env = base
    // Kubernetes' strings extension replaces every occurrence (and, with a count, the first n).
    .registerFunction("string.replace(string, string): string", (s: string, from: string, to: string) => s.replaceAll(from, to))
    .registerFunction("string.replace(string, string, int): string", (s: string, from: string, to: string, n: bigint) => replaceN(s, from, to, n))
    .registerFunction("string(google.protobuf.Timestamp): string", (t: Date) => rfc3339(t));
  const cache = new Map<string, Compiled>();
  return {
    compile(expression) {
      const hit = cache.get(expression);
      if (hit) return hit;
      const parsed = env.parse(expression);
      const compiled: Compiled = (context) => withZoneFormats((): unknown => parsed(context));
      cache.set(expression, compiled);
      return compiled;
    },
  };
}

/**
 * The library reads a timestamp's fields in a zone through `toLocaleString("en-US", {timeZone})`,
 * which builds a new formatter on every call (a tenth of a millisecond: a week of minutes for a
 * window's next opening took seconds). While an expression evaluates, that one call form is
 * answered by a formatter kept per zone, with the same text (test/approval/policy-cel-env.test.ts);
 * every other call goes to the original.
 */
const FORMATS = new Map<string, Intl.DateTimeFormat>();
const ORIGINAL: (this: Date, locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) => string = Object.getOwnPropertyDescriptor(Date.prototype, "toLocaleString")!
  .value as never;
const FIELDS = { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit" } as const;

function zoneFormat(this: Date, locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions): string {
  const zone = options?.timeZone;
  if (locales !== "en-US" || zone === undefined || Object.keys(options ?? {}).length !== 1) return ORIGINAL.call(this, locales, options);
  let f = FORMATS.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, ...FIELDS });
    if (FORMATS.size < 64) FORMATS.set(zone, f);
  }
  return f.format(this);
}

function withZoneFormats<T>(run: () => T): T {
  // Only for the evaluation's duration, restored in finally.
  Date.prototype.toLocaleString = zoneFormat;
  try {
    return run();
  } finally {
    Date.prototype.toLocaleString = ORIGINAL;
  }
}

function replaceN(s: string, from: string, to: string, n: bigint): string {
  if (n < 0n) return s.replaceAll(from, to);
  let out = s;
  let at = 0;
  for (let i = 0n; i < n; i++) {
    const k = out.indexOf(from, at);
    if (k < 0) break;
    out = out.slice(0, k) + to + out.slice(k + from.length);
    at = k + to.length + (from === "" ? 1 : 0);
  }
  return out;
}
