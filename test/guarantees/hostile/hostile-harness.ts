// Runs the real CLI in-process over a FakeReader holding hostile objects, and checks every
// answer against the plugin's output contract:
// - runCli resolves; the exit status is 0, 1, 2 or 3; nothing is an internal error;
// - a failure is exactly one `error: …` line on stderr and an empty stdout;
// - a success writes nothing to stderr but kubectl's informational lines and `Warning:` lines;
// - human output (text views, -o name, -o jsonpath, stderr, streamed watch output) holds no raw
//   control character: no C0 but the line break (and the tab inside SQL), no DEL, no C1, no ESC,
//   no bidi override or isolate, no line or paragraph separator — with --color=always, only the
//   plugin's own colour sequences;
// - JSON and YAML parse back (to exactly the objects served, where the view prints them as served)
//   and carry no raw DEL, C1, bidi or separator either: they are escaped.
import yaml from "js-yaml";
import { isDeepStrictEqual } from "node:util";
import type { ClusterReader } from "../../../src/kube/types.ts";
import { runCliWith } from "../../support/cli.ts";

/** What a human may see: the line break only (and the tab where `allowTab`). */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
const UNSAFE_NO_TAB = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
/** The plugin's own palette (src/render/color.ts): the only escape sequences --color=always may add. */
const PALETTE = /\u001b\[(?:31|32|33|36|90|1|22|39)m/gu;

export type Expect =
  /** A human view. `report`: a refusal prints its report of checks on stdout (plan --verify). */
  | { readonly kind: "text"; readonly allowTab?: boolean; readonly color?: boolean; readonly report?: boolean }
  /** -o json: parses; `equals` (when given) is what it must parse back to. */
  | { readonly kind: "json"; readonly equals?: () => unknown; readonly lines?: boolean }
  | { readonly kind: "yaml"; readonly equals?: () => unknown }
  /** Bytes meant for a pipe (plan -o sql / -o json when not a terminal): only the exit contract. */
  | { readonly kind: "bytes" };

export interface Invocation {
  /** A stable label for the renderer this exercises, e.g. "status -o wide". */
  readonly label: string;
  readonly argv: readonly string[];
  readonly expect: Expect;
  readonly tty?: boolean;
  /** Streaming commands (--watch) run with the signal already aborted: list, print, return. */
  readonly aborted?: boolean;
}

export interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly emitted: string;
}

export class ContractViolation extends Error {}

const INFO_LINES = [
  /^No resources found\n$/u,
  /^No resources found in .* namespace\.\n$/u,
  /^No history recorded yet\.\n$/u,
  /^Nothing is waiting for approval in .* namespace\.\n$/u,
  // inbox's footer: how many objects stopped converging, after its table or its empty line.
  /^(?:Nothing is waiting for approval in [^\n]*\.\n)?\d+ objects? ha(?:s|ve) stopped converging: kubectl ptah status (?:-A|-n \S+) --stuck\n$/u,
  /^Warning: the SQL of \S+ reads as destructive \(read by this plugin\), but the plan does not record it as destructive\n$/u,
];
/** Tolerant list views warn once per object that does not fit, before any info line. */
const WARNING_LINES = /^(?:Warning: [^\n]*\n)*/u;

function informational(stderr: string): boolean {
  const rest = stderr.replace(WARNING_LINES, "");
  return rest === "" || INFO_LINES.some((re) => re.test(rest));
}

export async function invoke(inv: Invocation, reader: ClusterReader, namespace: string): Promise<Outcome> {
  const controller = new AbortController();
  if (inv.aborted) controller.abort();
  const { status, stdout, stderr, emitted } = await runCliWith(inv.argv, reader, { namespace, tty: inv.tty ?? false, signal: controller.signal });
  return { status, stdout, stderr, emitted };
}

function show(s: string): string {
  const j = JSON.stringify(s);
  return j.length > 600 ? `${j.slice(0, 600)}…(${s.length} chars)` : j;
}

