// kubectl's global flags as the plugin resolves them: --color with NO_COLOR and the TTY,
// --request-timeout and upstream's --timeout, Go durations, and usage errors (exit 2).
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import { GLOBAL_FLAGS, parseDuration, resolveColor, toGlobalOptions, type GlobalFlagValues } from "../../src/cli/global-flags.ts";
import { FakeReader } from "../support/fake-reader.ts";
import { runCliWith } from "../support/cli.ts";
import { awaitingSchema } from "../support/builders.ts";

const tty = { stdoutIsTTY: true, env: {} };
const pipe = { stdoutIsTTY: false, env: {} };

// Each row as kubectl 1.33 reads --request-timeout (clientcmd.ParseTimeout: a non-negative
// integer is seconds, else Go's time.ParseDuration), seen with `kubectl.1.33 get pods
// --request-timeout=…` (the ?timeout= it sends, or its refusal); in ms for a timer.
describe("parseDuration", () => {
  it.each([
    { name: "seconds", text: "30s", ms: 30_000 },
    { name: "minutes", text: "1m", ms: 60_000 },
    { name: "fractional hours", text: "1.5h", ms: 5_400_000 },
    { name: "hours and minutes", text: "2h45m", ms: 9_900_000 },
    { name: "minutes and seconds", text: "1m30s", ms: 90_000 },
    { name: "Go's own zero-padded form", text: "1h0m0s", ms: 3_600_000 },
    { name: "milliseconds", text: "300ms", ms: 300 },
    { name: "a fraction without a leading digit (kubectl sends timeout=500ms)", text: ".5s", ms: 500 },
    { name: "a point without a fraction (kubectl: 5s)", text: "5.s", ms: 5_000 },
    { name: "a unit given twice adds up (kubectl: 2h0m0s)", text: "1h1h", ms: 7_200_000 },
    { name: "microseconds round up to whole milliseconds", text: "1500us", ms: 2 },
    { name: "a positive duration below 1 ms is 1 ms, never 0 (no timeout)", text: "1.5\u00b5s", ms: 1 },
    { name: "the Greek mu is Go's too", text: "1\u03bcs", ms: 1 },
    { name: "a bare integer is seconds, as kubectl's --request-timeout reads it", text: "45", ms: 45_000 },
    { name: "a bare integer with a plus sign (strconv.ParseInt)", text: "+5", ms: 5_000 },
    { name: "a zero-padded integer", text: "00", ms: 0 },
    { name: "a bare zero means no timeout", text: "0", ms: 0 },
    { name: "a signed zero (Go's special case)", text: "-0", ms: 0 },
    { name: "zero with a unit", text: "0s", ms: 0 },
    { name: "a negative duration (kubectl sends timeout=-1s; each flag says what it means)", text: "-1s", ms: -1 },
    { name: "Go's longest duration, capped to the longest timer", text: "2562047h", ms: 2 ** 31 - 1 },
  ])("reads $name", ({ text, ms }) => {
    expect(parseDuration(text, "request-timeout")).toBe(ms);
  });

  it.each([
    { name: "an empty value", text: "", why: "invalid duration" },
    { name: "a word", text: "soon", why: "invalid duration" },
    { name: "an unknown unit", text: "5x", why: 'unknown unit "x"' },
    { name: "days (Go has no such unit)", text: "1d", why: 'unknown unit "d"' },
    { name: "a negative bare integer (kubectl refuses it)", text: "-5", why: "missing unit" },
    { name: "a unit without a number", text: "s", why: "invalid duration" },
    { name: "a point alone", text: ".", why: "invalid duration" },
    { name: "an exponent (kubectl refuses it)", text: "1e3s", why: 'unknown unit "e"' },
    { name: "a trailing number without a unit", text: "1m30", why: "missing unit" },
    { name: "two decimal points", text: "1.5.5s", why: "missing unit" },
    { name: "surrounding blanks (kubectl refuses them)", text: " 5s ", why: "invalid duration" },
    { name: "more than int64 nanoseconds (kubectl refuses it)", text: "9999999999h", why: "invalid duration" },
  ])("refuses $name as a usage error naming the flag and Go's reason", ({ text, why }) => {
    expect(() => parseDuration(text, "request-timeout")).toThrow(UsageError);
    expect(() => parseDuration(text, "request-timeout")).toThrow(`invalid duration ${JSON.stringify(text)} for --request-timeout: ${why}; give seconds (45) or Go's form (`);
  });
});

