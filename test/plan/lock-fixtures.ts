// A schema whose current plan needs the lock analyser's findings (an index without CONCURRENTLY,
// a type change that rewrites, a foreign key without NOT VALID), under a policy that names
// transactionMode, lockTimeout and a protected table: plan --locks, inbox --locks and approve read it.
import { AWAITING_CONDITIONS } from "../support/builders.ts";
import { clusterState, publishCurrent } from "./fixtures.ts";

/** A plan whose statements need the findings an approver must see, under a policy that names them. */
export const LOCK_STATEMENTS = [
  { sql: 'CREATE INDEX "orders_placed_at_idx" ON "orders" ("placed_at")', severity: "safe", reason: "index orders_placed_at_idx added" },
  { sql: 'ALTER TABLE "orders" ALTER COLUMN "total" TYPE numeric(12,2)', severity: "warning", reason: "column orders.total type changed" },
  {
    sql: 'ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_fk" FOREIGN KEY ("order_id") REFERENCES "orders" ("id")',
    severity: "safe",
    reason: "foreign key order_items_order_fk added",
  },
  { sql: "COMMENT ON TABLE \"orders\" IS 'placed orders'", severity: "safe", reason: "comment changed" },
];

/** The fixtures' schema, waiting for an approval of that plan; `null` policy: none at all. */
export function lockState(policy: Record<string, unknown> | null = { transactionMode: "all", lockTimeout: "10s", protectedTables: ["orders"] }, dialect?: string) {
  const state = clusterState({ current: publishCurrent({ statements: LOCK_STATEMENTS, ...(dialect ? { dialect } : {}) }) });
  const status = { ...(state.schema.status as Record<string, unknown>), conditions: AWAITING_CONDITIONS };
  const spec = { ...(state.schema.spec as Record<string, unknown>), ...(policy ? { policy } : {}) };
  state.reader.put("PtahSchema", { ...state.schema, spec, status });
  return state;
}
