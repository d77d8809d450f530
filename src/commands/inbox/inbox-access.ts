// Who may act on what waits: one SelfSubjectAccessReview per namespace and approval kind (or one
// cluster-wide per kind with -A), a bounded number at once, and who you are when a writer is recorded.
import type { KindName } from "../../model/parse.ts";
import type { ClusterReader, Identity } from "../../kube/types.ts";
import type { InboxItem } from "./inbox-text.ts";

/** SelfSubjectAccessReviews in flight at once. */
export const REVIEW_CONCURRENCY = 8;

function accessKey(namespace: string, kind: KindName): string {
  return `${namespace}\u0000${kind}`;
}

/** Runs the tasks, at most REVIEW_CONCURRENCY at a time. */
async function bounded(tasks: readonly (() => Promise<void>)[]): Promise<void> {
  const queue = [...tasks];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) await next();
  };
  await Promise.all(Array.from({ length: Math.min(REVIEW_CONCURRENCY, queue.length) }, worker));
}

/** One access review through the seam: may the caller create `kind` in `namespace` ("" = every namespace)? */
async function mayCreate(reader: ClusterReader, kind: KindName, namespace: string): Promise<boolean> {
  // Loaded here, not at the top: a static import would bring zod into every start (--help too).
  const info = (await import("../../model/parse.ts")).KINDS[kind];
  const [answer] = await reader.reviewAccess([{ verb: "create", group: info.group, resource: info.plural, namespace }]);
  return answer?.allowed === true;
}

/** May the caller create each needed kind in each namespace? Keys: accessKey(namespace, kind). */
export async function reviewAll(reader: ClusterReader, items: readonly InboxItem[], allNamespaces: boolean): Promise<(namespace: string, kind: KindName) => boolean> {
  const kinds = [...new Set(items.flatMap((i) => (i.approvalKind ? [i.approvalKind] : [])))];
  // With -A, namespace "" asks about every namespace at once.
  const everywhere = new Set<KindName>();
  if (allNamespaces) {
    await bounded(
      kinds.map((kind) => async () => {
        if (await mayCreate(reader, kind, "")) everywhere.add(kind);
      }),
    );
  }
  const pairs = new Map<string, { namespace: string; kind: KindName }>();
  for (const i of items) if (i.approvalKind && !everywhere.has(i.approvalKind)) pairs.set(accessKey(i.namespace, i.approvalKind), { namespace: i.namespace, kind: i.approvalKind });
  const answers = new Map<string, boolean>();
  await bounded(
    [...pairs.entries()].map(([key, p]) => async () => {
      answers.set(key, await mayCreate(reader, p.kind, p.namespace));
    }),
  );
  return (namespace, kind) => everywhere.has(kind) || answers.get(accessKey(namespace, kind)) === true;
}

/** Whether who you are matters: an item you may approve records its last spec writer. */
export function needsIdentity(items: readonly InboxItem[], may: (i: InboxItem) => boolean): boolean {
  return items.some((i) => i.writer && may(i));
}

/** Who you are (asked only when needsIdentity), or undefined when the server does not say. */
export async function whoYouAre(reader: ClusterReader): Promise<Identity | undefined> {
  try {
    return await reader.whoAmI();
  } catch {
    return undefined;
  }
}