describe("resolveColor", () => {
  it.each([
    { name: "auto colours a terminal", mode: "auto", terminal: tty, color: true },
    { name: "auto does not colour a pipe", mode: "auto", terminal: pipe, color: false },
    { name: "auto honours NO_COLOR on a terminal", mode: "auto", terminal: { stdoutIsTTY: true, env: { NO_COLOR: "1" } }, color: false },
    { name: "an empty NO_COLOR does not disable colour (no-color.org)", mode: "auto", terminal: { stdoutIsTTY: true, env: { NO_COLOR: "" } }, color: true },
    { name: "auto does not colour a dumb terminal", mode: "auto", terminal: { stdoutIsTTY: true, env: { TERM: "dumb" } }, color: false },
    { name: "always colours a pipe", mode: "always", terminal: pipe, color: true },
    { name: "always wins over NO_COLOR (an explicit flag overrides it)", mode: "always", terminal: { stdoutIsTTY: false, env: { NO_COLOR: "1" } }, color: true },
    { name: "never does not colour a terminal", mode: "never", terminal: tty, color: false },
  ])("$name", ({ mode, terminal, color }) => {
    expect(resolveColor(mode, terminal)).toBe(color);
  });

  it.each(["yes", "true", "", "AUTO"])("refuses --color=%j as a usage error", (mode) => {
    expect(() => resolveColor(mode, tty)).toThrow(UsageError);
  });
});

describe("toGlobalOptions", () => {
  it.each<{ name: string; values: GlobalFlagValues; timeoutIsRequestTimeout?: boolean; expected: Record<string, unknown> }>([
    {
      name: "defaults: no namespace, 30s request timeout, colour off in a pipe",
      values: {},
      expected: {
        kubeconfig: undefined,
        context: undefined,
        namespace: undefined,
        allNamespaces: false,
        output: undefined,
        selector: undefined,
        noHeaders: false,
        color: false,
        requestTimeoutMs: 30_000,
      },
    },
    { name: "--request-timeout sets the request timeout", values: { "request-timeout": "1m" }, expected: { requestTimeoutMs: 60_000 } },
    { name: "--timeout is an alias of --request-timeout", values: { timeout: "5s" }, expected: { requestTimeoutMs: 5_000 } },
    { name: "--timeout and --request-timeout may agree", values: { timeout: "5s", "request-timeout": "5s" }, expected: { requestTimeoutMs: 5_000 } },
    { name: "wait keeps --timeout for itself", values: { timeout: "5m" }, timeoutIsRequestTimeout: false, expected: { requestTimeoutMs: 30_000 } },
    { name: "0 waits forever", values: { "request-timeout": "0" }, expected: { requestTimeoutMs: 0 } },
    { name: "a negative --request-timeout is none, as kubectl's client ignores it", values: { "request-timeout": "-1s" }, expected: { requestTimeoutMs: 0 } },
    { name: "an empty --request-timeout is unset (kubectl's reading): the default", values: { "request-timeout": "" }, expected: { requestTimeoutMs: 30_000 } },
    { name: "--request-timeout=.5s (Go's form, kubectl sends timeout=500ms)", values: { "request-timeout": ".5s" }, expected: { requestTimeoutMs: 500 } },
    { name: "-v=-1 is klog's level -1 (kubectl 1.33 accepts it; nothing is logged)", values: { v: "-1" }, expected: { verbosity: -1 } },
    { name: "-v=+2 (strconv.ParseInt takes a sign)", values: { v: "+2" }, expected: { verbosity: 2 } },
    { name: "-v=2147483647, int32's largest", values: { v: "2147483647" }, expected: { verbosity: 2 ** 31 - 1 } },
    {
      name: "-n, -A, -o, -l and --no-headers pass through",
      values: { namespace: "ops", "all-namespaces": true, output: "wide", selector: "app=shop", "no-headers": true },
      expected: { namespace: "ops", allNamespaces: true, output: "wide", selector: "app=shop", noHeaders: true },
    },
    { name: "an empty --kubeconfig or --context counts as unset", values: { kubeconfig: "", context: "" }, expected: { kubeconfig: undefined, context: undefined } },
    { name: "--color=always colours a pipe", values: { color: "always" }, expected: { color: true } },
  ])("$name", ({ values, timeoutIsRequestTimeout, expected }) => {
    expect(toGlobalOptions(values, pipe, timeoutIsRequestTimeout ?? true)).toMatchObject(expected);
  });

  // Every default is stated once, in the table help prints: leaving a flag out resolves exactly as
  // giving the table's default does.
  it.each(GLOBAL_FLAGS.filter((f) => "default" in f).map((f) => [f.name, f] as const))("leaving out --%s resolves as its stated default", (name, f) => {
    const given = { [name]: (f as { default: string }).default } as GlobalFlagValues;
    expect(toGlobalOptions({}, tty, true)).toEqual(toGlobalOptions(given, tty, true));
  });

  it.each<{ name: string; values: GlobalFlagValues; message: RegExp }>([
    { name: '-n ""', values: { namespace: "" }, message: /namespace given with -n must not be empty/u },
    { name: "-n given twice", values: { namespace: ["a", "b"] }, message: /--namespace given more than once/u },
    { name: "--timeout and --request-timeout that disagree", values: { timeout: "5s", "request-timeout": "10s" }, message: /disagree/u },
    { name: "a bad --request-timeout", values: { "request-timeout": "fast" }, message: /invalid duration "fast" for --request-timeout/u },
    { name: "a bad --timeout, naming --timeout", values: { timeout: "fast" }, message: /invalid duration "fast" for --timeout/u },
    { name: "a bad --color", values: { color: "sometimes" }, message: /invalid --color "sometimes"/u },
    // kubectl 1.33's lines for `-v=x` and `-v=99999999999`, word for word.
    { name: "-v=x", values: { v: "x" }, message: /^invalid argument "x" for "-v, --v" flag: strconv\.ParseInt: parsing "x": invalid syntax$/u },
    {
      name: "-v beyond int32",
      values: { v: "99999999999" },
      message: /^invalid argument "99999999999" for "-v, --v" flag: strconv\.ParseInt: parsing "99999999999": value out of range$/u,
    },
    { name: "-v=2147483648", values: { v: "2147483648" }, message: /value out of range$/u },
    { name: "-v=1.5", values: { v: "1.5" }, message: /parsing "1\.5": invalid syntax$/u },
  ])("refuses $name (exit 2)", ({ values, message }) => {
    let caught: unknown;
    try {
      toGlobalOptions(values, pipe, true);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).exitStatus).toBe(2);
    expect((caught as Error).message).toMatch(message);
  });
});

