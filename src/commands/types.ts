// The shape every command has (architecture §8.3): data for help, a flag table, a pure
// toOptions, and run(), which reads through the context and returns text. Commands never
// write to a stream or call process.exit: cli/run.ts decides what reaches stdout.
import type { ConfigOverrides, Connection } from "../kube/types.ts";

export type { Connection };

export type ColorMode = "auto" | "always" | "never";

/** kubectl's global flags, after parsing (cli/global-flags.ts). */
export interface GlobalOptions {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly namespace: string | undefined;
  readonly allNamespaces: boolean;
  /** Raw -o value as typed (each command validates it). */
  readonly output: string | undefined;
  readonly selector: string | undefined;
  readonly noHeaders: boolean;
  /** Whether colour escapes may be written (resolved from --color, NO_COLOR and the TTY). */
  readonly color: boolean;
  /** Per-request timeout in milliseconds; 0 means none (kubectl's default). */
  readonly requestTimeoutMs: number;
  /** --cluster, --user, --server, credential, TLS and impersonation flags. */
  readonly overrides: ConfigOverrides;
  /** -v level. */
  readonly verbosity: number;
  readonly warningsAsErrors: boolean;
}

export interface RunContext {
  readonly global: GlobalOptions;
  /** The one clock a command may use. */
  readonly now: Date;
  readonly width: number;
  readonly isTTY: boolean;
  /** Connects lazily: offline commands never load the Kubernetes client. */
  connect(): Promise<Connection>;
  /** Streaming output for watch/wait only; everything else returns its text. */
  emit(text: string): void;
  /** Aborted on SIGINT or when a command's own deadline passes. */
  readonly signal: AbortSignal;
  /** The plugin's own version. */
  readonly version: string;
  /** The current time, for long-running (watch) commands. */
  clock(): Date;
}

export interface CommandOutput {
  readonly stdout: string;
  /** Informational lines for stderr (e.g. kubectl's "No resources found in … namespace."). */
  readonly stderr?: string;
}

export type FlagType = "string" | "boolean" | "number";

export interface FlagSpec {
  readonly name: string;
  readonly alias?: string;
  readonly type: FlagType;
  readonly describe: string;
  readonly default?: string | boolean | number;
  /** Shown in help as the value placeholder, e.g. "NAME". */
  readonly value?: string;
  /** Given more than once, every value counts (kubectl's --as-group); otherwise the last wins. */
  readonly repeatable?: boolean;
}

export interface Example {
  readonly comment: string;
  readonly command: string;
}

export interface ParsedArgs {
  readonly positionals: readonly string[];
  /** Command flags by their long name (values as parsed by cli/pflag.ts; validated in toOptions). */
  readonly flags: Readonly<Record<string, unknown>>;
  readonly global: GlobalOptions;
}

export interface Command<O = unknown> {
  /** As typed after "kubectl ptah". */
  readonly name: string;
  readonly summary: string;
  /** "kubectl ptah status [SCHEMA] [flags]" */
  readonly usage: string;
  readonly examples: readonly Example[];
  readonly flags: readonly FlagSpec[];
  /** Global flags that make no sense for this command are hidden from its help. */
  readonly hiddenGlobals?: readonly string[];
  /** Pure: parsed args → typed options; throws UsageError (exit 2). */
  toOptions(args: ParsedArgs): O;
  run(options: O, ctx: RunContext): Promise<CommandOutput>;
}

/** A command of any options type, for the registry. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = Command<any>;
