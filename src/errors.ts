// Typed errors carrying the exit status of the upstream client's contract
// (0 printed, 1 could not read or verify, 2 usage, 3 nothing there), the one function that
// turns any thrown value into a single kubectl-style stderr line, and the sanitiser that keeps
// cluster strings on that line. The sanitiser lives here, in layer 0, because kube/ builds
// messages that quote the cluster and may import only errors; views and
// commands reach it as render/sanitize.ts.

export type ExitStatus = 1 | 2 | 3;

export class PtahError extends Error {
  readonly exitStatus: ExitStatus;
  constructor(message: string, exitStatus: ExitStatus) {
    super(message);
    this.exitStatus = exitStatus;
  }
}

/** Command-line problem (exit 2). `command` names the subcommand for kubectl's `-h` hint. */
export class UsageError extends PtahError {
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message, 2);
    this.command = command;
  }
}

/** Nothing there: object not found, or nothing stored to show (exit 3). */
export class NotFoundError extends PtahError {
  constructor(message: string) {
    super(message, 3);
  }
}

/** The cluster could not be read: unreachable, TLS, timeout, Forbidden, server errors (exit 1). */
export class ReadError extends PtahError {
  readonly httpStatus: number | undefined;
  constructor(message: string, httpStatus?: number) {
    super(message, 1);
    this.httpStatus = httpStatus;
  }
}

/** A check on what was read did not hold; nothing may be printed (exit 1). */
export class VerificationError extends PtahError {
  constructor(message: string) {
    super(message, 1);
  }
}

/** An object from the cluster does not fit the model (exit 1). */
export class ModelError extends PtahError {
  constructor(message: string) {
    super(message, 1);
  }
}

/**
 * A served object nested deeper than any object the model reads (model/parse.ts MAX_DEPTH): an
 * object not shown like any other, and never printed as served either, since printing recurses as deep.
 */
export class TooDeepError extends ModelError {}

/** A refusal that is not about reading or verifying: e.g. a schema that is not approvable now (exit 1). */
export class RefusalError extends PtahError {
  constructor(message: string, exitStatus: ExitStatus = 1) {
    super(message, exitStatus);
  }
}

/**
 * A request the plugin must not send (kube/request-guard.ts): refused before a byte left (exit 1).
 * Not a ReadError: a watch must not take it for a lost connection and retry it.
 */
export class ReadOnlyError extends PtahError {
  constructor(message: string) {
    super(message, 1);
  }
}

export function exitStatusOf(err: unknown): ExitStatus {
  return err instanceof PtahError ? err.exitStatus : 1;
}

/** Exactly one line, kubectl style: `error: …`. */
export function formatError(err: unknown): string {
  if (err instanceof UsageError) {
    // One line even for usage errors, with kubectl's hint folded in.
    const hint = err.command ? `kubectl ptah ${err.command} -h` : "kubectl ptah -h";
    return `error: ${oneLine(err.message)} (see '${hint}' for help and examples)\n`;
  }
  if (err instanceof PtahError) return `error: ${oneLine(err.message)}\n`;
  const message = err instanceof Error ? err.message : String(err);
  return `error: internal: ${oneLine(message)}\n`;
}

function oneLine(message: string): string {
  // Messages may quote cluster strings; they are sanitised where built, but a newline
  // must never split the one stderr line.
  return message.replace(/\r?\n/g, " ").trim();
}

// ---------------------------------------------------------------- cluster strings
// Neutralises control characters and terminal escape sequences in strings that come from
// the cluster, so a name or message can never move the cursor, recolour, retitle or hide
// text in a person's terminal (kubectl's printers.EscapeTerminal, extended to C1 controls
// and Unicode bidi overrides).

// C0 controls (U+0000–U+001F), DEL, C1 controls (U+0080–U+009F), bidi embeddings/overrides/
// isolates, and line/paragraph separators.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

function escapeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  switch (ch) {
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    case "\u001b":
      return "^[";
    default:
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  }
}

/** Any cluster-supplied string, made safe to print on one line. */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Like sanitize, but keeps line breaks (for multi-line text such as SQL). */
export function sanitizeMultiline(text: string): string {
  return text
    .split("\n")
    .map((line) => sanitize(line.endsWith("\r") ? line.slice(0, -1) : line))
    .join("\n");
}

/** True when the text contains nothing sanitize would change. */
export function isTerminalSafe(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return !UNSAFE.test(text);
}

// Escapes JSON.stringify leaves raw: DEL, C1 controls, bidi controls, line separators.
export const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

/**
 * JSON text with the characters JSON.stringify (and Go's encoder) leave raw — DEL, C1 controls,
 * bidi controls, line separators — escaped as \uXXXX: the same JSON value, safe on a terminal.
 */
export function escapeJsonText(text: string): string {
  return text.replace(JSON_UNSAFE, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`);
}
