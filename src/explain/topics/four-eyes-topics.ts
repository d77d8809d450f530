// Knowledge-base text for four-eyes approvals (the newest operator's approvals need a second person),
// and for admission's two refusals as topics of their own.
import type { KindedTopicText } from "../knowledge-types.ts";

type FourEyesConcept = "four-eyes" | "self-approval" | "no-spec-writer";

export const FOUR_EYES_TOPICS = {
  "four-eyes": {
    summary: "A second person must approve what the last spec writer wrote",
    appliesTo: ["PtahSchema", "PtahMigration", "PtahSchemaApproval", "PtahMigrationApproval"],
    aliases: ["four eyes", "distinct approver", "requiredistinctapprover", "approvals.requireDistinctApprover", "last spec writer", "spec writer"],
    meaning:
      "The operator's mutating webhook records who created a PtahSchema or PtahMigration, or last changed its spec, in the annotations operator.ptah.run/last-spec-writer-username and operator.ptah.run/last-spec-writer-uid; only that webhook writes them. When the operator is installed with the chart value approvals.requireDistinctApprover=true, admission refuses an approval created by exactly that identity (same username and UID; groups do not count), and any approval of an object that records no writer.",
    why: "RBAC says who may approve, not that the approver is a second person. The switch is a chart value, on no object a desired-state author can edit, so an author cannot turn it off from their own spec. It defaults to false.",
    operatorNext:
      "A spec change stamps its writer and retires a waiting plan, so every new plan is judged against whoever last touched the spec it came from. Metadata-only edits keep the recorded writer.",
    userAction:
      "Let someone other than the last spec writer approve. kubectl ptah approve refuses you when you are that writer (add --allow-self only where the operator does not require a distinct approver), and inbox says so in YOU CAN. Impersonation and shared credentials defeat the control.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "see the schema's last spec writer" },
      { command: "kubectl ptah approve <schema> --dry-run=server", purpose: "ask admission whether it would accept your approval" },
    ],
    related: ["concept/self-approval", "concept/no-spec-writer", "concept/approval"],
  },
  "self-approval": {
    summary: "Refused: a distinct approver is needed, and you last changed the spec",
    appliesTo: ["PtahSchemaApproval", "PtahMigrationApproval"],
    aliases: ["requires a distinct approver and last changed its spec", "last changed its spec", "self approval refused"],
    meaning:
      "Admission refused an approval because its approver is the identity the schema or migration records as its last spec writer, and the operator requires a distinct approver (approvals.requireDistinctApprover=true). The message names the kind (schema or migration) and the user.",
    why: "Four-eyes: the person who wrote a spec may not also approve the plan computed from it.",
    operatorNext: "Nothing was stored; the plan keeps waiting for an approval by someone else.",
    userAction: "Ask another approver to approve the same plan; kubectl ptah status shows who last changed the spec.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "see the last spec writer" },
      { command: "kubectl ptah approve <schema>", purpose: "what the other approver runs (piped to kubectl create -f -)" },
    ],
    related: ["concept/four-eyes", "concept/no-spec-writer"],
  },
  "no-spec-writer": {
    summary: "Refused: a distinct approver is needed, and no spec writer is recorded",
    appliesTo: ["PtahSchemaApproval", "PtahMigrationApproval", "PtahSchema", "PtahMigration"],
    aliases: ["requires a distinct approver and no spec writer is recorded for it", "no spec writer is recorded", "no spec writer recorded"],
    meaning:
      "Admission refused an approval because the operator requires a distinct approver and the schema or migration carries no operator.ptah.run/last-spec-writer-username annotation, so nobody can be told apart from its writer.",
    why: "The object's spec was last written before the spec-writer webhook was installed (upstream installs it only while approvals.requireDistinctApprover is on); the operator refuses rather than guess.",
    operatorNext: "Nothing was stored. The next create or spec change of the object records its writer.",
    userAction: "Have the spec changed once (however small the edit), by someone other than the approver; then approve the plan computed from it.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "Last spec writer: none recorded confirms it" },
      { command: "kubectl get ptahschema <schema> -o yaml", purpose: "see the object's annotations (none names a writer)" },
    ],
    related: ["concept/four-eyes", "concept/self-approval"],
  },
} satisfies Record<FourEyesConcept, KindedTopicText>;
