// Read-only by construction, proved from the code's structure with the
// TypeScript compiler, not by matching strings:
// - test/support/transport-proof.ts, on the checker's types: the seam commands see (ClusterReader)
//   and its implementation have exactly get, list, watch, serverInfo, dryRunCreate and
//   reviewAccess; the transport exactly get, create, stream, close and config; every use of a
//   Transport (class or value) in src is through one of those members by name or hands it on as a
//   Transport; create is called only by the reader's dryRunCreate (a closed union of the three
//   approval kinds) and its one SelfSubjectAccessReview, which inbox calls and doctor's inspector
//   delegates to;
// - dryRunCreate takes only the three approval kinds, reviewAccess takes access checks;
// - every request the transport makes goes through one private `once(method, …)`, called with
//   "GET" everywhere except one "POST" in `create`, whose argument's kind is the closed union;
// - every http/https `.request(` in src is in the transport's send or the proxy's CONNECT, each after its
//   run-time guard (kube/request-guard.ts) in the same function;
// - every write of a request's method in src (`method:`, `x.method =`, `x["method"] =`) is a string
//   literal "GET", or the parameter of `once` (typed "GET" | "POST"), or the proxy's CONNECT (to the
//   proxy, in kube/proxy-tunnel.ts).
// Which modules may reach the network or start a process at all is eslint.read-only.js's (by
// meaning: imports, globals, dynamic imports), and test/guarantees/read-only-static.test.ts shows both
// proofs naming each known bypass. And behaviourally: create() sends dryRun=All for every
// approval kind and the review path.
import http from "node:http";
import type net from "node:net";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_CREDENTIALS } from "../../src/kube/credentials.ts";
import { Transport, type CreateRequest } from "../../src/kube/http.ts";
import { TRANSPORT_EXPORTS, TRANSPORT_MODULES, moduleExports, transportExportProblems } from "../support/transport-exports.ts";
import {
  DRY_RUN_KINDS,
  REVIEW_KINDS,
  SRC,
  literals,
  methodWrites,
  readOnlyProof,
  rel,
  srcProgram,
  transportUses,
  unexpectedMethodWrites,
  walk,
} from "../support/transport-proof.ts";

const program = srcProgram();
const checker = program.getTypeChecker();
const sources = program.getSourceFiles().filter((s) => s.fileName.startsWith(SRC));
const source = (r: string): ts.SourceFile => sources.find((s) => rel(s) === r)!;

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