describe("global flags through the real CLI", () => {
  const cluster = () => new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);

  it.each([
    {
      name: "a bad --color",
      argv: ["status", "--color=sometimes"],
      stderr: "error: invalid --color \"sometimes\": use auto, always or never (see 'kubectl ptah status -h' for help and examples)\n",
    },
    {
      name: "a bad --request-timeout",
      argv: ["status", "--request-timeout", "fast"],
      stderr:
        "error: invalid duration \"fast\" for --request-timeout: invalid duration; give seconds (45) or Go's form (30s, 1.5m, 2h45m, .5s; units ns, us, ms, s, m, h) (see 'kubectl ptah status -h' for help and examples)\n",
    },
    { name: "an empty -n", argv: ["status", "-n", ""], stderr: "error: a namespace given with -n must not be empty (see 'kubectl ptah status -h' for help and examples)\n" },
    { name: "an unknown flag", argv: ["status", "--colour=always"], stderr: "error: unknown flag: --colour (see 'kubectl ptah status -h' for help and examples)\n" },
    { name: "a value flag without its value", argv: ["status", "-n"], stderr: "error: flag needs an argument: 'n' in -n (see 'kubectl ptah status -h' for help and examples)\n" },
  ])("$name exits 2 with one line and nothing on stdout", async ({ argv, stderr }) => {
    const reader = cluster();
    const r = await runCliWith(argv, reader);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(stderr);
    expect(reader.requests).toEqual([]);
  });

  it("--color=always colours the table even in a pipe, and the words stay the same", async () => {
    const plain = await runCliWith(["status", "-n", "app"], cluster());
    const coloured = await runCliWith(["status", "-n", "app", "--color=always"], cluster());
    expect(coloured.stdout).toMatch(/\u001b\[\d+m/u);
    expect(coloured.stdout.replace(/\u001b\[\d+m/gu, "")).toBe(plain.stdout);
  });

  it("NO_COLOR keeps a terminal plain under --color=auto", async () => {
    const r = await runCliWith(["status", "-n", "app"], cluster(), { tty: true, env: { NO_COLOR: "1" } });
    expect(r.stdout).not.toMatch(/\u001b/u);
    const coloured = await runCliWith(["status", "-n", "app"], cluster(), { tty: true, env: {} });
    expect(coloured.stdout).toMatch(/\u001b\[\d+m/u);
  });

  it("flags may follow the positional name", async () => {
    const r = await runCliWith(["status", "storefront", "-n", "app", "-o", "jsonpath={.metadata.name}"], cluster());
    expect(r).toMatchObject({ status: 0, stdout: "storefront" });
  });
});
