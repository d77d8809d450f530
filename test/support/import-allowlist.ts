// What each layer of src/ imports from outside src/, read with the TypeScript compiler and held to
// eslint.layers.js's allowlist: static imports and re-exports, `import x = require()`, dynamic
// import(), `import("…")` types, and the specifier of every call of require, of what createRequire
// returns and of process.getBuiltinModule (found by the called function's declaration in Node's
// types, whatever it is called here). A relative path must stay inside src/; a specifier that is
// not a literal is allowed only in COMPUTED's loaders. ESLint applies the static part cheaply;
// this is the whole rule (test/guarantees/allowlists.test.ts).
import path from "node:path";
import ts from "typescript";
import { TYPES, VALUES } from "../../eslint.layers.js";
import { SRC, rel } from "./transport-proof.ts";

/**
 * The modules that load by a computed name, and why: the code cache and the single binary's loader
 * hand the bundle the built-ins and packages its own (checked) imports name; the process guard
 * patches each built-in by name as it is first handed out.
 */
export const COMPUTED = ["cli/code-cache.ts", "cli/embedded.ts", "cli/process-guard.ts", "cli/egress-guard.ts"];

export interface Specifier {
  readonly file: string;
  readonly line: number;
  /** The module named, or undefined when it is not a literal. */
  readonly spec: string | undefined;
  readonly typeOnly: boolean;
  readonly how: string;
}

export function layerOf(file: string): string {
  return file.includes("/") ? file.split("/")[0]! : file.replace(/\.ts$/u, "");
}

const NODE_TYPES = /[\\/]node_modules[\\/]@types[\\/]node[\\/]/u;

/** Whether a call loads a module: require, a createRequire result, process.getBuiltinModule (Node's declarations). */
function loaderCall(checker: ts.TypeChecker, call: ts.CallExpression): string | undefined {
  const decl = checker.getResolvedSignature(call)?.getDeclaration();
  if (!decl || !NODE_TYPES.test(decl.getSourceFile().fileName)) return undefined;
  if (decl.name && ts.isIdentifier(decl.name) && decl.name.text === "getBuiltinModule") return "process.getBuiltinModule";
  const owner = decl.parent;
  if (ts.isInterfaceDeclaration(owner) && owner.name.text === "Require") return "require";
  return undefined;
}

/** Every module specifier of one source file. */
export function specifiersOf(program: ts.Program, s: ts.SourceFile): Specifier[] {
  const checker = program.getTypeChecker();
  const file = rel(s);
  const out: Specifier[] = [];
  const add = (n: ts.Node, arg: ts.Node | undefined, typeOnly: boolean, how: string): void => {
    const spec = arg && ts.isStringLiteralLike(arg) ? arg.text : undefined;
    out.push({ file, line: s.getLineAndCharacterOfPosition(n.getStart()).line + 1, spec, typeOnly, how });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n)) {
      const c = n.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = Boolean(c && (c.isTypeOnly || (!c.name && named && named.length > 0 && named.every((e) => e.isTypeOnly))));
      add(n, n.moduleSpecifier, typeOnly, "import");
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier) add(n, n.moduleSpecifier, n.isTypeOnly, "export … from");
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) add(n, n.moduleReference.expression, n.isTypeOnly, "import = require");
    else if (ts.isImportTypeNode(n)) add(n, ts.isLiteralTypeNode(n.argument) ? n.argument.literal : undefined, true, "import() type");
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) add(n, n.arguments[0], false, "import()");
    else if (ts.isCallExpression(n)) {
      const how = loaderCall(checker, n);
      if (how) add(n, n.arguments[0], false, how);
    }
    n.forEachChild(visit);
  };
  visit(s);
  return out;
}

/** Why one specifier is not allowed in its layer, or undefined when it is. */
export function refusal(sp: Specifier, values = VALUES, types = TYPES): string | undefined {
  const layer = layerOf(sp.file);
  const where = `src/${sp.file}:${sp.line} (${layer}, ${sp.how})`;
  if (sp.spec === undefined) return COMPUTED.includes(sp.file) ? undefined : `${where}: a specifier that is not a literal`;
  if (sp.spec.startsWith("./") || sp.spec.startsWith("../")) {
    const target = path.resolve(SRC, path.dirname(sp.file), sp.spec);
    return target.startsWith(SRC + path.sep) ? undefined : `${where}: ${sp.spec} leaves src/`;
  }
  if (values[layer]?.includes(sp.spec)) return undefined;
  if (sp.typeOnly && types[layer]?.includes(sp.spec)) return undefined;
  if (types[layer]?.includes(sp.spec)) return `${where}: ${sp.spec} is on ${layer}'s list for its types only`;
  return `${where}: ${sp.spec} is not on ${layer}'s list (eslint.layers.js)`;
}

/** One line per specifier of src/ (or of `only`'s files) outside its layer's allowlist. */
export function importProblems(program: ts.Program, only?: readonly string[]): string[] {
  return program
    .getSourceFiles()
    .filter((f) => f.fileName.startsWith(SRC + path.sep) && !f.isDeclarationFile && (!only || only.includes(rel(f))))
    .flatMap((s) => specifiersOf(program, s).flatMap((sp) => refusal(sp) ?? []));
}

/** What each layer imports from outside src/ today (for the test's expectation that the lists are minimal). */
export function usedByLayer(program: ts.Program): Record<string, { values: string[]; types: string[] }> {
  const out: Record<string, { values: Set<string>; types: Set<string> }> = {};
  for (const s of program.getSourceFiles().filter((f) => f.fileName.startsWith(SRC + path.sep) && !f.isDeclarationFile)) {
    for (const sp of specifiersOf(program, s)) {
      if (sp.spec === undefined || sp.spec.startsWith(".")) continue;
      const entry = (out[layerOf(sp.file)] ??= { values: new Set(), types: new Set() });
      (sp.typeOnly ? entry.types : entry.values).add(sp.spec);
    }
  }
  return Object.fromEntries(
    Object.entries(out).map(([layer, { values, types }]) => [layer, { values: [...values].sort(), types: [...types].filter((t) => !values.has(t)).sort() }]),
  );
}
