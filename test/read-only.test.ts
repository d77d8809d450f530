// Read-only by construction (issue 13 part 2), proved from the code's structure with the
// TypeScript compiler, not by matching strings:
// - the seam commands see (ClusterReader) has exactly get, list, watch, serverInfo, dryRunCreate,
//   reviewAccess and whoAmI (issue 29: one SelfSubjectReview, no arguments); dryRunCreate takes only the three approval kinds (a closed union of literals,
//   read from the type checker), reviewAccess takes access checks (no kind to choose);
// - the transport's create is called in exactly two places, the reader's dryRunCreate (its kind is
//   that closed union), its one SelfSubjectAccessReview (a literal kind), which inbox calls and
//   doctor's inspector delegates to, and whoAmI's SelfSubjectReview; the inspector itself only GETs;
// - the transport's public surface is get, create, stream and close; every request it makes goes
//   through one private `once(method, …)`, called with "GET" everywhere except one "POST" in
//   `create`, whose argument's kind is the closed union of those six kinds;
// - every `method:` in src is a string literal "GET", or the parameter of `once` (typed "GET" |
//   "POST"), or the proxy's CONNECT (to the proxy, in kube/proxy-tunnel.ts);
// - only kube/http.ts and kube/proxy-tunnel.ts make HTTP requests; client-node is used only for
//   its KubeConfig (auth providers); nothing calls fetch.
// And behaviourally: create() sends dryRun=All for every approval kind and the review paths.
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_CREDENTIALS } from "../src/kube/credentials.ts";
import { Transport, type CreateRequest } from "../src/kube/http.ts";

const SRC = path.resolve(import.meta.dirname, "..", "src");

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
}

const program = ts.createProgram(files(SRC), {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  noEmit: true,
  strict: true,
  skipLibCheck: true,
  types: ["node"],
});
const checker = program.getTypeChecker();
const sources = program.getSourceFiles().filter((s) => s.fileName.startsWith(SRC));
const rel = (s: ts.SourceFile): string => path.relative(SRC, s.fileName).split(path.sep).join("/");
const source = (r: string): ts.SourceFile => sources.find((s) => rel(s) === r)!;

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((c) => walk(c, visit));
}

/** The string literals a type is made of, or undefined when it is not a union of literals only. */
function literals(type: ts.Type): string[] | undefined {
  const parts = type.isUnion() ? type.types : [type];
  if (!parts.every((t) => t.isStringLiteral())) return undefined;
  return parts.map((t) => (t as ts.StringLiteralType).value).sort();
}

function findDecl<T extends ts.Node>(file: string, test: (n: ts.Node) => n is T, name: string): T {
  let found: T | undefined;
  walk(source(file), (n) => {
    if (test(n) && (n as unknown as { name?: ts.Identifier }).name?.text === name) found = n;
  });
  if (!found) throw new Error(`${name} not found in ${file}`);
  return found;
}

function enclosing<T extends ts.Node>(node: ts.Node, test: (n: ts.Node) => n is T): T | undefined {
  for (let n = node.parent; n; n = n.parent) if (test(n)) return n;
  return undefined;
}

/** `http`, or both branches of `(cond ? http : https)`. */
function moduleNames(e: ts.Expression): string[] {
  if (ts.isParenthesizedExpression(e)) return moduleNames(e.expression);
  if (ts.isConditionalExpression(e)) return [...moduleNames(e.whenTrue), ...moduleNames(e.whenFalse)];
  return ts.isIdentifier(e) ? [e.text] : [];
}

const DRY_RUN_KINDS = ["PtahMigrationApproval", "PtahMigrationRunAcknowledgment", "PtahSchemaApproval"];
const REVIEW_KINDS = ["SelfSubjectAccessReview", "SelfSubjectRulesReview"];
// Issue 29 (four-eyes) adds one allowed request: a SelfSubjectReview create (who the caller is),
// sent only by the reader's whoAmI; it stores nothing.
const IDENTITY_KINDS = ["SelfSubjectReview"];

