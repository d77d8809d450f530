// Who may reach the process, Function or the global object, by the checker's types: every
// expression of src/ is typed by the TypeScript compiler, and one whose type is NodeJS.Process
// (`process`, `global.process`, a default or namespace import of node:process, a value taken
// from any of them), `typeof globalThis` (`globalThis`, `global`), Function's constructor or
// the untyped `Function` (`Function`, `x.constructor`), NodeJS.Require or a Module (`require`,
// `module`, `createRequire(…)`), or that is the global `eval`, is a reach. A module may reach
// only what PROCESS_REACH lists for it; anything else is named with its file, line and text.
// What it is called does not matter: `const p = process`, `globalThis["process"]`,
// `Reflect.get(globalThis, "process")` and `Function("return this")()` are each a reach of the
// same kind. Any import of node:process outside the list is named too (its functions alone,
// `import { getBuiltinModule } from "node:process"`, have no type of their own to catch).
// test/guarantees/allowlists.test.ts runs it on src/ and on copies of real modules with plants.
import ts from "typescript";
import { SRC, rel } from "./transport-proof.ts";

export type Reach = "process" | "globalThis" | "Function" | "eval" | "require";

/**
 * The modules that may reach the process, and how: `process.x` names the one member a module may
 * read or call (any other use of the process there — passed on, computed, destructured — is
 * named), `process` any use, and `require` Node's module loader. The entry (argv, stdio, env,
 * exit, signals, isatty), the process guard (it replaces process's own functions), the two loaders
 * (they hand the bundle Node's built-ins; the code cache's key names the Node that compiled it; in
 * the single binary the npm loader names the tree's files after the binary's own path, execPath),
 * doctor's machine facts (this program's own path, the platform), the klog prefix's pid and the V8
 * version that decides a large read's tuning.
 */
export const PROCESS_REACH: Readonly<Record<string, readonly string[]>> = {
  "main.ts": [
    "process.argv",
    "process.env",
    "process.exit",
    "process.exitCode",
    "process.getBuiltinModule",
    "process.once",
    "process.platform",
    "process.stderr",
    "process.stdin",
    "process.stdout",
  ],
  "cli/process-guard.ts": ["process", "require"],
  "cli/egress-guard.ts": ["process"],
  "cli/egress-diagnostics.ts": ["process"],
  "cli/code-cache.ts": ["process.arch", "process.env", "process.execPath", "process.getBuiltinModule", "process.once", "process.platform", "process.version", "require"],
  "cli/embedded.ts": ["process.getBuiltinModule"],
  "cli/local.ts": ["process.argv", "process.execPath", "process.platform"],
  "kube/request-log.ts": ["process.pid"],
  "kube/young-generation.ts": ["process.versions"],
};

const NODE_TYPES = /[\\/]node_modules[\\/]@types[\\/]node[\\/]/u;

/** A declaration in TypeScript's own lib or in Node's types: the real global, not a namesake of ours. */
function isAmbient(program: ts.Program, d: ts.Declaration): boolean {
  const sf = d.getSourceFile();
  return program.isSourceFileDefaultLibrary(sf) || NODE_TYPES.test(sf.fileName);
}

function kindOfType(program: ts.Program, checker: ts.TypeChecker, type: ts.Type): Reach | undefined {
  if (checker.typeToString(type) === "typeof globalThis") return "globalThis";
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (!symbol || !(symbol.declarations ?? []).some((d) => isAmbient(program, d))) return undefined;
  switch (symbol.name) {
    case "Process":
    case '"process"':
    case '"node:process"':
      return "process";
    case "FunctionConstructor":
    case "Function":
      return "Function";
    case "Require":
    case "Module":
    case "NodeModule":
      return "require";
    default:
      return undefined;
  }
}

