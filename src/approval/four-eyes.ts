// What `approve` says about four-eyes: the manifest header's line about the last spec
// writer, and the refusal when you are that writer. Pure; commands/approve/approve-four-eyes.ts asks who
// you are. Every cluster string is sanitised here.
import { RefusalError, sanitize } from "../errors.ts";
import { DISTINCT_APPROVER_SWITCH, LAST_SPEC_WRITER_USERNAME, type SpecWriter } from "../model/spec-writer.ts";

/**
 * What approve found out: no writer recorded, a writer who is someone else, you (with --allow-self,
 * or with the switch read as off), or you could not be told apart; with the line saying how the
 * switch was known, when it was asked.
 */
export type FourEyes = (
  | { readonly kind: "unrecorded" }
  | { readonly kind: "distinct"; readonly writer: SpecWriter; readonly me: string }
  | { readonly kind: "self-allowed"; readonly writer: SpecWriter }
  | { readonly kind: "self-switch-off"; readonly writer: SpecWriter }
  | { readonly kind: "identity-unknown"; readonly writer: SpecWriter; readonly why: string }
) & { readonly switchLine?: string };

export function writerWords(w: SpecWriter): string {
  return w.uid ? `${sanitize(w.username)} (uid ${sanitize(w.uid)})` : sanitize(w.username);
}

/** The header's lines about the last spec writer, and how the switch was known. */
export function fourEyesHeader(f: FourEyes): string[] {
  return f.switchLine ? [f.switchLine, ...writerLines(f)] : writerLines(f);
}

function writerLines(f: FourEyes): string[] {
  switch (f.kind) {
    case "unrecorded":
      return [
        `Last spec writer:  none recorded (no ${LAST_SPEC_WRITER_USERNAME} annotation); where`,
        `  ${DISTINCT_APPROVER_SWITCH} is on, admission refuses this approval until the spec next changes.`,
      ];
    case "distinct":
      return [`Last spec writer:  ${writerWords(f.writer)}; you are ${sanitize(f.me)}, a distinct approver.`];
    case "self-allowed":
      return [`Last spec writer:  you (${writerWords(f.writer)}); printed because of --allow-self: where`, `  ${DISTINCT_APPROVER_SWITCH} is on, admission refuses this approval.`];
    case "self-switch-off":
      return [`Last spec writer:  you (${writerWords(f.writer)}); four-eyes is off, so admission accepts your approval.`];
    case "identity-unknown":
      return [
        `Last spec writer:  ${writerWords(f.writer)}; who you are is unknown (${sanitize(f.why)}):`,
        `  if that is you and ${DISTINCT_APPROVER_SWITCH} is on, admission refuses this approval.`,
      ];
  }
}

/** `approve` by the last spec writer while the admission configuration shows four-eyes on: --allow-self cannot help. */
export function switchOnRefusal(what: string, writer: SpecWriter, retry: string): RefusalError {
  return new RefusalError(
    `cannot ${what}: you (${writerWords(writer)}) last changed its spec, and ${DISTINCT_APPROVER_SWITCH} is on (the operator's admission configuration has its writer entries), so admission refuses your approval; next: ask another approver to run ${retry}`,
  );
}

/** `approve` by the last spec writer, without --allow-self: one line, exit 1. */
export function selfApprovalRefusal(what: string, writer: SpecWriter, retry: string): RefusalError {
  return new RefusalError(
    `cannot ${what}: you (${writerWords(writer)}) last changed its spec, and an operator installed with ${DISTINCT_APPROVER_SWITCH}=true refuses your approval; next: ask another approver to run ${retry}, or add --allow-self if the operator does not require a distinct approver`,
  );
}
