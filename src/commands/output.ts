// -o for read views: the human default, wide, and the machine formats of render/formats.ts.
import { UsageError } from "../errors.ts";
import { parseMachineFormat, type MachineFormat } from "../render/formats.ts";
import { sanitize } from "../render/sanitize.ts";
import type { GlobalOptions } from "./types.ts";

export type ViewOutput = { readonly kind: "human"; readonly wide: boolean } | MachineFormat;

export const VIEW_FORMATS = "[wide json yaml name jsonpath=TEMPLATE]";

export function parseViewOutput(output: string | undefined, command: string): ViewOutput {
  if (output === undefined || output === "" || output === "text") return { kind: "human", wide: false };
  if (output === "wide") return { kind: "human", wide: true };
  const machine = parseMachineFormat(output);
  if (machine) return machine;
  throw new UsageError(`unknown output format "${output}"; it is one of ${VIEW_FORMATS}`, command);
}

/** " -n <ns>" for suggested commands when the namespace is not what a bare command would use. */
export function namespaceFlag(global: GlobalOptions, namespace: string): string {
  return global.namespace !== undefined || global.allNamespaces || namespace !== "default" ? ` -n ${sanitize(namespace)}` : "";
}

/** kubectl's empty-list line, on stderr. */
export function noResources(namespace: string | undefined): string {
  return namespace === undefined ? "No resources found\n" : `No resources found in ${sanitize(namespace)} namespace.\n`;
}
