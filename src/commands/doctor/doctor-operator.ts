// doctor's API and Operator checks: the Ptah kinds served (discovery), the CRDs' generation
// annotations against the generations the plugin knows, the admission webhooks
// that stamp and check approvals, and the optional --probe dry-run create.
import { PTAH_API_VERSION, PTAH_GROUP, PTAH_KIND_NAMES } from "../../model/api.ts";
import type { Outcome } from "./doctor-connection.ts";
import { ok, problem, skipped, type Check } from "./doctor-report.ts";

/** Every Ptah plural is its kind in lower case plus "s" (test/commands/doctor/doctor-checks.test.ts checks it against the model). */
export function pluralOf(kind: string): string {
  return `${kind.toLowerCase()}s`;
}

export function crdNameOf(kind: string): string {
  return `${pluralOf(kind)}.${PTAH_GROUP}`;
}

const INSTALL = "install the Ptah operator (its Helm chart ships the CRDs in crds/), or kubectl apply its CRD files";

export function kindsCheck(discovery: Outcome<{ readonly served: boolean; readonly kinds: readonly string[] }>): Check {
  const name = "kinds served";
  if (discovery.kind === "forbidden") return skipped("API", name, `the account may not read discovery: ${discovery.message}`);
  if (discovery.kind === "error") return problem("API", name, discovery.message, "check the server (kubectl api-resources)");
  const missing = PTAH_KIND_NAMES.filter((k) => !discovery.value.kinds.includes(k));
  if (missing.length === 0) return ok("API", name, `all ${PTAH_KIND_NAMES.length} Ptah kinds are served by ${PTAH_API_VERSION}`);
  const details = missing.map((k) => `${k}: CRD ${crdNameOf(k)}`);
  const summary = discovery.value.served
    ? `${missing.length} of ${PTAH_KIND_NAMES.length} Ptah kinds are not served by ${PTAH_API_VERSION}: ${missing.join(", ")}`
    : `${PTAH_API_VERSION} is not served: none of the ${PTAH_KIND_NAMES.length} Ptah kinds (${missing.join(", ")})`;
  return problem("API", name, summary, INSTALL, details);
}

export interface CrdFacts {
  readonly name: string;
  readonly found: boolean;
  readonly annotations: Readonly<Record<string, string>>;
}

const SCHEMA_VERSION = `${PTAH_GROUP}/crd-schema-version`;
const STATE_VERSION = `${PTAH_GROUP}/controller-state-version`;

/** A generation the plugin knows, by its annotations. */
export function knownGeneration(schema: string | undefined, state: string | undefined): string | undefined {
  if (schema === "1" && state === "1") return "the newest (reset) generation, plan contract 1";
  const n = Number(schema);
  if (state === "2" && Number.isInteger(n) && n >= 3 && n <= 32) return "the earlier generation, plan contract 3";
  return undefined;
}

export function generationCheck(crds: Outcome<readonly CrdFacts[]> | undefined): Check {
  const name = "CRD generation";
  if (crds === undefined) return skipped("API", name, "no Ptah CRD is served");
  if (crds.kind === "forbidden") return skipped("API", name, "the account may not get customresourcedefinitions (cluster scope), so the generations cannot be compared");
  if (crds.kind === "error") return problem("API", name, crds.message, "check the server (kubectl get crd)");
  const found = crds.value.filter((c) => c.found);
  if (found.length === 0) return skipped("API", name, "no Ptah CRD is installed");
  if (found.every((c) => c.annotations[SCHEMA_VERSION] === undefined)) {
    return skipped("API", name, `the CRDs carry no ${SCHEMA_VERSION} annotation (not installed from the operator's chart), so their generation is not known`);
  }
  const label = (c: CrdFacts): string => `crd-schema-version ${c.annotations[SCHEMA_VERSION] ?? "(none)"}, controller-state-version ${c.annotations[STATE_VERSION] ?? "(none)"}`;
  const groups = new Map<string, string[]>();
  for (const c of found) groups.set(label(c), [...(groups.get(label(c)) ?? []), c.name]);
  if (groups.size > 1) {
    const details = [...groups].map(([l, names]) => `${l}: ${names.join(", ")}`);
    return problem(
      "API",
      name,
      `the Ptah CRDs come from ${groups.size} different operator releases`,
      "install every CRD from one operator release (helm upgrade applies crds/ only on install: kubectl apply them)",
      details,
    );
  }
  const c = found[0]!;
  const known = knownGeneration(c.annotations[SCHEMA_VERSION], c.annotations[STATE_VERSION]);
  if (!known) {
    return problem("API", name, `${label(c)} is a generation this plugin does not know`, "upgrade kubectl ptah to a release that knows this operator's CRDs", [
      "known: crd-schema-version 1 with controller-state-version 1 (newest); crd-schema-version 3–32 with controller-state-version 2 (earlier)",
    ]);
  }
  return ok("API", name, `${label(c)} on all ${found.length} CRDs: ${known}`);
}

