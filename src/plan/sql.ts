// What a plan's SQL does to privileges, credentials and data, read with a lexer that knows
// quotes, comments and dollar quoting, so that words inside a string literal,
// a comment or a function body never count. Best effort by design: it can only add to what the
// operator recorded (raise), never clear it. Pure.

export type PrivilegeKind = "Grant" | "Revoke" | "RoleMembership" | "Role" | "Ownership" | "RowSecurityPolicy" | "SecurityDefiner" | "Definer" | "FunctionReplacement";

/** The order kinds are listed in when this plugin reports them (the contract's enum order). */
export const PRIVILEGE_KINDS: readonly PrivilegeKind[] = [
  "Grant",
  "Revoke",
  "RoleMembership",
  "Role",
  "Ownership",
  "RowSecurityPolicy",
  "SecurityDefiner",
  "Definer",
  "FunctionReplacement",
];

interface Token {
  /** Unquoted word (uppercased), quoted identifier, or a one-character symbol. */
  readonly type: "word" | "ident" | "symbol";
  readonly text: string;
}

function isMySQL(dialect: string): boolean {
  const d = dialect.toLowerCase();
  return d.startsWith("mysql") || d.startsWith("mariadb");
}

/** Splits SQL into words, quoted identifiers and symbols; literals and comments are dropped. */
export function scanSql(sql: string, dialect: string): Token[] {
  const mysql = isMySQL(dialect);
  const out: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "#" && mysql) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      i = skipBlockComment(sql, i, !mysql);
    } else if (c === "'") {
      // E'…' (PostgreSQL) and every MySQL string honour backslash escapes.
      const prev = out[out.length - 1];
      const escapePrefix = i > 0 && /[eE]/.test(sql[i - 1]!) && (i < 2 || !/[A-Za-z0-9_$]/.test(sql[i - 2]!)) && prev?.text === "E";
      if (escapePrefix) out.pop();
      i = skipQuoted(sql, i, "'", mysql || escapePrefix);
    } else if (c === '"') {
      // A MySQL double-quoted text is a string literal; in PostgreSQL it is an identifier.
      const end = skipQuoted(sql, i, '"', mysql);
      if (!mysql) out.push({ type: "ident", text: sql.slice(i + 1, end - 1) });
      i = end;
    } else if (c === "`") {
      const end = skipQuoted(sql, i, "`", false);
      out.push({ type: "ident", text: sql.slice(i + 1, end - 1) });
      i = end;
    } else if (c === "$" && !mysql && isDollarQuoteStart(sql, i)) {
      i = skipDollarQuoted(sql, i);
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j]!)) j++;
      out.push({ type: "word", text: sql.slice(i, j).toUpperCase() });
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(sql[j]!)) j++;
      i = j;
    } else {
      out.push({ type: "symbol", text: c });
      i++;
    }
  }
  return out;
}

function skipBlockComment(sql: string, start: number, nested: boolean): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === "/" && sql[i + 1] === "*") {
      depth = nested || depth === 0 ? depth + 1 : depth;
      i += 2;
    } else if (sql[i] === "*" && sql[i + 1] === "/") {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}

/** Returns the index just past the closing quote; a doubled quote is an escaped quote. */
function skipQuoted(sql: string, start: number, quote: string, backslash: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslash && c === "\\") {
      i += 2;
    } else if (c === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return sql.length;
}

const DOLLAR_TAG = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

function isDollarQuoteStart(sql: string, i: number): boolean {
  // "$1" is a parameter, and a "$" inside an identifier was consumed with the word.
  return DOLLAR_TAG.test(sql.slice(i, i + 64));
}

function skipDollarQuoted(sql: string, start: number): number {
  const tag = DOLLAR_TAG.exec(sql.slice(start, start + 64))![0];
  const end = sql.indexOf(tag, start + tag.length);
  return end < 0 ? sql.length : end + tag.length;
}

/** Statements inside one `sql` text, split at top-level semicolons (tokens only, never text). */
function splitTokens(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const t of tokens) {
    if (t.type === "symbol" && t.text === ";") out.push([]);
    else out[out.length - 1]!.push(t);
  }
  return out.filter((s) => s.length > 0);
}

function words(ts: readonly Token[]): string[] {
  return ts.map((t) => (t.type === "word" ? t.text : t.type === "symbol" ? t.text : "\u0000ident"));
}

function hasSequence(w: readonly string[], seq: readonly string[]): boolean {
  outer: for (let i = 0; i + seq.length <= w.length; i++) {
    for (let j = 0; j < seq.length; j++) if (w[i + j] !== seq[j]) continue outer;
    return true;
  }
  return false;
}

