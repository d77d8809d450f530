// Four-eyes (the newest operator's approvals need a second person): the operator's mutating webhook
// records who created a PtahSchema or PtahMigration, or last changed its spec, in two annotations
// only it writes. With the chart value approvals.requireDistinctApprover on, admission refuses an
// approval by exactly that identity (username and UID compared; groups play no part), or any
// approval of a resource that records no writer. The switch shows in the operator's admission
// configuration (commands/shared/four-eyes-switch.ts), for those who may read it.
import type { ObjectMeta } from "./meta.ts";

export const LAST_SPEC_WRITER_USERNAME = "operator.ptah.run/last-spec-writer-username";
export const LAST_SPEC_WRITER_UID = "operator.ptah.run/last-spec-writer-uid";
/** The chart value that turns the refusal on (default false). */
export const DISTINCT_APPROVER_SWITCH = "approvals.requireDistinctApprover";

export interface SpecWriter {
  readonly username: string;
  /** "" when none was recorded (the authenticator supplied none). */
  readonly uid: string;
}

/** The recorded writer; undefined when none is (absent or blank username, as admission reads it). */
export function lastSpecWriter(metadata: Pick<ObjectMeta, "annotations">): SpecWriter | undefined {
  const annotations = metadata.annotations ?? {};
  const username = (annotations[LAST_SPEC_WRITER_USERNAME] ?? "").trim();
  if (username === "") return undefined;
  return { username, uid: annotations[LAST_SPEC_WRITER_UID] ?? "" };
}

/** Admission's comparison: the same username and the same UID ("" on both sides matches). */
export function isSpecWriter(writer: SpecWriter, me: { readonly username: string; readonly uid: string }): boolean {
  return writer.username === me.username && writer.uid === me.uid;
}

/** Whether any of these objects carries a recorded writer (doctor: the webhook is stamping). */
export function anyStamped(objects: readonly { readonly metadata: Pick<ObjectMeta, "annotations"> }[]): boolean {
  return objects.some((o) => lastSpecWriter(o.metadata) !== undefined);
}
