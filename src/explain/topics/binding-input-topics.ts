// Knowledge-base text: what each input of a schema plan's fingerprint is, and what it means
// when two plans differ in it. Keyed by every input, so an
// input without text does not compile. `diff` prints `moved` beside each input that differs.
import type { PlanBindingInput } from "../../model/binding-inputs.ts";
import type { TopicId } from "../knowledge-types.ts";

export interface BindingInputText {
  /** How the input is named in prose ("actual state fingerprint"). */
  readonly label: string;
  /** What the input is, one line. */
  readonly meaning: string;
  /** What a difference in it means, one line, in the voice of "from the old plan to the new". */
  readonly moved: string;
  /** The topic that explains the surrounding idea. */
  readonly related: TopicId;
}

export const BINDING_INPUT_TOPICS = {
  contractVersion: {
    label: "plan contract version",
    meaning: "the version of the rules the plan was written and fingerprinted under",
    moved: "the operator writes plans under another contract version than it did for the old plan",
    related: "concept/plan",
  },
  contentDigest: {
    label: "content digest",
    meaning: "the sha256 of the exact plan document: every statement, its severity and reason",
    moved: "the plan document is different: statements, their order, severity or reason changed",
    related: "concept/plan",
  },
  artifactDigest: {
    label: "artifact digest",
    meaning: "the OCI artifact the desired schema was read from, pinned by digest",
    moved: "the desired schema comes from another artifact (a new tag, or the tag moved)",
    related: "reason/digest-pinned",
  },
  coordinationDigest: {
    label: "coordination digest",
    meaning: "the database realm the plan is coordinated under (engine, namespace, coordination key or realm)",
    moved: "the plan is coordinated under another database realm (target engine, coordination key or realm changed)",
    related: "concept/realm",
  },
  targetIdentityDigest: {
    label: "target identity digest",
    meaning: "which database the plan was computed against",
    moved: "the plan was computed against another database identity",
    related: "concept/realm",
  },
  actualStateFingerprint: {
    label: "actual state fingerprint",
    meaning: "the database's managed scope as observed when the plan was computed",
    moved: "the database changed since the old plan was computed (an apply ran, or it drifted)",
    related: "concept/drift",
  },
  desiredStateFingerprint: {
    label: "desired state fingerprint",
    meaning: "the desired schema the plan converges to",
    moved: "the desired schema changed: the new plan converges to something else",
    related: "reason/desired-state-changed",
  },
  policyFingerprint: {
    label: "policy fingerprint",
    meaning: "the schema's spec.policy (apply, destructive, exclusions, protected tables, locks, transactions)",
    moved: "spec.policy of the schema was edited between the two plans",
    related: "concept/apply-policy",
  },
  verificationPolicyUID: {
    label: "verification policy UID",
    meaning: "the ConfigMap object whose policy verified the artifact",
    moved: "the verification policy ConfigMap was replaced by another object",
    related: "reason/policy-changed",
  },
  verificationPolicyDigest: {
    label: "verification policy digest",
    meaning: "the bytes of the verification policy that verified the artifact",
    moved: "the verification policy's bytes changed",
    related: "reason/policy-changed",
  },
  executionBindingID: {
    label: "execution binding",
    meaning: "the execution epoch: the operator's runtime identity (state version, Ptah, executor, protocol)",
    moved: "the operator's execution binding rotated (an upgrade or rollback of what runs the plan)",
    related: "concept/execution-binding",
  },
  controllerStateVersion: {
    label: "controller state version",
    meaning: "the version of the state the operator's controller keeps",
    moved: "the operator keeps its state in another version than when the old plan was computed",
    related: "concept/execution-binding",
  },
  ptahVersion: {
    label: "Ptah version",
    meaning: "the Ptah release that computed the plan and will run it",
    moved: "another Ptah release computes and runs the plan",
    related: "concept/execution-binding",
  },
  executorImage: {
    label: "executor image",
    meaning: "the digest-pinned image the Apply Job runs",
    moved: "another executor image would run the plan",
    related: "concept/execution-binding",
  },
  runnerProtocolVersion: {
    label: "runner protocol",
    meaning: "the protocol version between the operator and its runner",
    moved: "the operator talks to its runner in another protocol version",
    related: "concept/execution-binding",
  },
  destructive: {
    label: "destructive",
    meaning: "whether the operator reads the plan as destructive (drops, truncates, type changes)",
    moved: "one plan is destructive and the other is not",
    related: "concept/destructive",
  },
  privilegeChanges: {
    label: "privilege changes",
    meaning: "the kinds of privilege change the plan makes (grants, ownership, security definers, …)",
    moved: "the plans change privileges of different kinds",
    related: "concept/privilege-changes",
  },
  statementCount: {
    label: "statement count",
    meaning: "how many statements the plan holds",
    moved: "the plans hold a different number of statements",
    related: "concept/plan",
  },
} as const satisfies Record<PlanBindingInput, BindingInputText>;