describe("read-only by construction", () => {
  it("the seam offers get, list, watch, serverInfo, a dry-run create of the approval kinds and reviewAccess; nothing else", () => {
    const reader = findDecl("kube/types.ts", ts.isInterfaceDeclaration, "ClusterReader");
    const members = reader.members.map((m) => (m.name as ts.Identifier).text).sort();
    expect(members).toEqual(["dryRunCreate", "get", "list", "reviewAccess", "serverInfo", "watch", "whoAmI"]);
    const firstParam = (name: string): string[] | undefined => {
      const m = reader.members.find((x) => (x.name as ts.Identifier).text === name) as ts.MethodSignature;
      return literals(checker.getTypeAtLocation(m.parameters[0]!));
    };
    expect(firstParam("dryRunCreate")).toEqual(DRY_RUN_KINDS);
    const review = reader.members.find((x) => (x.name as ts.Identifier).text === "reviewAccess") as ts.MethodSignature;
    expect(review.parameters.map((p) => checker.typeToString(checker.getTypeAtLocation(p)))).toEqual(["readonly AccessCheck[]"]);
    const whoAmI = reader.members.find((x) => (x.name as ts.Identifier).text === "whoAmI") as ts.MethodSignature;
    expect(whoAmI.parameters).toHaveLength(0);
    // The implementation has no public member the seam does not list.
    const impl = findDecl("kube/reader.ts", ts.isClassDeclaration, "HttpClusterReader");
    const publicMembers = impl.members
      .filter((m) => (ts.isMethodDeclaration(m) || ts.isPropertyDeclaration(m)) && !(ts.getCombinedModifierFlags(m) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)))
      .map((m) => (m.name as ts.Identifier).text)
      .sort();
    expect(publicMembers).toEqual(members);
  });

  it("the transport sends GETs and, in one place, a POST whose target is a closed union of six kinds", () => {
    const transport = findDecl("kube/http.ts", ts.isClassDeclaration, "Transport");
    const publicMethods = transport.members
      .filter((m) => ts.isMethodDeclaration(m) && !(ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Private))
      .map((m) => (m.name as ts.Identifier).text)
      .sort();
    expect(publicMethods).toEqual(["close", "create", "get", "stream"]);
    const once = transport.members.find((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && (m.name as ts.Identifier).text === "once")!;
    expect(ts.getCombinedModifierFlags(once) & ts.ModifierFlags.Private).toBeTruthy();
    expect(literals(checker.getTypeAtLocation(once.parameters[0]!))).toEqual(["GET", "POST"]);
    // Every call of once: its method and where it is.
    const calls: { method: string; caller: string }[] = [];
    for (const s of sources) {
      walk(s, (n) => {
        if (
          ts.isCallExpression(n) &&
          ts.isPropertyAccessExpression(n.expression) &&
          n.expression.name.text === "once" &&
          n.expression.expression.kind === ts.SyntaxKind.ThisKeyword
        ) {
          const arg = n.arguments[0]!;
          const caller = enclosing(n, ts.isMethodDeclaration);
          calls.push({ method: ts.isStringLiteral(arg) ? arg.text : `<${arg.getText()}>`, caller: `${rel(s)}:${caller ? (caller.name as ts.Identifier).text : "?"}` });
        }
      });
    }
    expect(calls.filter((c) => c.method !== "GET")).toEqual([{ method: "POST", caller: "kube/http.ts:create" }]);
    expect(calls.length).toBeGreaterThan(1);
    // create's request: its kind is exactly the six kinds.
    const create = transport.members.find((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && (m.name as ts.Identifier).text === "create")!;
    const requestType = checker.getTypeAtLocation(create.parameters[0]!);
    const kinds = (requestType.isUnion() ? requestType.types : [requestType]).flatMap((t) => literals(checker.getTypeOfSymbol(t.getProperty("kind")!)) ?? ["<not literal>"]);
    expect(kinds.sort()).toEqual([...DRY_RUN_KINDS, ...REVIEW_KINDS, ...IDENTITY_KINDS].sort());
  });

  it("only the reader's dryRunCreate, its one access review and whoAmI call the transport's create; the inspector only GETs", () => {
    // Every call of a Transport's method in src: where it is, and the kind a create names.
    const calls: { call: string; kinds?: string[] }[] = [];
    for (const s of sources) {
      walk(s, (n) => {
        if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return;
        const receiver = checker.getTypeAtLocation(n.expression.expression);
        if (receiver.getSymbol()?.getName() !== "Transport") return;
        const fn = enclosing(n, (x): x is ts.MethodDeclaration | ts.FunctionDeclaration => ts.isMethodDeclaration(x) || ts.isFunctionDeclaration(x));
        const call = `${rel(s)}:${fn?.name ? (fn.name as ts.Identifier).text : "?"} ${n.expression.name.text}`;
        if (n.expression.name.text !== "create") return calls.push({ call });
        const kind = checker.getTypeAtLocation(n.arguments[0]!).getProperty("kind");
        return calls.push({ call, kinds: kind ? literals(checker.getTypeOfSymbol(kind)) : undefined });
      });
    }
    expect(calls.filter((c) => c.call.endsWith(" create"))).toEqual([
      { call: "kube/reader.ts:dryRunCreate create", kinds: DRY_RUN_KINDS },
      { call: "kube/reader.ts:reviewOne create", kinds: ["SelfSubjectAccessReview"] },
      { call: "kube/reader.ts:whoAmI create", kinds: IDENTITY_KINDS },
    ]);
    const inspector = calls.filter((c) => c.call.startsWith("kube/inspect.ts:")).map((c) => c.call.split(" ")[1]);
    expect(inspector.length).toBeGreaterThanOrEqual(4);
    expect(new Set(inspector)).toEqual(new Set(["get"]));
    // The inspector's access reviews are the reader's: its reviewAccess calls the reader's.
    const delegate = findDecl("kube/inspect.ts", ts.isClassDeclaration, "HttpClusterInspector").members.find(
      (m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && (m.name as ts.Identifier).text === "reviewAccess",
    )!;
    expect(delegate.body!.getText()).toMatch(/^\{\s*return this\.reader\.reviewAccess\(checks\);\s*\}$/u);
    expect(checker.typeToString(checker.getTypeAtLocation((delegate.body!.statements[0] as ts.ReturnStatement).expression!.getChildAt(0).getChildAt(0)))).toBe(
      'Pick<ClusterReader, "reviewAccess">',
    );
  });

  it("every `method:` in src is GET, once's own parameter, or the proxy's CONNECT", () => {
    const found: string[] = [];
    for (const s of sources) {
      walk(s, (n) => {
        if ((ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) && ts.isIdentifier(n.name) && n.name.text === "method") {
          const init = ts.isPropertyAssignment(n) ? n.initializer : n.name;
          const fn = enclosing(n, ts.isMethodDeclaration);
          const where = `${rel(s)}:${fn ? (fn.name as ts.Identifier).text : "?"}`;
          found.push(ts.isStringLiteral(init) ? `${where} "${init.text}"` : `${where} <${init.getText()}>`);
        }
      });
    }
    const unexpected = found.filter((f) => !/ "GET"$/u.test(f));
    expect(unexpected.sort()).toEqual(["kube/http.ts:once <method>", 'kube/proxy-tunnel.ts:createConnection "CONNECT"']);
  });

  it("only the transport makes HTTP requests; client-node only for KubeConfig; no fetch", () => {
    const requesters = new Set<string>();
    const clientNode: string[] = [];
    for (const s of sources) {
      walk(s, (n) => {
        if (ts.isCallExpression(n)) {
          const callee = n.expression;
          if (ts.isIdentifier(callee) && callee.text === "fetch") requesters.add(`${rel(s)} fetch`);
          const target = ts.isPropertyAccessExpression(callee) ? callee : undefined;
          if (target && ["request", "get", "connect"].includes(target.name.text)) {
            for (const text of moduleNames(target.expression)) {
              if (["http", "https", "net", "tls"].includes(text)) requesters.add(`${rel(s)} ${text}.${target.name.text}`);
            }
          }
        }
        if (ts.isImportDeclaration(n) && (n.moduleSpecifier as ts.StringLiteral).text === "@kubernetes/client-node")
          clientNode.push(`${rel(s)} ${n.importClause?.getText() ?? ""}`);
        if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && (n.arguments[0] as ts.StringLiteral).text === "@kubernetes/client-node") {
          const decl = enclosing(n, ts.isVariableDeclaration);
          clientNode.push(`${rel(s)} ${decl?.name.getText() ?? "?"}`);
        }
      });
    }
    expect([...requesters].sort()).toEqual([
      "kube/http.ts http.request",
      "kube/http.ts https.request",
      "kube/proxy-tunnel.ts http.request",
      "kube/proxy-tunnel.ts https.request",
      "kube/proxy-tunnel.ts tls.connect",
    ]);
    expect(clientNode).toEqual(["kube/credentials.ts { KubeConfig }"]);
  });
});

describe("the transport's create, against a local server", () => {
  const seen: { method: string; url: string }[] = [];
  let server: http.Server;
  let transport: Transport;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ method: req.method ?? "", url: req.url ?? "" });
      req.resume();
      res.writeHead(201, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    transport = new Transport({
      server: new URL(`http://127.0.0.1:${port}`),
      tls: {},
      credentials: NO_CREDENTIALS,
      headers: {},
      proxy: undefined,
      userAgent: "kubectl-ptah/test",
      timeoutMs: 5000,
    });
  });
  afterAll(async () => {
    transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each<[CreateRequest, string]>([
    [{ kind: "PtahSchemaApproval", namespace: "app", body: {} }, "/apis/operator.ptah.run/v1alpha1/namespaces/app/ptahschemaapprovals?dryRun=All"],
    [{ kind: "PtahMigrationApproval", namespace: "app", body: {} }, "/apis/operator.ptah.run/v1alpha1/namespaces/app/ptahmigrationapprovals?dryRun=All"],
    [{ kind: "PtahMigrationRunAcknowledgment", namespace: "a b", body: {} }, "/apis/operator.ptah.run/v1alpha1/namespaces/a%20b/ptahmigrationrunacknowledgments?dryRun=All"],
    [{ kind: "SelfSubjectAccessReview", body: {} }, "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"],
    [{ kind: "SelfSubjectRulesReview", body: {} }, "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews"],
    [{ kind: "SelfSubjectReview", body: {} }, "/apis/authentication.k8s.io/v1/selfsubjectreviews"],
  ])("%o is a POST to %s", async (request, url) => {
    seen.length = 0;
    await transport.create(request);
    expect(seen).toEqual([{ method: "POST", url }]);
  });
});
