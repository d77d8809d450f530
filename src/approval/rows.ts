// One row per approval, bound to the owner (schema or migration) its reference names, with the
// derived state of state.ts. `approvals` renders these rows; `ledger` extends them with the
// durable times of each approval's story.
import type { PtahMigration, PtahMigrationApproval, PtahSchema, PtahSchemaApproval } from "../model/kinds.ts";
import { deriveMigrationApprovalState, deriveSchemaApprovalState, type DerivedApprovalState } from "./state.ts";

export interface ApprovalRow<A, O> {
  readonly namespace: string;
  readonly name: string;
  readonly owner: string;
  readonly plan: string;
  readonly approver: string;
  readonly state: DerivedApprovalState;
  readonly created: string | undefined;
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly approval: A;
  /** The owner the approval binds, when it was read and its UID still matches. */
  readonly bound: O | undefined;
}

type AnyApproval = PtahSchemaApproval | PtahMigrationApproval;
type Owner = { readonly metadata: { readonly name: string; readonly namespace?: string; readonly uid?: string } };
type Ref = { name?: string; uid?: string } | undefined;

function byKey(ns: string, name: string): string {
  return `${ns}/${name}`;
}

function sortRows<R extends { namespace: string; created: string | undefined; name: string }>(rows: R[]): R[] {
  return rows.sort((a, b) => a.namespace.localeCompare(b.namespace) || (a.created ?? "").localeCompare(b.created ?? "") || a.name.localeCompare(b.name));
}

/** The owner a reference names, when its UID still matches (a recreated owner is another one). */
export function ownerIndex<O extends Owner>(owners: readonly O[]): (namespace: string, ref: Ref) => O | undefined {
  const index = new Map(owners.map((o) => [byKey(o.metadata.namespace ?? "", o.metadata.name), o]));
  return (namespace, ref) => {
    const owner = index.get(byKey(namespace, ref?.name ?? ""));
    return owner && (!ref?.uid || !owner.metadata.uid || ref.uid === owner.metadata.uid) ? owner : undefined;
  };
}

function approvalRows<A extends AnyApproval, O extends Owner>(
  approvals: readonly A[],
  owners: readonly O[],
  refOf: (a: A) => Ref,
  derive: (a: A, owner: O | undefined) => DerivedApprovalState,
  ordered: boolean,
): ApprovalRow<A, O>[] {
  const find = ownerIndex(owners);
  const rows = approvals.map((a) => {
    const ns = a.metadata.namespace ?? "";
    const ref = refOf(a);
    const bound = find(ns, ref);
    return {
      namespace: ns,
      name: a.metadata.name,
      owner: ref?.name ?? "-",
      plan: a.spec.planRef?.name ?? "-",
      approver: a.spec.approver?.username ?? "-",
      state: derive(a, bound),
      created: a.metadata.creationTimestamp,
      labels: a.metadata.labels,
      approval: a,
      bound,
    };
  });
  return ordered ? rows : sortRows(rows);
}

/** `ordered`: the approvals are already in the order to print (--sort-by); else sorted by namespace, age, name. */
export function schemaApprovalRows(approvals: readonly PtahSchemaApproval[], schemas: readonly PtahSchema[], ordered = false): ApprovalRow<PtahSchemaApproval, PtahSchema>[] {
  return approvalRows(approvals, schemas, (a) => a.spec.schemaRef, deriveSchemaApprovalState, ordered);
}

export function migrationApprovalRows(
  approvals: readonly PtahMigrationApproval[],
  migrations: readonly PtahMigration[],
  ordered = false,
): ApprovalRow<PtahMigrationApproval, PtahMigration>[] {
  return approvalRows(approvals, migrations, (a) => a.spec.migrationRef, deriveMigrationApprovalState, ordered);
}
