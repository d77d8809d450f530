// The shape every command has: its grammar declared once, as data
// (positionals with their completion sources, flags, -o formats, examples), a pure toOptions,
// and run(), which reads through the context and returns what it printed or why it refused.
// Help, usage errors and shell completion are derived from the grammar (cli/help.ts,
// cli/program.ts, cli/complete.ts). Commands never write to a stream or call process.exit:
// cli/run.ts alone maps a result to stdout, stderr and the exit status.
import type { PtahError } from "../errors.ts";
import type { ConfigOverrides, Connection, PermissionForm } from "../kube/types.ts";
import type { KindName } from "../model/parse.ts";

export type { Connection, PermissionForm };

/** What a kubectl-ptah on PATH is, read from its bytes without running it (cli/plugin-identity.ts). */
export type PluginIdentity =
  | { readonly kind: "upstream"; readonly version: string | undefined; readonly go: string | undefined }
  | { readonly kind: "go"; readonly module: string }
  | { readonly kind: "script" }
  | { readonly kind: "unknown"; readonly why: string };

export interface LocalFacts {
  /** `kubectl version --client` of the first kubectl on PATH, or why it is not known. */
  readonly kubectl: { readonly gitVersion: string; readonly minor: number | undefined } | { readonly missing: string };
  /** Every kubectl-ptah on PATH, in PATH order; `self` marks this plugin. */
  readonly plugins: readonly { readonly path: string; readonly self: boolean; readonly identity?: PluginIdentity }[];
  /** How this plugin was started (its resolved path), for the messages. */
  readonly selfPath: string | undefined;
  /** Whether this process runs under the process guard (cli/process-guard.ts). */
  readonly processGuard: boolean;
}

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
  /** A line for stderr as it happens (a watch's failed reload); absent: dropped. */
  readonly log?: (line: string) => void;
  /** Aborted on SIGINT or when a command's own deadline passes. */
  readonly signal: AbortSignal;
  /** The plugin's own version. */
  readonly version: string;
  /** The current time, for long-running (watch) commands. */
  clock(): Date;
  /** This machine's kubectl and kubectl-ptah executables on PATH (doctor). */
  readonly machine?: () => Promise<LocalFacts>;
  /** Only the kubectl-ptah executables on PATH (version): no program is run to find them. */
  readonly pluginsOnPath?: () => Promise<LocalFacts["plugins"]>;
  /** The same context for another kubeconfig context (--contexts): its own connection. */
  forContext?(name: string): RunContext;
  /** The names of the kubeconfig's contexts, in file order (--all-contexts); throws on an unreadable kubeconfig. */
  kubeconfigContexts?(): Promise<string[]>;
  /** A file named on the command line (-o custom-columns-file); throws UsageError with kubectl's wording. */
  readFile?(path: string): string;
  /**
   * A file named by -f, byte for byte; throws UsageError with kubectl's wording, and a
   * RefusalError saying `bound` for a file longer than `maxBytes` (read no further than that).
   */
  readBytes?(path: string, maxBytes: number, bound: string): Uint8Array;
  /** Creates a new local file (never a cluster write): refuses, with a RefusalError, a path that exists. */
  writeNewFile?(path: string, text: string): void;
  /** Every command of the registry this line runs in (doctor checks what each of them needs). */
  allCommands?(): Promise<Registry>;
  /** Standard input, chunk by chunk (only `mcp` reads it: the client's JSON-RPC messages). */
  input?(): AsyncIterable<Uint8Array>;
  /**
   * Runs another command line in this shell, as `kubectl ptah ARGV…` would, and returns what it
   * printed (`mcp`: each tool call is one line). The line reads through `connect` (the caller's
   * connection, already made), starts no other program, and is aborted with `signal`.
   */
  runLine?(argv: readonly string[], line: LineEnvironment): Promise<LineResult>;
}

/** What a line run by `runLine` is given beyond the argv. */
export interface LineEnvironment {
  readonly signal: AbortSignal;
  /** The connection the line reads through (its namespace as -n, else the caller's). */
  readonly connect: (global: GlobalOptions) => Promise<Connection>;
}

/** What a command line printed: its stdout, its stderr (one `error: …` line on a refusal), its exit status. */
export interface LineResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
}

/** The command printed: stdout is what was verified and rendered. */
export interface Printed {
  readonly kind: "printed";
  readonly stdout: string;
  /** Informational lines for stderr (e.g. kubectl's "No resources found in … namespace."). */
  readonly stderr?: string;
  /**
   * A non-zero exit status for output that was printed: doctor with a problem (1), `version`
   * after a connection error (its client version first, then the error; 1), `diff --exit-code`
   * when the plans differ (4). Default 0.
   */
  readonly exitStatus?: number;
}

/**
 * The command refused: `error` gives the one `error: …` line and the exit status. `report`, when
 * present, is printed on stdout (only `plan --verify`: the checks and which one failed, never
 * plan content). A command may also throw a PtahError: that is a refusal without a report.
 */
