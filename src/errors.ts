// Typed errors carrying the exit status of the upstream client's contract
// (0 printed, 1 could not read or verify, 2 usage, 3 nothing there), and the one
// function that turns any thrown value into a single kubectl-style stderr line.

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

/** A refusal that is not about reading or verifying: e.g. a schema that is not approvable now (exit 1). */
export class RefusalError extends PtahError {
  constructor(message: string, exitStatus: ExitStatus = 1) {
    super(message, exitStatus);
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
