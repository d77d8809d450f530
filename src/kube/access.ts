// What an access review asks and answers. The one implementation is HttpClusterReader.reviewAccess
// (kube/reader.ts): a SelfSubjectAccessReview per question through the transport's closed create,
// which the read-only rule allows (developers' guide "Read-only"); nothing is stored. `inbox` and
// `doctor` both ask through it. A command's permission forms (what each form of its line sends,
// as rules) are declared with the types below, beside the checks they turn into.

export interface AccessCheck {
  readonly verb: string;
  /** "" for the core group. */
  readonly group: string;
  readonly resource: string;
  /** undefined or "": cluster scope (or every namespace). */
  readonly namespace: string | undefined;
}

export interface AccessAnswer {
  readonly check: AccessCheck;
  readonly allowed: boolean;
  /** The authorizer's reason, when it gives one (sanitised). */
  readonly reason: string | undefined;
}

export type Verb = "get" | "list" | "watch" | "create";

export interface Rule {
  readonly verb: Verb;
  /** "" for the core group. */
  readonly group: string;
  readonly resource: string;
}

/** One form of a command line and what it needs. */
export interface PermissionForm {
  /** As docs/rbac.md and doctor name it: "status SCHEMA", "approve migration MIGRATION --dry-run=server". */
  readonly form: string;
  /**
   * A command line of this form (after "kubectl ptah"; SCHEMA storefront, MIGRATION billing),
   * which the one-shell test runs to prove `rules` exact. Absent: the form is not the plugin's
   * alone (`approve … | kubectl create -f -`: kubectl sends the create).
   */
  readonly argv?: readonly string[];
  /** Every namespaced request the form may send; [] for a form that needs no cluster. */
  readonly rules: readonly Rule[];
  /** What else it reads, where no namespaced rule can say it (cluster scope, older installs). */
  readonly note?: string;
}
