// The approval policies as the cluster serves them (kube/admission-reads.ts reads them,
// approval/policy-judge.ts evaluates them): names sanitised, specs kept exactly as served, the CEL
// text the API server evaluates included.

/** One served ValidatingAdmissionPolicy labelled as an approval policy, its spec untouched (the CEL the API server evaluates). */
export interface ServedPolicy {
  readonly name: string;
  /** The value of the approval-policy label (the part `policy render` gave it). */
  readonly part: string;
  readonly spec: Readonly<Record<string, unknown>>;
}

/** One served binding: the policy it names and how. */
export interface ServedBinding {
  readonly name: string;
  readonly policyName: string;
  /** Whether it carries the approval-policy label (a binding an administrator wrote may not). */
  readonly labelled: boolean;
  readonly spec: Readonly<Record<string, unknown>>;
}

/** The approval policies and every binding that names one of them, or that carries their label. */
export interface PolicySet {
  readonly policies: readonly ServedPolicy[];
  readonly bindings: readonly ServedBinding[];
}