function fail(inv: Invocation, out: Outcome, why: string): never {
  throw new ContractViolation(
    `${inv.label}: ${why}\n  argv: ${JSON.stringify(inv.argv)}\n  status: ${out.status}\n  stdout: ${show(out.stdout)}\n  stderr: ${show(out.stderr)}\n  emitted: ${show(out.emitted)}`,
  );
}

function unsafeAt(text: string, re: RegExp): string | undefined {
  const m = re.exec(text);
  if (!m) return undefined;
  const at = m.index;
  return `U+${m[0].codePointAt(0)!.toString(16).padStart(4, "0")} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`;
}

function checkHuman(inv: Invocation, out: Outcome, text: string, where: string, allowTab: boolean, color: boolean): void {
  const visible = color ? text.replace(PALETTE, "") : text;
  const bad = unsafeAt(visible, allowTab ? UNSAFE : UNSAFE_NO_TAB);
  if (bad) fail(inv, out, `raw control character in ${where}: ${bad}`);
}

/** Checks one answer against the contract; returns whether the renderer printed something. */
export function check(inv: Invocation, out: Outcome): boolean {
  if (![0, 1, 2, 3].includes(out.status)) fail(inv, out, `exit status ${out.status}`);
  // stderr is always for humans.
  checkHuman(inv, out, out.stderr, "stderr", false, false);
  if (out.status !== 0) {
    if (inv.expect.kind === "text" && inv.expect.report && out.stdout !== "") {
      // plan --verify: the checks made, the failed one marked, and the verdict — nothing else.
      if (!/^CHECK +RESULT +DETAIL\n/u.test(out.stdout) || !/\nThe (current|applied) plan of [^\n]+ did not verify; nothing from it was printed\.\n$/u.test(out.stdout)) {
        fail(inv, out, "stdout after a --verify failure is not the report");
      }
      if (!/ FAILED /u.test(out.stdout)) fail(inv, out, "the --verify report does not mark the failed check");
    } else if (inv.argv[0] === "plans" && out.status === 1 && /^error: \d+ dangling pins?: /u.test(out.stderr)) {
      // plans with a dangling pin: the view is printed, the finding is the error line.
    } else if (out.stdout !== "") fail(inv, out, "stdout is not empty after a failure");
    if (!/^error: [^\n]*\n$/u.test(out.stderr)) fail(inv, out, "stderr is not exactly one `error: ` line");
    if (out.stderr.startsWith("error: internal:")) fail(inv, out, "an uncaught exception (internal error)");
  } else if (!informational(out.stderr)) {
    fail(inv, out, "unexpected stderr after a success");
  }
  const e = inv.expect;
  for (const [text, where] of [
    [out.stdout, "stdout"],
    [out.emitted, "streamed output"],
  ] as const) {
    if (text === "") continue;
    switch (e.kind) {
      case "text":
        checkHuman(inv, out, text, where, e.allowTab ?? false, e.color ?? false);
        break;
      case "json": {
        checkHuman(inv, out, text, where, false, false);
        const docs = e.lines ? text.split("\n").filter((l) => l !== "") : [text];
        for (const doc of docs) {
          let value: unknown;
          try {
            value = JSON.parse(doc);
          } catch (err) {
            fail(inv, out, `${where} is not JSON: ${(err as Error).message}`);
          }
          if (e.equals && where === "stdout" && !isDeepStrictEqual(value, e.equals())) fail(inv, out, `${where} does not parse back to the objects served`);
        }
        break;
      }
      case "yaml": {
        checkHuman(inv, out, text, where, false, false);
        let value: unknown;
        try {
          value = yaml.load(text);
        } catch (err) {
          fail(inv, out, `${where} is not YAML: ${(err as Error).message.split("\n")[0]}`);
        }
        if (e.equals && where === "stdout" && !isDeepStrictEqual(value, e.equals())) fail(inv, out, `${where} does not parse back to the objects served`);
        break;
      }
      case "bytes":
        break;
    }
  }
  return out.status === 0 && (out.stdout !== "" || out.emitted !== "");
}

/** `--namespace=NS`, or no flag for the empty namespace (the kubeconfig's then). */
export function nsArgs(ns: string): string[] {
  return ns === "" ? [] : [`--namespace=${ns}`];
}