export interface WebhookFacts {
  readonly configuration: string;
  readonly name: string;
  readonly target: string | undefined;
  readonly rules: readonly { readonly groups: readonly string[]; readonly resources: readonly string[]; readonly operations: readonly string[] }[];
}

/** The kinds a person creates and admission must stamp and check. */
export const ADMITTED_RESOURCES = ["ptahschemaapprovals", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments"] as const;

function handlesCreate(w: WebhookFacts, resource: string): boolean {
  return w.rules.some(
    (r) =>
      (r.groups.includes(PTAH_GROUP) || r.groups.includes("*")) &&
      (r.resources.includes(resource) || r.resources.includes("*") || r.resources.includes("*/*")) &&
      (r.operations.includes("CREATE") || r.operations.includes("*")),
  );
}

const WEBHOOK_FIX: Record<"mutating" | "validating", string> = {
  mutating: "install or repair the Ptah operator: without its mutating webhook nothing stamps the approver, and every approval create is refused (spec.approver: Required value)",
  validating: "install or repair the Ptah operator: without its validating webhook nothing checks an approval's identity and binding before it is stored",
};

export function webhookCheck(kind: "mutating" | "validating", hooks: Outcome<readonly WebhookFacts[]> | undefined): Check {
  const name = `${kind} webhooks`;
  const resource = `${kind}webhookconfigurations.admissionregistration.k8s.io`;
  if (hooks === undefined) return skipped("Operator", name, "the server did not answer");
  if (hooks.kind === "forbidden") return skipped("Operator", name, `the account may not list ${resource} (cluster scope)`);
  if (hooks.kind === "error") return problem("Operator", name, hooks.message, `check the server (kubectl get ${kind}webhookconfigurations)`);
  const details: string[] = [];
  const unhandled: string[] = [];
  const untargeted: string[] = [];
  for (const r of ADMITTED_RESOURCES) {
    const matching = hooks.value.filter((w) => handlesCreate(w, r));
    if (matching.length === 0) unhandled.push(r);
    for (const w of matching) {
      if (w.target === undefined) untargeted.push(`${w.name} (${w.configuration})`);
      details.push(`${r}: ${w.name} (${w.configuration}) → ${w.target ?? "nothing"}`);
    }
  }
  if (unhandled.length > 0) {
    return problem("Operator", name, `no ${kind} webhook handles CREATE of ${unhandled.map((u) => `${u}.${PTAH_GROUP}`).join(", ")}`, WEBHOOK_FIX[kind], details);
  }
  if (untargeted.length > 0) {
    return problem("Operator", name, `${untargeted.join(", ")} names neither a service nor a URL`, WEBHOOK_FIX[kind], details);
  }
  return ok("Operator", name, `CREATE of ${ADMITTED_RESOURCES.join(", ")} is handled`, details);
}

/** The --probe dry-run create, as the command saw it. */
export type ProbeFacts =
  | { readonly kind: "admitted"; readonly schema: string; readonly approver: string | undefined }
  | { readonly kind: "refused"; readonly schema: string; readonly message: string }
  | { readonly kind: "not-run"; readonly schema: string; readonly why: string }
  | { readonly kind: "failed"; readonly schema: string; readonly message: string };

export function probeCheck(probe: ProbeFacts): Check {
  const name = "probe";
  switch (probe.kind) {
    case "admitted":
      return ok(
        "Operator",
        name,
        `admission admitted a dry-run PtahSchemaApproval for ${probe.schema} (nothing was stored)`,
        probe.approver ? [`stamped approver: ${probe.approver}`] : [],
      );
    case "refused": {
      const unstamped = /approver|approvedAt|mutationRequestUID/u.test(probe.message) && /Required value|not stamped/u.test(probe.message);
      const fix = unstamped
        ? "the mutating webhook did not stamp the approval: see the mutating webhooks check (and the webhook's namespaceSelector for this namespace)"
        : `read the refusal; kubectl ptah explain schema ${probe.schema.split("/").pop() ?? ""} says what the schema waits for`;
      return problem("Operator", name, `admission refused the approval for ${probe.schema}: ${probe.message}`, fix);
    }
    case "not-run":
      return skipped("Operator", name, probe.why);
    case "failed":
      return problem("Operator", name, probe.message, `kubectl ptah plan ${probe.schema.split("/").pop() ?? ""} --verify shows which check failed`);
  }
}
