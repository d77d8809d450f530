// PostgreSQL's own parser (libpg-query: the server's grammar compiled to WebAssembly), loaded on
// first use only: the module and its ~1.1 MB of WebAssembly are imported by the first analysis
// (or by preloadParser), never by a command that does not analyse locks. A statement the parser
// refuses, one too large to parse cheaply, or a parser that fails in any way is an answer
// (ParseResult.error), never a throw.
import { setFlagsFromString } from "node:v8";

/** A node of the parser's JSON tree, read loosely: every access is checked where it is used. */
export type Node = Record<string, unknown>;

export type ParseResult = { readonly stmts: readonly Node[] } | { readonly error: string };

/** Statements larger than this are not parsed: the parser's time grows with size (3.7 MB ≈ 0.7 s). */
export const MAX_STATEMENT_BYTES = 1024 * 1024;

/**
 * libpg-query's Emscripten module. Its own wrapper (the package's index) finds the end of each
 * answer with a JavaScript loop over every byte and encodes the statement one character at a time;
 * at 39 MB of parse trees for an 8 MiB plan that loop alone was ~0.2 s. This calls the same
 * exported C function (`wasm_parse_query_raw`) with the copy and the search done natively.
 */
interface Glue {
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _wasm_parse_query_raw(queryPtr: number): number;
  _wasm_free_parse_result(resultPtr: number): void;
  /** Re-assigned when the module's memory grows: read it after every call. */
  readonly HEAPU8: Uint8Array;
}

/**
 * The parser's WebAssembly is compiled by V8's baseline compiler (Liftoff) only. With tiering, the
 * functions a parse makes hot go to TurboFan on a background thread, and the process cannot exit until
 * those jobs end: `approve` of a one-statement plan waited ~50 ms after its last line, and the 8 MiB
 * plan's jobs held ~50 MB. Liftoff's code parses this grammar as fast (9,000 statements: 236 against
 * 251 ms; docs/locks.md, measured on Node 20). V8 reads the flag when a module is compiled, so it is set
 * just before the load. V8 has had the flag since 2019 and every V8 a supported Node ships has it (a
 * test runs it on this Node and requires a silent stderr).
 */
export function compileBaselineOnly(): void {
  setFlagsFromString("--liftoff-only");
}

let loading: Promise<Glue> | undefined;
let loaded: Glue | undefined;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Loads the parser (once; later calls share the first). Resolves when statements can be parsed. */
export function preloadParser(): Promise<void> {
  loading ??= import("libpg-query/wasm/libpg-query.js").then(async (ns) => {
    compileBaselineOnly();
    // A CommonJS module whose export is the module factory: the namespace's default in Node,
    // vitest and the bundle's interop alike (a missing one rejects here, an answer like any other).
    const m: unknown = await ns.default();
    if (!isGlue(m)) throw new Error("libpg-query's module lacks the parse function");
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
  // A string of more UTF-16 units than the limit has more UTF-8 bytes too: refused before encoding.
  if (sql.length > MAX_STATEMENT_BYTES) return tooLarge(utf8Length(sql));
  const utf8 = encoder.encode(sql);
  if (utf8.length > MAX_STATEMENT_BYTES) return tooLarge(utf8.length);
  if (sql.trim() === "") return { error: "the statement is empty" };
  // The parser reads a C string: a NUL would end the statement early, so it is refused here.
  if (utf8.includes(0)) return { error: "the statement holds a NUL character" };
  let tree: unknown;
  try {
    tree = parseTree(loaded, utf8);
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

/**
 * One call of `wasm_parse_query_raw`: the statement as a NUL-terminated UTF-8 string in the
 * module's memory; its answer a struct of three pointers (the JSON tree, the parser's stderr, an
 * error whose first field is its message). Throws the parser's message on an error.
 */
function parseTree(glue: Glue, utf8: Uint8Array): unknown {
  const queryPtr = glue._malloc(utf8.length + 1);
  if (queryPtr === 0) throw new Error("the parser could not allocate memory");
  let resultPtr = 0;
  try {
    let heap = glue.HEAPU8;
    heap.set(utf8, queryPtr);
    heap[queryPtr + utf8.length] = 0;
    resultPtr = glue._wasm_parse_query_raw(queryPtr);
    if (resultPtr === 0) throw new Error("the parser could not allocate memory");
    heap = glue.HEAPU8;
    const treePtr = pointerAt(heap, resultPtr);
    const errorPtr = pointerAt(heap, resultPtr + 8);
    if (errorPtr !== 0) {
      const messagePtr = pointerAt(heap, errorPtr);
      throw new Error(messagePtr === 0 ? "unknown error" : cString(heap, messagePtr));
    }
    if (treePtr === 0) throw new Error("the parser returned no tree");
    return JSON.parse(cString(heap, treePtr));
  } finally {
    glue._free(queryPtr);
    if (resultPtr !== 0) glue._wasm_free_parse_result(resultPtr);
  }
}

/** A 32-bit little-endian pointer stored at `at` (WebAssembly's memory is little-endian). */
const pointerAt = (heap: Uint8Array, at: number): number => (heap[at]! | (heap[at + 1]! << 8) | (heap[at + 2]! << 16) | (heap[at + 3]! << 24)) >>> 0;

/** The NUL-terminated UTF-8 string at `ptr`, found and decoded natively. */
function cString(heap: Uint8Array, ptr: number): string {
  const end = heap.indexOf(0, ptr);
  return decoder.decode(heap.subarray(ptr, end < 0 ? heap.length : end));
}

const isGlue = (m: unknown): m is Glue =>
  typeof m === "object" &&
  m !== null &&
  ["_malloc", "_free", "_wasm_parse_query_raw", "_wasm_free_parse_result"].every((f) => typeof (m as Record<string, unknown>)[f] === "function") &&
  (m as Glue).HEAPU8 instanceof Uint8Array;

const tooLarge = (bytes: number): ParseResult => ({ error: `the statement is ${bytes} bytes, over the ${MAX_STATEMENT_BYTES}-byte limit of the analysis` });

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
