// SelfSubjectAccessReview: may the account do this? One create per question, which the read-only
// rule allows (developers' guide: "Read-only" — SelfSubjectAccessReview/SelfSubjectRulesReview);
// nothing is stored. Used by `doctor`; kept apart so the HTTP seam has one access-review function.
import { ReadError } from "../errors.ts";
import { sanitize } from "../render/sanitize.ts";
import { apiError, invalidJsonError, type RequestDescription } from "./api-errors.ts";
import type { Transport } from "./http.ts";

export interface AccessCheck {
  readonly verb: string;
  /** "" for the core group. */
  readonly group: string;
  readonly resource: string;
  /** undefined: cluster scope (or every namespace). */
  readonly namespace: string | undefined;
}

export interface AccessAnswer {
  readonly check: AccessCheck;
  readonly allowed: boolean;
  /** The authorizer's reason, when it gives one (sanitised). */
  readonly reason: string | undefined;
}

export const ACCESS_REVIEW_PATH = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

async function reviewOne(transport: Transport, check: AccessCheck): Promise<AccessAnswer> {
  const d: RequestDescription = { verb: "create", resource: "selfsubjectaccessreviews.authorization.k8s.io", namespace: undefined };
  const body = {
    apiVersion: "authorization.k8s.io/v1",
    kind: "SelfSubjectAccessReview",
    spec: { resourceAttributes: { verb: check.verb, group: check.group, resource: check.resource, ...(check.namespace ? { namespace: check.namespace } : {}) } },
  };
  const res = await transport.request(ACCESS_REVIEW_PATH, { method: "POST", body: Buffer.from(JSON.stringify(body)) });
  if (res.status !== 200 && res.status !== 201) throw apiError(res.status, res.body, d);
  let answer: { status?: { allowed?: unknown; reason?: unknown; evaluationError?: unknown } };
  try {
    answer = JSON.parse(res.body.toString("utf8")) as typeof answer;
  } catch {
    throw invalidJsonError(d);
  }
  if (!answer || typeof answer !== "object") throw new ReadError("the server's access review answer is not an object");
  const reason = [answer.status?.reason, answer.status?.evaluationError].filter((r): r is string => typeof r === "string" && r !== "").map(sanitize).join("; ");
  return { check, allowed: answer.status?.allowed === true, reason: reason || undefined };
}

/** One SelfSubjectAccessReview per check, in parallel; answers in the order asked. */
export function reviewAccess(transport: Transport, checks: readonly AccessCheck[]): Promise<AccessAnswer[]> {
  return Promise.all(checks.map((c) => reviewOne(transport, c)));
}
