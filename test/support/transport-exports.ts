// The transport modules' exported surface. eslint.read-only.js's TRANSPORT modules are the only
// ones that may import node:http/https, so the lint rules cannot see a new exported function there
// that sends `method: "DELETE"`; and test/support/transport-proof.ts fixes the Transport class's
// public members, not the modules' other exports. This reads, with the TypeScript checker, every
// name each TRANSPORT module exports (`export *` and `export { x } from` included) and the own
// non-private members of each exported class, and compares them with a fixed list: a new one fails
// test/guarantees/read-only.test.ts, naming it (test/guarantees/read-only-static.test.ts shows it red on planted ones).
import path from "node:path";
import ts from "typescript";
import { TRANSPORT } from "../../eslint.read-only.js";
import { SRC } from "./transport-proof.ts";

/** TRANSPORT, relative to src/. */
export const TRANSPORT_MODULES: readonly string[] = TRANSPORT.map((f) =>
  path
    .relative(SRC, path.resolve(SRC, "..", f))
    .split(path.sep)
    .join("/"),
).sort();

/** What each TRANSPORT module may export, as `Name` and `Class.member`: written here, by hand. */
export const TRANSPORT_EXPORTS: Readonly<Record<string, readonly string[]>> = {
  "kube/http.ts": [
    "CreateRequest",
    "DryRunKind",
    "HttpResponse",
    "IdentityKind",
    "RequestOptions",
    "ReviewKind",
    "Transport",
    "Transport.close",
    "Transport.config",
    "Transport.create",
    "Transport.get",
    "Transport.stream",
    "TransportConfig",
  ],
  "kube/proxy-tunnel.ts": [
    "Door",
    "DoorAgent",
    "DoorAgent.createConnection",
    "DoorAgent.door",
    "NODE_DOOR",
    "TunnelAgent",
    "TunnelAgent.createConnection",
    "TunnelAgent.proxy",
    "TunnelAgent.server",
    "plainDoorAgent",
  ],
};

const HIDDEN = ts.ModifierFlags.Private | ts.ModifierFlags.Protected;

function ownMembers(cls: ts.ClassLikeDeclaration): string[] {
  const names: string[] = [];
  for (const m of cls.members) {
    if (ts.isConstructorDeclaration(m)) {
      // Parameter properties (`constructor(public x: T)`) are members too.
      for (const p of m.parameters) if (ts.isParameterPropertyDeclaration(p, m) && !(ts.getCombinedModifierFlags(p) & HIDDEN)) names.push(p.name.getText());
      continue;
    }
    if (!m.name || ts.isPrivateIdentifier(m.name) || ts.getCombinedModifierFlags(m) & HIDDEN) continue;
    names.push(m.name.getText());
  }
  return names;
}

/** The names `file` (relative to src/) exports, and `Class.member` for each exported class's own non-private members; sorted. */
export function moduleExports(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(SRC, file));
  if (!source) throw new Error(`src/${file} is not in the program`);
  const module = checker.getSymbolAtLocation(source);
  if (!module) return []; // a script: it exports nothing
  const out: string[] = [];
  for (const s of checker.getExportsOfModule(module)) {
    out.push(s.name);
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    for (const d of target.declarations ?? []) if (ts.isClassLike(d)) out.push(...ownMembers(d).map((m) => `${s.name}.${m}`));
  }
  return [...new Set(out)].sort();
}

/** One line per difference between the TRANSPORT modules' exports and TRANSPORT_EXPORTS; empty when they agree. */
export function transportExportProblems(program: ts.Program): string[] {
  const listed = Object.keys(TRANSPORT_EXPORTS).sort();
  if (listed.join() !== TRANSPORT_MODULES.join()) return [`the transport modules are ${TRANSPORT_MODULES.join(", ")}, but the fixed list names ${listed.join(", ")}`];
  return TRANSPORT_MODULES.flatMap((file) => {
    const got = moduleExports(program, file);
    const want = TRANSPORT_EXPORTS[file]!;
    return [
      ...got.filter((n) => !want.includes(n)).map((n) => `src/${file} exports ${n}, which is not in the transport's fixed list (test/support/transport-exports.ts)`),
      ...want.filter((n) => !got.includes(n)).map((n) => `src/${file} no longer exports ${n} (test/support/transport-exports.ts lists it)`),
    ];
  });
}
