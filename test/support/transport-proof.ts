// The read-only proof on the TypeScript checker's types: which members the seam and
// the transport offer, read from their declared types (not from the syntax of one class), and
// every place in src/ where a Transport — the class or a value of its type — is used. A value of
// type Transport may only be the receiver of one of its public members, named (never `t["x"]`,
// never destructured), or flow into a place whose type is Transport (a parameter, a variable, a
// property, a return); the class may only be constructed and named in types (never extended,
// never `Transport.prototype`). `create` may only be called, and only where readOnlyProof expects.
// test/guarantees/read-only.test.ts runs it on src/; test/guarantees/read-only-static.test.ts on copies with bypasses.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const SRC = path.resolve(import.meta.dirname, "..", "..", "src");

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  noEmit: true,
  strict: true,
  skipLibCheck: true,
  types: ["node"],
};

/** A program over src/, with some files' text replaced (`rel` → text): a scratch copy, in memory. */
export function srcProgram(replace: Readonly<Record<string, string>> = {}, oldProgram?: ts.Program): ts.Program {
  const host = ts.createCompilerHost(OPTIONS);
  const byPath = new Map(Object.entries(replace).map(([rel, text]) => [path.join(SRC, rel), text]));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, create) => {
    const text = byPath.get(path.resolve(name));
    return text === undefined ? getSourceFile(name, lang, onError, create) : ts.createSourceFile(name, text, lang);
  };
  const extra = [...byPath.keys()].filter((f) => !fs.existsSync(f));
  return ts.createProgram([...files(SRC), ...extra], OPTIONS, host, oldProgram);
}

export const rel = (s: ts.SourceFile): string => path.relative(SRC, s.fileName).split(path.sep).join("/");

export function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((c) => walk(c, visit));
}

/** The string literals a type is made of, or undefined when it is not a union of literals only. */
export function literals(type: ts.Type): string[] | undefined {
  const parts = type.isUnion() ? type.types : [type];
  if (!parts.every((t) => t.isStringLiteral())) return undefined;
  return parts.map((t) => (t as ts.StringLiteralType).value).sort();
}

function enclosingName(node: ts.Node): string {
  for (let n = node.parent; n; n = n.parent) {
    if ((ts.isMethodDeclaration(n) || ts.isFunctionDeclaration(n)) && n.name) return n.name.getText();
  }
  return "?";
}

/** The public members of a declared type (class or interface), from the checker, inherited ones included. */
export function publicMembers(checker: ts.TypeChecker, symbol: ts.Symbol): string[] {
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  return checker
    .getPropertiesOfType(type)
    .filter((p) => !(p.declarations ?? []).some((d) => ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) && !p.name.startsWith("#"))
    .map((p) => p.name)
    .sort();
}

export function exported(program: ts.Program, file: string, name: string): ts.Symbol {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(SRC, file));
  const symbol = source && checker.getSymbolAtLocation(source) && checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((s) => s.name === name);
  if (!symbol) throw new Error(`${name} is not exported by src/${file}`);
  return symbol;
}

export interface TransportUses {
  /** `file:function` of each call of create, with the literal kinds its request names. */
  readonly creates: { readonly call: string; readonly kinds: string[] | undefined }[];
  /** Every other use that is not allowed, one line each. */
  readonly problems: string[];
  /** `file:function member` of every allowed member use (for the caller's own expectations). */
  readonly members: string[];
}

/**
 * Every use of the Transport class and of values of its type in src/ (or only in `only`, the files
 * of a scratch copy that changed), outside the class itself.
 */