function indexOfWord(w: readonly string[], word: string): number {
  return w.indexOf(word);
}

/** The principal kinds after CREATE/ALTER/DROP that are roles (not "USER MAPPING"). */
function principalStatement(w: readonly string[]): boolean {
  if (!["CREATE", "ALTER", "DROP"].includes(w[0] ?? "")) return false;
  const noun = w[1] === "IF" ? w[3] : w[1];
  if (noun === "ROLE" || noun === "GROUP") return true;
  return noun === "USER" && w[2] !== "MAPPING";
}

export interface SqlReading {
  readonly privilegeKinds: ReadonlySet<PrivilegeKind>;
  readonly destructive: boolean;
  readonly carriesCredentials: boolean;
}

const NOT_A_COLUMN = new Set(["CONSTRAINT", "DEFAULT", "NOT", "IDENTITY", "EXPRESSION", "INDEX", "KEY", "PRIMARY", "FOREIGN", "CHECK", "PARTITION"]);

/** Reads one statement's SQL text (which may hold several statements). */
export function readSql(sql: string, dialect: string): SqlReading {
  const kinds = new Set<PrivilegeKind>();
  let destructive = false;
  let credentials = false;
  for (const stmt of splitTokens(scanSql(sql, dialect))) {
    const w = words(stmt);
    const first = w[0];
    if (first === "GRANT") {
      const on = indexOfWord(w, "ON");
      const to = indexOfWord(w, "TO");
      kinds.add(on >= 0 && (to < 0 || on < to) ? "Grant" : "RoleMembership");
    } else if (first === "REVOKE") {
      const on = indexOfWord(w, "ON");
      const from = indexOfWord(w, "FROM");
      kinds.add(on >= 0 && (from < 0 || on < from) ? "Revoke" : "RoleMembership");
    } else if (first === "ALTER" && w[1] === "DEFAULT" && w[2] === "PRIVILEGES") {
      if (w.includes("GRANT")) kinds.add("Grant");
      if (w.includes("REVOKE")) kinds.add("Revoke");
    } else if (first === "REASSIGN" && w[1] === "OWNED") {
      kinds.add("Ownership");
    }
    if (principalStatement(w)) {
      kinds.add("Role");
      if (first !== "DROP" && (w.includes("PASSWORD") || w.includes("IDENTIFIED"))) credentials = true;
    }
    if (first === "SET" && w[1] === "PASSWORD") credentials = true;
    if (hasSequence(w, ["OWNER", "TO"])) kinds.add("Ownership");
    if (["CREATE", "ALTER", "DROP"].includes(first ?? "") && w[1] === "POLICY") kinds.add("RowSecurityPolicy");
    if (hasSequence(w, ["ROW", "LEVEL", "SECURITY"])) kinds.add("RowSecurityPolicy");
    if (hasSequence(w, ["SECURITY", "DEFINER"])) kinds.add("SecurityDefiner");
    if (hasSequence(w, ["DEFINER", "="])) kinds.add("Definer");
    if (first === "CREATE" && w[1] === "OR" && w[2] === "REPLACE" && (w[3] === "FUNCTION" || w[3] === "PROCEDURE")) {
      kinds.add("FunctionReplacement");
    }
    if (isDestructive(w)) destructive = true;
  }
  return { privilegeKinds: kinds, destructive, carriesCredentials: credentials };
}

function isDestructive(w: readonly string[]): boolean {
  const first = w[0];
  if (first === "TRUNCATE") return true;
  if (first === "DROP" && ["TABLE", "SCHEMA", "DATABASE"].includes(w[1] ?? "")) return true;
  if (first !== "ALTER" || w[1] !== "TABLE") return false;
  for (let i = 2; i < w.length; i++) {
    const word = w[i];
    if (word === "DROP") {
      const next = w[i + 1];
      if (next === "COLUMN") return true;
      if (next !== undefined && !NOT_A_COLUMN.has(next)) return true;
    }
    if (word === "TYPE" && w.slice(2, i).includes("COLUMN")) return true;
    if ((word === "MODIFY" || word === "CHANGE") && i > 2) return true;
  }
  return false;
}

/** Privilege kinds read from a whole plan, in the contract's enum order. */
export function sortPrivilegeKinds(kinds: Iterable<string>): string[] {
  const known = new Map<string, number>(PRIVILEGE_KINDS.map((k, i) => [k, i]));
  return [...new Set(kinds)].sort((a, b) => (known.get(a) ?? 99) - (known.get(b) ?? 99) || (a < b ? -1 : a > b ? 1 : 0));
}
