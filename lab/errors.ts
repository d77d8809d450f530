// How the lab reports: progress lines on stderr (`[lab] …`, stdout carries only the export line),
// and LabError, a failed step with its log file and the exit code the CLI returns.
export class LabError extends Error {
  override name = "LabError";
  readonly step: string;
  readonly logFile: string | undefined;
  /** 1 a step failed, 4 the toolchain for the first build is missing. */
  readonly code: number;

  constructor(step: string, message: string, logFile?: string, code = 1) {
    super(message);
    this.step = step;
    this.logFile = logFile;
    this.code = code;
  }
}

export function say(message: string): void {
  process.stderr.write(`[lab] ${message}\n`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
