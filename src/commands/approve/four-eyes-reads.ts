// Four-eyes in `approve`: the recorded last spec writer of the object read last, and,
// only when one is recorded, who you are (one SelfSubjectReview). You are refused (exit 1) when
// you are that writer, unless --allow-self; where the operator's admission configuration can be
// read, its switch decides instead (on: refused whatever the flag; off: printed). A server that does not serve SelfSubjectReview (404)
// or does not let you ask (403) leaves who you are unknown, which the header says.
import { selfApprovalRefusal, switchOnRefusal, type FourEyes } from "../../approval/four-eyes.ts";
import { NotFoundError, ReadError } from "../../errors.ts";
import type { ObjectMeta } from "../../model/meta.ts";
import { isSpecWriter, lastSpecWriter } from "../../model/spec-writer.ts";
import type { Connection } from "../command-types.ts";
import { readFourEyesSwitch, switchLine } from "../shared/four-eyes-switch.ts";

export interface FourEyesAsk {
  readonly metadata: Pick<ObjectMeta, "annotations">;
  readonly allowSelf: boolean;
  /** "approve app/storefront", for the refusal. */
  readonly what: string;
  /** The command another approver runs. */
  readonly retry: string;
}

export async function fourEyes(c: Connection, ask: FourEyesAsk): Promise<FourEyes> {
  const sw = await readFourEyesSwitch(c);
  const line = switchLine(sw);
  const said = line ? { switchLine: line } : {};
  const writer = lastSpecWriter(ask.metadata);
  if (!writer) return { kind: "unrecorded", ...said };
  let me;
  try {
    me = await c.reader.whoAmI();
  } catch (err) {
    if (err instanceof NotFoundError || (err instanceof ReadError && err.httpStatus === 403))
      return { kind: "identity-unknown", writer, why: `SelfSubjectReview: ${err.message}`, ...said };
    throw err;
  }
  if (!isSpecWriter(writer, me)) return { kind: "distinct", writer, me: me.username, ...said };
  // Read exactly, the switch decides; inferred, the person's --allow-self does.
  if (sw.kind === "on") throw switchOnRefusal(ask.what, writer, ask.retry);
  if (sw.kind === "off") return { kind: "self-switch-off", writer, ...said };
  if (!ask.allowSelf) throw selfApprovalRefusal(ask.what, writer, ask.retry);
  return { kind: "self-allowed", writer, ...said };
}