export interface Refused {
  readonly kind: "refused";
  readonly error: PtahError;
  readonly report?: string;
}

export type CommandResult = Printed | Refused;

export type FlagType = "string" | "boolean";

export interface FlagSpec {
  readonly name: string;
  readonly alias?: string;
  readonly type: FlagType;
  readonly describe: string;
  readonly default?: string | boolean;
  /** Shown in help as the value placeholder, e.g. "NAME". */
  readonly value?: string;
  /**
   * Words the value may be; a word mapped to a kind is followed by the name of an object of that
   * kind (`--from approval NAME`, joined by the parser as `approval/NAME`; completed by kind).
   */
  readonly valueWords?: Readonly<Record<string, KindName | undefined>>;
  /** Given more than once, every value counts (kubectl's --as-group); otherwise the last wins. */
  readonly repeatable?: boolean;
  /** The line needs it (wait's --for): its usage shows it without brackets. */
  readonly required?: true;
  /** The words the value may be, as completion offers them ("x=" asks for more typing). */
  readonly values?: readonly string[];
  /** Candidates for the value from elsewhere (names in the cluster, kubeconfig contexts, files). */
  readonly complete?: CompletionSource;
}

/** One completion candidate: the word, and what the shell may show beside it. */
export interface Candidate {
  readonly value: string;
  readonly description?: string;
}

/** What a completion source is asked, for the word under the cursor (cli/complete.ts asks). */
export interface CompletionQuery {
  /** The word under the cursor ("" for a new word). */
  readonly toComplete: string;
  /** The positionals typed before it. */
  readonly before: readonly string[];
  /** The command on the line, if any. */
  readonly command: AnyCommand | undefined;
  /** The shell's context for this line: -n, --context, --kubeconfig as typed, a short request timeout. */
  readonly ctx: RunContext;
  readonly env: NodeJS.ProcessEnv;
}

/** Candidates that start with the word typed, or "files": let the shell complete a path. */
export type Candidates = readonly Candidate[] | "files";

/** Where a positional's or a flag value's candidates come from (commands/shared/candidates.ts). */
export type CompletionSource = (query: CompletionQuery) => Candidates | Promise<Candidates>;

export interface Positional {
  /** As help writes it: SCHEMA, MIGRATION, TOPIC. */
  readonly name: string;
  /** Given any number of times (explain's topic words); only the last positional may be. */
  readonly variadic?: boolean;
  /** The line may leave it out (status's SCHEMA): usage shows it in brackets. */
  readonly optional?: true;
  /**
   * Given after this word, instead of the positional before it (`SCHEMA | migration MIGRATION`):
   * usage writes the two as alternatives.
   */
  readonly keyword?: string;
  readonly complete?: CompletionSource;
  /** An object's name: the shell checks it as kubectl does before any request (commands/shared/arguments.ts). */
  readonly objectName?: true;
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
  /** The positionals in order, each with where its candidates come from. */
  readonly positionals: readonly Positional[];
  /** The -o formats, as the usage line writes them ("jsonpath=TEMPLATE"); [] for none. */
  readonly outputs: readonly string[];
  /**
   * Upstream's own commands head the root usage: their place there, and the
   * line the root usage gives them (upstream's own line).
   */
  readonly upstreamRank?: number;
  readonly rootUsage?: string;
  /**
   * Upstream's usage block, printed instead of the "Usage:" section: its first
   * line starts "usage: kubectl ptah <name>"; the root help carries it too.
   */
  readonly upstreamUsage?: readonly string[];
  readonly examples: readonly Example[];
  readonly flags: readonly FlagSpec[];
  /** Global flags that make no sense for this command are hidden from its help. */
  readonly hiddenGlobals?: readonly string[];
  /**
   * What each form of the command line sends the cluster (commands/shared/permissions.ts): doctor, the
   * docs/rbac.md and the RBAC tests come from this and nothing else.
   */
  readonly permissions: readonly PermissionForm[];
  /** `--timeout` is this command's own deadline (wait), not upstream's name for --request-timeout. */
  readonly ownsTimeout?: boolean;
  /** Pure: parsed args → typed options; throws UsageError (exit 2). */
  toOptions(args: ParsedArgs): O;
  run(options: O, ctx: RunContext): Promise<CommandResult>;
}

/**
 * What a command's folder declares (commands/<name>/): everything but the header, which is its
 * entry in commands/registry.ts; the registry joins the two when it loads the command.
 */
export type CommandBody<O = unknown> = Omit<Command<O>, "name" | "summary" | "upstreamRank" | "rootUsage" | "upstreamUsage">;

/** What upstream's own commands add to their header: their place and line in the root usage, plan's usage block. */
export type UpstreamHeader = Required<Pick<Command, "upstreamRank" | "rootUsage">> & Pick<Command, "upstreamUsage">;

/** A command of any options type, for the registry. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = Command<any>;
/** A command's declaration of any options type, as its folder exports it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommandBody = CommandBody<any>;

/** The ordered list of commands the shell knows (commands/registry.ts; tests may pass their own). */
export type Registry = readonly AnyCommand[];
