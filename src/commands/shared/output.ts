// -o for read views: the human default, wide, the machine formats of render/formats.ts, and
// custom columns (inline or from a file). The format word is checked first (output-flag.ts).
import { UsageError } from "../../errors.ts";
import { parseCustomColumnsFile } from "../../render/columns.ts";
import { parseMachineFormat, type MachineFormat } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { GlobalOptions, ParsedArgs, RunContext } from "../command-types.ts";
import { checkOutput, declaredOutput } from "./output-flag.ts";
import { VIEW_OUTPUTS } from "./printing.ts";

export type ResolvedOutput = { readonly kind: "human"; readonly wide: boolean } | MachineFormat;
/** -o custom-columns-file=FILE is read when the command runs (toOptions is pure). */
export type ViewOutput = ResolvedOutput | { readonly kind: "custom-columns-file"; readonly path: string; readonly spec: string };

export function parseViewOutput(outputIn: string | undefined, command: string): ViewOutput {
  const output = checkOutput(outputIn, VIEW_OUTPUTS, command);
  if (output === undefined) return { kind: "human", wide: false };
  if (output === "wide") return { kind: "human", wide: true };
  const file = /^custom-columns-file(?:=(.*))?$/su.exec(output);
  if (file) {
    if (file[1] === undefined || file[1] === "") throw new UsageError("custom-columns-file format specified but no file given", command);
    return { kind: "custom-columns-file", path: file[1]!, spec: output };
  }
  let machine: MachineFormat | undefined;
  try {
    machine = parseMachineFormat(output);
  } catch (err) {
    if (err instanceof UsageError && err.command === undefined) throw new UsageError(err.message, command);
    throw err;
  }
  if (machine) return machine;
  throw new Error(`-o ${output} is declared by the views but not read by them`);
}

/** Reads -o custom-columns-file's file; every other format is already resolved. */
export function resolveViewOutput(output: ViewOutput, ctx: Pick<RunContext, "readFile">): ResolvedOutput {
  if (output.kind !== "custom-columns-file") return output;
  if (!ctx.readFile) throw new UsageError("-o custom-columns-file needs a file system");
  return { kind: "custom-columns", columns: parseCustomColumnsFile(ctx.readFile(output.path)), spec: output.spec };
}

/** " -n <ns>" for suggested commands when the namespace is not what a bare command would use. */
export function namespaceFlag(global: GlobalOptions, namespace: string): string {
  return global.namespace !== undefined || global.allNamespaces || namespace !== "default" ? ` -n ${sanitize(namespace)}` : "";
}

/** kubectl's empty-list line, on stderr. */
export function noResources(namespace: string | undefined): string {
  return namespace === undefined ? "No resources found\n" : `No resources found in ${sanitize(namespace)} namespace.\n`;
}

/** -o for a view with a table and a fixed list of formats (ledger, plans): the table when none is given. */
export function parseFixedOutput<F extends string>(args: Pick<ParsedArgs, "global">, formats: readonly F[], command: string): F | "table" {
  return declaredOutput(args, formats, command) ?? "table";
}
