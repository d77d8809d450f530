// PostgreSQL's own parser (libpg-query: the server's grammar compiled to WebAssembly), loaded on
// first use only: the module and its ~1.1 MB of WebAssembly are imported by the first analysis
// (or by preloadParser), never by a command that does not analyse locks. A statement the parser
// refuses, one too large to parse cheaply, or a parser that fails in any way is an answer
// (ParseResult.error), never a throw.

/** A node of the parser's JSON tree, read loosely: every access is checked where it is used. */
export type Node = Record<string, unknown>;

export type ParseResult = { readonly stmts: readonly Node[] } | { readonly error: string };

/** Statements larger than this are not parsed: the parser's time grows with size (3.7 MB ≈ 0.7 s). */
export const MAX_STATEMENT_BYTES = 1024 * 1024;

interface Parser {
  loadModule(): Promise<void>;
  parseSync(sql: string): unknown;
}

let loading: Promise<Parser> | undefined;
let loaded: Parser | undefined;

/** Loads the parser (once; later calls share the first). Resolves when statements can be parsed. */
export function preloadParser(): Promise<void> {
  loading ??= import("libpg-query").then(async (ns: unknown) => {
    // A CommonJS package: its exports are the namespace itself (Node, vitest) or its default (a
    // bundle's interop, dist/npm/).
    const m = (hasLoader(ns) ? ns : (ns as { default?: unknown }).default) as Parser | undefined;
    if (!hasLoader(m)) throw new Error("libpg-query has no loadModule");
    await m.loadModule();
    loaded = m;
    return m;
  });
  return loading.then(() => undefined);
}

/** Whether the parser is loaded (a test of the lazy load reads it). */
export const parserLoaded = (): boolean => loaded !== undefined;

/** Parses one plan statement; `preloadParser` must have resolved. */
export function parseStatement(sql: string): ParseResult {
  if (!loaded) return { error: "the PostgreSQL parser is not loaded" };
  const bytes = utf8Length(sql);
  if (bytes > MAX_STATEMENT_BYTES) return { error: `the statement is ${bytes} bytes, over the ${MAX_STATEMENT_BYTES}-byte limit of the analysis` };
  if (sql.trim() === "") return { error: "the statement is empty" };
  // The parser reads a C string: a NUL would end the statement early, so it is refused here.
  if (sql.includes("\u0000")) return { error: "the statement holds a NUL character" };
  let tree: unknown;
  try {
    tree = loaded.parseSync(sql);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { error: `PostgreSQL's parser refused it: ${message}` };
  }
  const stmts = isNode(tree) && Array.isArray(tree.stmts) ? tree.stmts : undefined;
  if (!stmts) return { error: "the parser returned no statements" };
  const out: Node[] = [];
  for (const raw of stmts as unknown[]) {
    const stmt = isNode(raw) ? raw.stmt : undefined;
    if (!isNode(stmt)) return { error: "the parser returned a statement of an unknown shape" };
    out.push(stmt);
  }
  if (out.length === 0) return { error: "the statement holds only comments" };
  return { stmts: out };
}

const hasLoader = (m: unknown): m is Parser => typeof m === "object" && m !== null && typeof (m as Parser).loadModule === "function";

export const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