describe("read-only by construction", () => {
  it("the proof on the checker's types holds: surfaces, every use of a Transport, the callers of create", () => {
    expect(readOnlyProof(program)).toEqual([]);
  }, 600_000);

  it("the transport modules (eslint.read-only.js TRANSPORT) export exactly a fixed list: a new export there is named", () => {
    expect(TRANSPORT_MODULES).toEqual(["kube/http.ts", "kube/proxy-tunnel.ts"]);
    for (const file of TRANSPORT_MODULES) expect(moduleExports(program, file), `src/${file}`).toEqual(TRANSPORT_EXPORTS[file]);
    expect(transportExportProblems(program)).toEqual([]);
  });

  it("the inspector only GETs, and its access reviews are the reader's", () => {
    const inspector = transportUses(program)
      .members.filter((m) => m.startsWith("kube/inspect.ts:"))
      .map((m) => m.split(" ")[1]);
    expect(inspector.length).toBeGreaterThanOrEqual(4);
    expect(new Set(inspector)).toEqual(new Set(["get"]));
    const delegate = findDecl("kube/inspect.ts", ts.isClassDeclaration, "HttpClusterInspector").members.find(
      (m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && (m.name as ts.Identifier).text === "reviewAccess",
    )!;
    expect(delegate.body!.getText()).toMatch(/^\{\s*return this\.reader\.reviewAccess\(checks\);\s*\}$/u);
    expect(checker.typeToString(checker.getTypeAtLocation((delegate.body!.statements[0] as ts.ReturnStatement).expression!.getChildAt(0).getChildAt(0)))).toBe(
      'Pick<ClusterReader, "reviewAccess">',
    );
  });

  it("dryRunCreate takes the three approval kinds, reviewAccess access checks", () => {
    const reader = findDecl("kube/types.ts", ts.isInterfaceDeclaration, "ClusterReader");
    const member = (name: string) => reader.members.find((x) => (x.name as ts.Identifier).text === name) as ts.MethodSignature;
    expect(literals(checker.getTypeAtLocation(member("dryRunCreate").parameters[0]!))).toEqual(DRY_RUN_KINDS);
    expect(member("reviewAccess").parameters.map((p) => checker.typeToString(checker.getTypeAtLocation(p)))).toEqual(["readonly AccessCheck[]"]);
  });

  it("the transport sends GETs and, in one place, a POST whose target is a closed union of the allowed kinds", () => {
    const transport = findDecl("kube/http.ts", ts.isClassDeclaration, "Transport");
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
    // create's request: its kind is exactly the allowed kinds.
    const create = transport.members.find((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && (m.name as ts.Identifier).text === "create")!;
    const requestType = checker.getTypeAtLocation(create.parameters[0]!);
    const kinds = (requestType.isUnion() ? requestType.types : [requestType]).flatMap((t) => literals(checker.getTypeOfSymbol(t.getProperty("kind")!)) ?? ["<not literal>"]);
    expect(kinds.sort()).toEqual([...DRY_RUN_KINDS, ...REVIEW_KINDS].sort());
  });

  it("every write of a request's method in src (`method:`, `x.method =`, `x[\"method\"] =`) is GET, once's own parameter, or the proxy's CONNECT", () => {
    const found = methodWrites(program);
    expect(found.filter((f) => !/ "GET"$/u.test(f)).sort()).toEqual(["kube/http.ts:once <method>", 'kube/proxy-tunnel.ts:createConnection "CONNECT"']);
    expect(unexpectedMethodWrites(program)).toEqual([]);
  });

  it("a request leaves node:http/https only where the run-time guard has checked it first", () => {
    // Every `.request(` call in src, by the function it is in: the transport's send, which calls
    // guardRequest (kube/request-guard.ts) before anything else, and the proxy's CONNECT, which
    // calls guardTunnel before it.
    const calls: string[] = [];
    for (const s of sources) {
      walk(s, (n) => {
        // node's http.request / https.request (not the request log's `this.log.request`).
        if (
          ts.isCallExpression(n) &&
          ts.isPropertyAccessExpression(n.expression) &&
          n.expression.name.text === "request" &&
          /\bhttps?\)?$/u.test(n.expression.expression.getText())
        ) {
          const fn = enclosing(n, (x): x is ts.FunctionDeclaration | ts.MethodDeclaration => ts.isFunctionDeclaration(x) || ts.isMethodDeclaration(x));
          const body = fn?.body?.statements.map((st) => st.getText()) ?? [];
          const guard = body.findIndex((t) => /^(try \{\s*)?guard(Request|Tunnel)\(/u.test(t));
          const sent = body.findIndex((t) => t.includes(n.getText()));
          calls.push(`${rel(s)}:${fn?.name?.getText() ?? "?"} ${guard >= 0 && guard < sent ? "guarded" : "UNGUARDED"}`);
        }
      });
    }
    expect(calls.sort()).toEqual(["kube/http.ts:send guarded", "kube/proxy-tunnel.ts:createConnection guarded"]);
  });

  it("client-node is used only for its KubeConfig (auth providers)", () => {
    const clientNode: string[] = [];
    for (const s of sources) {
      walk(s, (n) => {
        if (ts.isImportDeclaration(n) && (n.moduleSpecifier as ts.StringLiteral).text === "@kubernetes/client-node")
          clientNode.push(`${rel(s)} ${n.importClause?.getText() ?? ""}`);
        if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && (n.arguments[0] as ts.StringLiteral).text === "@kubernetes/client-node") {
          clientNode.push(`${rel(s)} ${enclosing(n, ts.isVariableDeclaration)?.name.getText() ?? "?"}`);
        }
      });
    }
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
  ])("%o is a POST to %s", async (request, url) => {
    seen.length = 0;
    await transport.create(request);
    expect(seen).toEqual([{ method: "POST", url }]);
  });
});
