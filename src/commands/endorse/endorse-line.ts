// What `endorse` prints: the one kubectl command that adds you to the current plan's endorsement
// annotation, conflict-safe (--resource-version: a write that lands after anyone else's is refused
// with 409 Conflict, and you run endorse again), or the merge patch that does the same.
import { sanitize } from "../../render/sanitize.ts";

export interface Endorsement {
  readonly namespace: string;
  readonly schema: string;
  readonly key: string;
  /** The annotation's value after your endorsement. */
  readonly value: string;
  /** Whether the annotation is there already (kubectl annotate then needs --overwrite). */
  readonly exists: boolean;
  readonly resourceVersion: string;
  /** --kubeconfig and --context as given on the command line, carried into the printed command. */
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
}

/** A word as a POSIX shell reads it back unchanged: bare when safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@,+-]+$/u.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

export const RESOURCE = "ptahschemas.operator.ptah.run";

export function annotateLine(e: Endorsement): string {
  const words = [
    "kubectl",
    ...(e.kubeconfig === undefined ? [] : ["--kubeconfig", e.kubeconfig]),
    ...(e.context === undefined ? [] : ["--context", e.context]),
    "annotate",
    `${RESOURCE}/${e.schema}`,
    "-n",
    e.namespace,
    `${e.key}=${e.value}`,
    `--resource-version=${e.resourceVersion}`,
    ...(e.exists ? ["--overwrite"] : []),
  ];
  return sanitize(words.map(shellWord).join(" ")) + "\n";
}

/** A JSON merge patch (`kubectl patch … --type merge --patch-file FILE`); its resourceVersion makes it conflict-safe too. */
export function patchBody(e: Endorsement): Record<string, unknown> {
  return { metadata: { resourceVersion: e.resourceVersion, annotations: { [e.key]: e.value } } };
}
