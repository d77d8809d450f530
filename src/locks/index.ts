// The lock analyser's public surface (docs/locks.md): analyse a plan's statements, preload the
// parser, and the report's types and vocabulary.
export { analyseLoaded, analyseStatements } from "./analyse.ts";
export { FINDING_CODES, type FindingCode } from "./finding-codes.ts";
export { MAX_STATEMENT_BYTES, parserLoaded, preloadParser } from "./parser.ts";
export { DEFAULT_LOCK_TIMEOUT } from "./transaction.ts";
export {
  blocksOf,
  CONFLICTS,
  covers,
  LOCK_MODES,
  reduceLocks,
  type Blocks,
  type Finding,
  type Holds,
  type LockMode,
  type LockPolicy,
  type LockReport,
  type RelationLock,
  type StatementLocks,
  type TransactionMode,
  type TransactionSpan,
  type TransactionView,
} from "./lock-types.ts";