export function transportUses(program: ts.Program, only?: readonly string[]): TransportUses {
  const checker = program.getTypeChecker();
  const cls = exported(program, "kube/http.ts", "Transport");
  const surface = new Set(publicMembers(checker, cls));
  const classDecl = cls.declarations![0]!;
  const resolve = (s: ts.Symbol | undefined): ts.Symbol | undefined => (s && s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const isTransportType = (t: ts.Type | undefined): boolean => !!t && (t.getSymbol() === cls || (t.isUnion() && t.types.some((u) => u.getSymbol() === cls)));
  const creates: TransportUses["creates"] = [];
  const problems: string[] = [];
  const members: string[] = [];
  for (const s of program.getSourceFiles().filter((f) => f.fileName.startsWith(SRC) && (!only || only.includes(rel(f))))) {
    const where = (n: ts.Node): string => `${rel(s)}:${enclosingName(n)} \`${n.getText().slice(0, 80)}\``;
    walk(s, (n) => {
      if (n.pos >= classDecl.pos && n.end <= classDecl.end && n.getSourceFile() === classDecl.getSourceFile()) return;
      const p = n.parent;
      if (!p) return;
      // The class itself, by name.
      if (ts.isIdentifier(n) && resolve(checker.getSymbolAtLocation(n)) === cls) {
        if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p) || ts.isTypeReferenceNode(p) || ts.isTypeQueryNode(p)) return;
        if (ts.isNewExpression(p) && p.expression === n) return;
        if (ts.isExpressionWithTypeArguments(p) && ts.isHeritageClause(p.parent) && p.parent.token === ts.SyntaxKind.ImplementsKeyword) return;
        problems.push(`${where(p)}: the Transport class used other than constructed or named as a type`);
        return;
      }
      if (ts.isObjectBindingPattern(n) && isTransportType(checker.getTypeAtLocation(n))) {
        problems.push(`${where(n)}: a Transport destructured`);
        return;
      }
      // A value of type Transport.
      if (!isUse(n) || !isTransportType(checker.getTypeAtLocation(n))) return;
      let outer: ts.Node = n;
      while (ts.isParenthesizedExpression(outer.parent) || ts.isNonNullExpression(outer.parent)) outer = outer.parent;
      const up = outer.parent;
      if (ts.isPropertyAccessExpression(up) && up.expression === outer) {
        const name = up.name.text;
        if (!surface.has(name)) problems.push(`${where(up)}: ${name} is not a public member of Transport`);
        else if (name === "create") {
          if (!(ts.isCallExpression(up.parent) && up.parent.expression === up)) problems.push(`${where(up)}: create is taken without being called`);
          else {
            const kind = up.parent.arguments[0] && checker.getTypeAtLocation(up.parent.arguments[0]).getProperty("kind");
            creates.push({ call: `${rel(s)}:${enclosingName(up)}`, kinds: kind ? literals(checker.getTypeOfSymbol(kind)) : undefined });
          }
        } else members.push(`${rel(s)}:${enclosingName(up)} ${name}`);
        return;
      }
      if (ts.isVariableDeclaration(up) && up.initializer === outer && ts.isIdentifier(up.name)) return; // its uses are checked
      if (ts.isBinaryExpression(up) && up.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        // A Transport-typed place being written (its value is checked where it comes from), or a
        // Transport written into one.
        if (up.left === outer) return;
        if (up.right === outer && isTransportType(checker.getTypeAtLocation(up.left))) return;
      }
      if ((ts.isCallExpression(up) || ts.isNewExpression(up)) && up.arguments?.includes(outer as ts.Expression)) {
        // An argument: the parameter it lands in must be declared a Transport (a generic one, as
        // Reflect.get's, takes anything).
        const params = checker.getResolvedSignature(up)?.getDeclaration()?.parameters ?? [];
        const param = params[Math.min(up.arguments.indexOf(outer as ts.Expression), params.length - 1)];
        if (param && !param.dotDotDotToken && isTransportType(checker.getTypeAtLocation(param))) return;
        problems.push(`${where(up)}: a Transport handed to a parameter that is not a Transport`);
        return;
      }
      if (isTransportType(checker.getContextualType(outer as ts.Expression))) return;
      problems.push(`${where(up)}: a Transport used other than through a named public member or as a Transport`);
    });
  }
  return { creates, problems, members };
}

/** An expression node in a value position (not a declaration's name, not the name after a dot). */
function isUse(n: ts.Node): boolean {
  const p = n.parent;
  if (ts.isIdentifier(n)) {
    if ((ts.isPropertyAccessExpression(p) && p.name === n) || ts.isQualifiedName(p)) return false;
    if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isPropertyDeclaration(p) || ts.isBindingElement(p) || ts.isPropertySignature(p)) && p.name === n) return false;
    if (ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isTypeReferenceNode(p) || ts.isPropertyAssignment(p)) return false;
    return true;
  }
  return ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n) || ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isAsExpression(n);
}

