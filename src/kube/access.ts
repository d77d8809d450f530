// What an access review asks and answers. The one implementation is HttpClusterReader.reviewAccess
// (kube/reader.ts): a SelfSubjectAccessReview per question through the transport's closed create,
// which the read-only rule allows (developers' guide "Read-only"); nothing is stored. `inbox` and
// `doctor` both ask through it.

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