/** `process.x` when `n` (through parentheses and `!`) is the object of a property access named x. */
function memberOf(n: ts.Node): string | undefined {
  let outer = n;
  while (ts.isParenthesizedExpression(outer.parent) || ts.isNonNullExpression(outer.parent)) outer = outer.parent;
  const up = outer.parent;
  return ts.isPropertyAccessExpression(up) && up.expression === outer ? `process.${up.name.text}` : undefined;
}

/** An expression in a value position: not a declaration's name, a property's name or a type. */
function isValue(n: ts.Node): boolean {
  const p = n.parent;
  if (ts.isIdentifier(n)) {
    if ((ts.isPropertyAccessExpression(p) && p.name === n) || ts.isQualifiedName(p)) return false;
    if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isPropertyDeclaration(p) || ts.isBindingElement(p) || ts.isFunctionDeclaration(p)) && p.name === n) return false;
    if ((ts.isMethodDeclaration(p) || ts.isClassDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p)) && p.name === n) return false;
    if (ts.isBindingElement(p) && p.propertyName === n) return false;
    if (ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isExportSpecifier(p)) return false;
    if (ts.isGetAccessor(p) || ts.isSetAccessor(p) || ts.isEnumMember(p) || ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return false;
    if (ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p) || ts.isTypeParameterDeclaration(p) || ts.isEnumDeclaration(p) || ts.isModuleDeclaration(p)) return false;
    return true;
  }
  return (
    ts.isPropertyAccessExpression(n) ||
    ts.isElementAccessExpression(n) ||
    ts.isCallExpression(n) ||
    ts.isNewExpression(n) ||
    ts.isParenthesizedExpression(n) ||
    ts.isAsExpression(n) ||
    ts.isNonNullExpression(n) ||
    ts.isBinaryExpression(n) ||
    ts.isConditionalExpression(n) ||
    ts.isAwaitExpression(n) ||
    ts.isSatisfiesExpression(n) ||
    n.kind === ts.SyntaxKind.ThisKeyword
  );
}

/** One line per reach of src/ (or of `only`'s files) outside PROCESS_REACH; empty when it holds. */
export function processReachProblems(program: ts.Program, only?: readonly string[], allow: Readonly<Record<string, readonly string[]>> = PROCESS_REACH): string[] {
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  for (const s of program.getSourceFiles().filter((f) => f.fileName.startsWith(SRC) && !f.isDeclarationFile && (!only || only.includes(rel(f))))) {
    const file = rel(s);
    const allowed = allow[file] ?? [];
    const seen = new Set<string>();
    const report = (n: ts.Node, kind: string): void => {
      const line = s.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      const text = `src/${file}:${line} reaches ${kind}: \`${n.getText().replace(/\s+/gu, " ").slice(0, 60)}\``;
      if (!seen.has(text)) problems.push(text);
      seen.add(text);
    };
    const visit = (n: ts.Node): void => {
      if (ts.isTypeNode(n) && !ts.isExpressionWithTypeArguments(n)) return;
      if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) {
        const spec = n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) ? n.moduleSpecifier.text : "";
        if ((spec === "process" || spec === "node:process") && !allowed.includes("process")) report(n, `process (an import of ${spec})`);
        return;
      }
      if (isValue(n)) {
        const symbol = ts.isIdentifier(n) ? checker.getSymbolAtLocation(n) : undefined;
        const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        const isEval = target?.name === "eval" && (target.declarations ?? []).some((d) => isAmbient(program, d));
        const kind = isEval ? "eval" : kindOfType(program, checker, checker.getTypeAtLocation(n));
        // A call's result thrown away (`process.once(…)` answers the process) is no reach.
        if (kind === "process" && ts.isCallExpression(n) && ts.isExpressionStatement(n.parent)) return n.forEachChild(visit);
        const member = kind === "process" ? memberOf(n) : undefined;
        if (kind && !allowed.includes(kind) && !(member && allowed.includes(member))) report(n, member ?? kind);
      }
      n.forEachChild(visit);
    };
    visit(s);
  }
  return problems;
}
