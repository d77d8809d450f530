// Each command's permission declaration (commands/shared/permissions.ts) is exact: every form with a
// command line is run through the real CLI against an in-memory cluster where it succeeds, and
// the namespaced requests it sends, as verb and resource, are exactly the rules it declares —
// nothing sent that doctor does not check, nothing checked that the form does not send. Every
// command of the registry declares at least one form.
import { describe, expect, it } from "vitest";
import { ALL_COMMANDS } from "../../../src/commands/all-commands.ts";
import type { KindName } from "../../../src/model/parse.ts";
import { KINDS } from "../../../src/model/parse.ts";
import type { WatchOptions } from "../../../src/kube/types.ts";
import { ACCESS_REVIEW, OFFLINE, ruleKey } from "../../../src/commands/shared/permissions.ts";
import { runCliWith } from "../../support/cli.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { world } from "../../support/permission-world.ts";

/** FakeReader that also records each watch (FakeReader's own watch records only its list). */
class WatchingReader extends FakeReader {
  override async watch<K extends KindName>(kind: K, options: WatchOptions): Promise<void> {
    this.requests.push(`watch ${kind} ${options.namespace ?? "*"}`);
    return super.watch(kind, options);
  }
}

/** A recorded request as the rule an access review would check; undefined for non-resource paths. */
function ruleOf(request: string): string | undefined {
  // Non-resource paths and doctor's cluster-scope reads: the form's note names them.
  if (request === "get /version" || request.startsWith("get /apis/") || request.startsWith("get crd ") || /^list \w+webhookconfigurations$/u.test(request)) return undefined;
  // The admission configuration, the guard's and approval policies, the coordination namespace's Leases and the manager's
  // Deployment in the release namespace: outside the namespace, in the note.
  if (/^(get mutatingwebhookconfigurations\/|list validatingadmissionpolicies( -l ptah\.run\/approval-policy)?$|list leases -n |get deployments\.apps )/u.test(request))
    return undefined;
  // Who you are (four-eyes, endorse): cluster scope, every user may; the form's note names it.
  if (request === "create SelfSubjectReview") return undefined;
  if (request.startsWith("create SelfSubjectAccessReview") || request.startsWith("create selfsubjectaccessreviews")) return ruleKey(ACCESS_REVIEW);
  const [verb, kind] = request.split(" ") as [string, string];
  const info = KINDS[kind as KindName];
  return `${verb.replace("?dryRun=All", "")} ${info.group ? `${info.group}/` : ""}${info.plural}`;
}

const forms = ALL_COMMANDS.flatMap((c) => c.permissions.map((f) => [f.form, f] as const));

describe("permission declarations", () => {
  it.each(ALL_COMMANDS.map((c) => [c.name, c] as const))("%s declares at least one form", (_name, c) => {
    expect(c.permissions.length).toBeGreaterThan(0);
    for (const f of c.permissions) expect(f.form === c.name || f.form.startsWith(`${c.name} `), f.form).toBe(true);
  });

  it.each(forms.filter(([, f]) => f.argv !== undefined))("%s sends exactly the requests it declares", async (_form, f) => {
    const reader = new WatchingReader(world(f));
    reader.dryRun = (_k, _ns, body) => ({ object: body });
    const inspector = new FakeInspector();
    const controller = new AbortController();
    // A watch runs until interrupted: once every watch it declares has listed, Ctrl-C.
    const watches = f.rules.filter((r) => r.verb === "watch").length;
    if (watches > 0) {
      const poll = setInterval(() => {
        if (reader.watching >= watches) controller.abort();
      }, 1);
      controller.signal.addEventListener("abort", () => clearInterval(poll), { once: true });
    }
    const r = await runCliWith([...f.argv!, "-n", "default"], reader, { signal: controller.signal, inspector });
    // Succeeded, interrupted (a watch), or ended as it should: doctor's problems, a wait that ran out,
    // plans' dangling pin (the world's old approval names a plan that was pruned).
    const ended =
      (f.form === "doctor" && r.status === 1) ||
      ((f.form === "plans" || f.form === "plans -o wide") && r.status === 1 && r.stdout.includes("Dangling pins")) ||
      (f.form.startsWith("wait ") && r.status === 1 && r.stderr.startsWith("error: timed out waiting for "));
    expect([0, 130].includes(r.status) || ended, `${f.form} exits ${r.status}: ${r.stderr}`).toBe(true);
    const sent = new Set([...reader.requests, ...inspector.requests].map(ruleOf).filter((x): x is string => x !== undefined));
    expect([...sent].sort(), r.stderr).toEqual([...new Set(f.rules.map(ruleKey))].sort());
    if (f.note === OFFLINE) expect(r).toMatchObject({ connects: 0 });
  });
});
