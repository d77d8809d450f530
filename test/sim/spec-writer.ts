// Four-eyes, simulated the operator's way (src/model/spec-writer.ts reads what it stamps): the simulator's
// real mutating webhook (webhook-server.ts registers it for CREATE/UPDATE of ptahschemas and
// ptahmigrations) stamps who created the object or last changed its spec, from the AdmissionReview's
// userInfo — the identity the API server authenticated, not a guess from the audit log or
// managedFields. It overwrites whatever the request carried for the two annotations, and on an
// update that leaves spec alone it carries the old values over, so a metadata edit can neither
// erase nor forge the writer. The lab always stamps (upstream installs the stamping webhook only
// while the switch is on).
//
// The lab's stand-in for the chart value approvals.requireDistinctApprover is a namespace label,
// DISTINCT_APPROVER_LABEL=true (read on every approval admission), so tests can turn it on for one
// namespace without disturbing others that run at the same time. The plugin never reads it: like
// the chart value, nothing a client reads says whether the switch is on.
import { canonicalJSON } from "../../src/plan/canonical.ts";
import { resourcePath, type Kube, type Obj } from "./kube.ts";
import type { AdmissionRequest, AdmissionResponse } from "./admission.ts";

export const WRITER_USERNAME = "operator.ptah.run/last-spec-writer-username";
export const WRITER_UID = "operator.ptah.run/last-spec-writer-uid";
export const DISTINCT_APPROVER_LABEL = "lab.ptah.run/require-distinct-approver";

/** The resources whose spec writer is stamped. */
export const SPEC_WRITER_RESOURCES: readonly string[] = ["ptahschemas", "ptahmigrations"];

function sameSpec(a: unknown, b: unknown): boolean {
  return canonicalJSON(JSON.parse(JSON.stringify(a ?? null))) === canonicalJSON(JSON.parse(JSON.stringify(b ?? null)));
}

/** The annotations the object must carry after admission. */
export function stampedAnnotations(req: AdmissionRequest): Record<string, string> {
  const annotations: Record<string, string> = { ...(req.object?.metadata?.annotations ?? {}) };
  const specChanged = req.operation === "CREATE" || !sameSpec(req.object?.spec, req.oldObject?.spec);
  if (specChanged) {
    annotations[WRITER_USERNAME] = (req.userInfo?.username ?? "").trim();
    const uid = (req.userInfo?.uid ?? "").trim();
    if (uid) annotations[WRITER_UID] = uid;
    else delete annotations[WRITER_UID];
  } else {
    const previous = req.oldObject?.metadata?.annotations ?? {};
    for (const key of [WRITER_USERNAME, WRITER_UID]) {
      if (previous[key] !== undefined) annotations[key] = previous[key]!;
      else delete annotations[key];
    }
  }
  return annotations;
}

/** The mutating answer for a PtahSchema or PtahMigration CREATE/UPDATE. */
export function stampSpecWriter(req: AdmissionRequest): AdmissionResponse {
  if (req.operation !== "CREATE" && req.operation !== "UPDATE")
    return { uid: req.uid, allowed: false, status: { code: 403, message: "only create and update are supported", reason: "Forbidden" } };
  const wanted = stampedAnnotations(req);
  if (sameSpec(wanted, req.object?.metadata?.annotations ?? {})) return { uid: req.uid, allowed: true };
  const patch = [{ op: "add", path: "/metadata/annotations", value: wanted }];
  return { uid: req.uid, allowed: true, patchType: "JSONPatch", patch: Buffer.from(JSON.stringify(patch)).toString("base64") };
}

/** Is the lab's switch on for this namespace? */
export async function requiresDistinctApprover(kube: Kube, namespace: string): Promise<boolean> {
  const ns = await kube.get(resourcePath("namespaces", undefined, namespace, "")).catch(() => undefined);
  return ns?.metadata.labels?.[DISTINCT_APPROVER_LABEL] === "true";
}

/**
 * Admission's refusal of a self-approval, in upstream's words, or undefined. `kind` is "schema" or
 * "migration"; the approver is the stamped identity; username and UID are compared ("" = "").
 */
export async function distinctApproverRefusal(
  kube: Kube,
  namespace: string,
  kind: "schema" | "migration",
  object: Obj,
  approver: { username?: string; uid?: string } | undefined,
): Promise<string | undefined> {
  if (!(await requiresDistinctApprover(kube, namespace))) return undefined;
  const annotations = object.metadata.annotations ?? {};
  const writer = (annotations[WRITER_USERNAME] ?? "").trim();
  if (writer === "") return `${kind} requires a distinct approver, and no spec writer is recorded for it`;
  if (writer === (approver?.username ?? "") && (annotations[WRITER_UID] ?? "") === (approver?.uid ?? "")) {
    return `${kind} requires a distinct approver, and ${approver?.username ?? ""} last changed its spec`;
  }
  return undefined;
}
