// Four-eyes in `approve`: the recorded last spec writer of the object read last, and,
// only when one is recorded, who you are (one SelfSubjectReview). You are refused (exit 1) when
// you are that writer, unless --allow-self; where the operator's admission configuration can be
// read, its switch decides instead (on: refused whatever the flag; off: printed). A server that does not serve SelfSubjectReview (404)
// or does not let you ask (403) leaves who you are unknown, which the header says.
// Neither read needs the plan: `startFourEyes` sends them beside the plan's reads, once the first
// read of the object passed its preconditions, and `fourEyes` takes their answers (or their errors,
// switch first) only after every check held, in the order they were read one after another.
import { selfApprovalRefusal, switchOnRefusal, type FourEyes } from "../../approval/four-eyes.ts";
import { NotFoundError, ReadError } from "../../errors.ts";
import type { Identity } from "../../kube/types.ts";
import type { ObjectMeta } from "../../model/meta.ts";
import { isSpecWriter, lastSpecWriter } from "../../model/spec-writer.ts";
import type { Connection } from "../command-types.ts";
import { readFourEyesSwitch, switchLine, type FourEyesSwitch } from "../shared/four-eyes-switch.ts";

export interface FourEyesAsk {
  readonly metadata: Pick<ObjectMeta, "annotations">;
  readonly allowSelf: boolean;
  /** "approve app/storefront", for the refusal. */
  readonly what: string;
  /** The command another approver runs. */
  readonly retry: string;
}

/** The reads in flight: the switch, and who you are when the object read first records a writer. */
export interface FourEyesReads {
  readonly switch: Promise<FourEyesSwitch>;
  readonly me: Promise<Identity> | undefined;
}

/** A read whose error waits for its turn: nothing is thrown unless it is awaited. */
function held<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}

/** Resolves once the requests already on their way (the caller's, in this turn) have taken a connection. */
function afterThisTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Sends the four-eyes reads beside the caller's next read (the object read first says whether who
 * you are is needed). They go a turn later: the transport speaks HTTP/1.1, one request per
 * connection at a time, so the plan's read, which the rest waits on, keeps the connection already
 * open and these open their own while the plan, its chunks and the last read go on.
 */
export function startFourEyes(c: Connection, first: Pick<ObjectMeta, "annotations">): FourEyesReads {
  const turn = afterThisTurn();
  return { switch: held(turn.then(() => readFourEyesSwitch(c))), me: lastSpecWriter(first) ? held(turn.then(() => c.reader.whoAmI())) : undefined };
}

export async function fourEyes(c: Connection, ask: FourEyesAsk, started?: FourEyesReads): Promise<FourEyes> {
  const sw = await (started?.switch ?? readFourEyesSwitch(c));
  const line = switchLine(sw);
  const said = line ? { switchLine: line } : {};
  const writer = lastSpecWriter(ask.metadata);
  if (!writer) return { kind: "unrecorded", ...said };
  let me;
  try {
    me = await (started?.me ?? c.reader.whoAmI());
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
