// The lock analyser's vocabulary: PostgreSQL's eight table lock modes, what each one blocks, and
// the report's shape. The report is the stable contract of src/locks/: commands render it, the
// lock-trace oracle (test/e2e/lock-trace.e2e.test.ts) compares it with what the server did.

/** PostgreSQL's table lock modes, weakest first (the order of their numeric levels). */
export const LOCK_MODES = ["ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"] as const;

export type LockMode = (typeof LOCK_MODES)[number];

/**
 * The modes each mode conflicts with. Ordinary reads (SELECT) take ACCESS SHARE; ordinary writes
 * (INSERT, UPDATE, DELETE, MERGE) take ROW EXCLUSIVE; SELECT … FOR UPDATE/SHARE takes ROW SHARE.
 */
export const CONFLICTS: Readonly<Record<LockMode, readonly LockMode[]>> = {
  "ACCESS SHARE": ["ACCESS EXCLUSIVE"],
  "ROW SHARE": ["EXCLUSIVE", "ACCESS EXCLUSIVE"],
  "ROW EXCLUSIVE": ["SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"],
  "SHARE UPDATE EXCLUSIVE": ["SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"],
  SHARE: ["ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"],
  "SHARE ROW EXCLUSIVE": ["ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"],
  EXCLUSIVE: ["ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"],
  "ACCESS EXCLUSIVE": [...LOCK_MODES],
};

/** What a held lock stops other sessions' ordinary statements from doing. */
export type Blocks = "reads and writes" | "writes" | "nothing";

/** How long the lock is held inside the statement: the work done under it. */
export type Holds = "catalog-only" | "scan" | "rewrite" | "build";

export const HOLDS_ORDER: readonly Holds[] = ["catalog-only", "scan", "build", "rewrite"];

export interface RelationLock {
  /** Schema-qualified, as PostgreSQL folds it (unquoted names lower-cased; `public` when unqualified). */
  readonly relation: string;
  readonly mode: LockMode;
}

export interface Finding {
  /** Stable, kebab-case (docs/locks.md lists every code). */
  readonly code: string;
  /** One sentence a person acts on. */
  readonly message: string;
}

export interface StatementLocks {
  /** The statement's position in the plan, from 0. */
  readonly index: number;
  readonly locks: readonly RelationLock[];
  readonly blocks: Blocks;
  readonly holds: Holds;
  readonly findings: readonly Finding[];
  /** Set when the statement was not analysed, with the reason; locks are then empty. */
  readonly notAnalysed?: string;
}

export type TransactionMode = "all" | "file" | "none";

export interface LockPolicy {
  readonly transactionMode?: TransactionMode;
  readonly lockTimeout?: string;
  readonly protectedTables?: readonly string[];
}

/** One span of statements whose locks are held together until its commit. */
export interface TransactionSpan {
  /** The statements' indexes (first..last, inclusive). */
  readonly first: number;
  readonly last: number;
  /** Each relation's strongest modes held until the span commits. */
  readonly locks: readonly RelationLock[];
  readonly blocks: Blocks;
  /** The longest hold of any statement in the span. */
  readonly longest: Holds;
}

export interface TransactionView {
  readonly mode: TransactionMode;
  /** The policy's lockTimeout, or the operator's default when the policy names none. */
  readonly lockTimeout: string;
  readonly spans: readonly TransactionSpan[];
  /** One line for people: what is held, until when, and what a queued lock request costs. */
  readonly summary: string;
}

export interface LockReport {
  readonly dialect: string;
  readonly analysed: boolean;
  /** Set when the plan was not analysed at all, e.g. "not analysed (dialect mysql)". */
  readonly reason?: string;
  readonly statements: readonly StatementLocks[];
  readonly transaction: TransactionView;
  /** All statements' findings, counted. */
  readonly findings: number;
  /** Statements with notAnalysed set, counted. */
  readonly notAnalysed: number;
}

export const levelOf = (mode: LockMode): number => LOCK_MODES.indexOf(mode);

/** The stronger of two modes by PostgreSQL's numeric level (what one command takes when its parts ask for several). */
export const stronger = (a: LockMode, b: LockMode): LockMode => (levelOf(a) >= levelOf(b) ? a : b);

/** What `mode` blocks: reads when it conflicts with ACCESS SHARE, writes when with ROW EXCLUSIVE. */
export function blocksOf(modes: Iterable<LockMode>): Blocks {
  let writes = false;
  for (const m of modes) {
    if (CONFLICTS[m].includes("ACCESS SHARE")) return "reads and writes";
    if (CONFLICTS[m].includes("ROW EXCLUSIVE")) writes = true;
  }
  return writes ? "writes" : "nothing";
}

/** Whether holding `a` blocks at least everything `b` blocks (so `b` adds nothing beside it). */
export const covers = (a: LockMode, b: LockMode): boolean => CONFLICTS[b].every((m) => CONFLICTS[a].includes(m));

/**
 * Each relation's modes reduced to the ones no other held mode covers, sorted by relation then
 * level: SHARE and ROW EXCLUSIVE both stay (neither covers the other); ACCESS SHARE beside
 * anything goes.
 */
export function reduceLocks(locks: Iterable<RelationLock>): RelationLock[] {
  const by = new Map<string, Set<LockMode>>();
  for (const l of locks) by.set(l.relation, (by.get(l.relation) ?? new Set()).add(l.mode));
  const out: RelationLock[] = [];
  for (const [relation, modes] of by) {
    const list = [...modes];
    for (const m of list) if (!list.some((o) => o !== m && covers(o, m) && (!covers(m, o) || levelOf(o) > levelOf(m)))) out.push({ relation, mode: m });
  }
  return out.sort((a, b) => (a.relation === b.relation ? levelOf(a.mode) - levelOf(b.mode) : a.relation < b.relation ? -1 : 1));
}

export const longer = (a: Holds, b: Holds): Holds => (HOLDS_ORDER.indexOf(a) >= HOLDS_ORDER.indexOf(b) ? a : b);