/** The three approval kinds, created only as a dry run. */
export const DRY_RUN_KINDS = ["PtahMigrationApproval", "PtahMigrationRunAcknowledgment", "PtahSchemaApproval"];
/**
 * The reviews the plugin sends (they store nothing). Allowing another is this one line, plus the
 * transport's ReviewKind and REVIEW_PATHS (src/kube/http.ts) and the audit's REVIEW_RESOURCES.
 */
export const REVIEW_KINDS = ["SelfSubjectAccessReview", "SelfSubjectReview"];

/** Where create is called, and with which kinds: the reader's two exceptions, nothing else. */
export const EXPECTED_CREATES = [
  { call: "kube/reader.ts:dryRunCreate", kinds: DRY_RUN_KINDS },
  { call: "kube/reader.ts:reviewOne", kinds: ["SelfSubjectAccessReview"] },
  // Four-eyes: who the caller is (the server answers with the request's user).
  { call: "kube/reader.ts:whoAmI", kinds: ["SelfSubjectReview"] },
];

/**
 * The whole proof on one program: the surfaces (read from the checker's types), every use of the
 * Transport, and the create calls (in `only`'s files, when given: a scratch copy's changed files).
 * Empty when it holds; one line per problem otherwise.
 */
export function readOnlyProof(program: ts.Program, only?: readonly string[]): string[] {
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  const surface = (file: string, name: string, want: string[]): void => {
    const got = publicMembers(checker, exported(program, file, name));
    if (got.join() !== want.join()) problems.push(`${name}'s public members are ${got.join(", ")}, not ${want.join(", ")}`);
  };
  surface("kube/types.ts", "ClusterReader", ["dryRunCreate", "get", "list", "reviewAccess", "serverInfo", "watch", "whoAmI"]);
  surface("kube/reader.ts", "HttpClusterReader", ["dryRunCreate", "get", "list", "reviewAccess", "serverInfo", "watch", "whoAmI"]);
  surface("kube/http.ts", "Transport", ["close", "config", "create", "get", "stream"]);
  const uses = transportUses(program, only);
  problems.push(...uses.problems);
  const expected = EXPECTED_CREATES.filter((c) => !only || only.includes(c.call.split(":")[0]!));
  const got = JSON.stringify(uses.creates);
  if (got !== JSON.stringify(expected)) problems.push(`create is called as ${got}, not as ${JSON.stringify(expected)}`);
  return problems;
}

/**
 * Every write of a request's method in src/ (or in `only`'s files): an object literal's `method:`
 * and an assignment to `x.method` or `x["method"]`, by the function it is in, with the literal it
 * writes or `<expression>`. test/guarantees/read-only.test.ts holds it to the transport's closed set.
 */
export function methodWrites(program: ts.Program, only?: readonly string[]): string[] {
  program.getTypeChecker(); // binds the files: their nodes know their parents
  const found: string[] = [];
  for (const s of program.getSourceFiles().filter((f) => f.fileName.startsWith(SRC) && !f.isDeclarationFile && (!only || only.includes(rel(f))))) {
    walk(s, (n) => {
      let value: ts.Expression | undefined;
      if ((ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) && ts.isIdentifier(n.name) && n.name.text === "method")
        value = ts.isPropertyAssignment(n) ? n.initializer : n.name;
      if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
        const left = n.left;
        const named = ts.isPropertyAccessExpression(left)
          ? left.name.text
          : ts.isElementAccessExpression(left) && ts.isStringLiteralLike(left.argumentExpression)
            ? left.argumentExpression.text
            : undefined;
        if (named === "method") value = n.right;
      }
      if (!value) return;
      const where = `${rel(s)}:${enclosingName(n)}`;
      found.push(ts.isStringLiteral(value) ? `${where} "${value.text}"` : `${where} <${value.getText()}>`);
    });
  }
  return found;
}

/** The writes of a method methodWrites may find: GET anywhere, once's own parameter, the proxy's CONNECT. */
export function unexpectedMethodWrites(program: ts.Program, only?: readonly string[]): string[] {
  const allowed = ["kube/http.ts:once <method>", 'kube/proxy-tunnel.ts:createConnection "CONNECT"'];
  return methodWrites(program, only)
    .filter((f) => !/ "GET"$/u.test(f) && !allowed.includes(f))
    .map((f) => `a request's method written as ${f}: only GET, once's closed "GET" | "POST" and the proxy's CONNECT`);
}
