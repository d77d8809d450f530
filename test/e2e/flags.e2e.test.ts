// kubectl's idiom through the real kubectl on the lab: ~40 command lines in every pflag form,
// run as `kubectl get ptahschemas …` and as `kubectl ptah status …`, must mean the same (the same
// namespace, selector and output: the same names printed); `--as` as lab-admin behaves exactly
// as the impersonated identity and the audit log records the impersonation; -v=6 prints one line
// per request the audit log saw.
import { beforeAll, describe, expect, it } from "vitest";
import { auditEventsSince, auditMark, createNamespace, createObject, kubectl, uniqueName } from "../support/lab.ts";
import { ptah, schemaManifest } from "../support/plugin.ts";
import { isPluginRequest } from "../support/audit.ts";

const skip = process.env.PTAH_E2E_SKIP;

let a = "";
let b = "";
let app = "";

function labelled(namespace: string, name: string, value: string) {
  const m = schemaManifest(namespace, name);
  (m.metadata as Record<string, unknown>).labels = { app: value };
  return m;
}

/** The names a command printed, sorted (kubectl and the plugin both print kind/name lines). */
function names(stdout: string): string[] {
  return stdout.split("\n").filter(Boolean).sort();
}

function lines(): { name: string; flags: string[] }[] {
  const ns = (v: string) => [["-n", v], [`-n${v}`], [`-n=${v}`], ["--namespace", v], [`--namespace=${v}`]];
  const out = [["-o", "name"], ["-oname"], ["-o=name"], ["--output", "name"], ["--output=name"]];
  const sel = (v: string) => [["-l", `app=${v}`], [`-lapp=${v}`], [`-l=app=${v}`], ["--selector", `app=${v}`], [`--selector=app=${v}`]];
  const all = [["-A"], ["--all-namespaces"], ["--all-namespaces=true"], ["-A=true"], ["--all-namespaces=T"]];
  const cases: { name: string; flags: string[] }[] = [];
  // Every namespace spelling with every output spelling (25 lines).
  for (const [i, n] of ns(a).entries()) for (const [j, o] of out.entries()) cases.push({ name: `ns#${i} out#${j}`, flags: [...n, ...o] });
  // Every selector spelling across namespaces, with every -A spelling (5 lines).
  for (const [i, l] of sel(app).entries()) cases.push({ name: `sel#${i} all#${i}`, flags: [...all[i]!, ...l, "-o", "name"] });
  // Shorthand groups, repeated flags, --bool=false, -- (10 lines).
  cases.push(
    { name: "-Ao name", flags: ["-Ao", "name", "-l", `app=${app}`] },
    { name: "-Aoname", flags: ["-Aoname", `-lapp=${app}`] },
    { name: "-Al", flags: ["-Al", `app=${app}`, "-oname"] },
    { name: "-lapp=x -A after", flags: [`-lapp=${app}`, "-oname", "-A"] },
    { name: "the last -n wins", flags: ["-n", b, "-n", a, "-oname"] },
    { name: "the last -o wins", flags: ["-n", a, "-o", "yaml", "-o", "name"] },
    { name: "-A=false keeps -n", flags: ["-A=false", "-n", b, "-oname"] },
    { name: "--all-namespaces=false keeps -n", flags: ["--all-namespaces=false", `-n${a}`, "-oname"] },
    { name: "a selector with a set", flags: ["-n", a, "-l", `app in (${app},other)`, "-oname"] },
    { name: "-- ends the flags", flags: ["-n", a, "-oname", "--", "s1"] },
  );
  return cases;
}

describe.skipIf(skip)("kubectl's flags through kubectl on the lab", { timeout: 180_000 }, () => {
  beforeAll(() => {
    a = createNamespace("flags-a");
    b = createNamespace("flags-b");
    app = uniqueName("app");
    createObject(labelled(a, "s1", app));
    createObject(labelled(a, "s2", "other"));
    createObject(labelled(b, "s3", app));
  });

  it("~40 command lines mean the same to kubectl get and to kubectl ptah status", () => {
    const cases = lines();
    expect(cases.length).toBeGreaterThanOrEqual(40);
    const differences: string[] = [];
    for (const c of cases) {
      const theirs = kubectl(["get", "ptahschemas", ...c.flags], { as: "viewer", check: false });
      const ours = ptah(["status", ...c.flags], "viewer");
      if (theirs.code !== 0 || ours.status !== 0 || names(theirs.stdout).join() !== names(ours.stdout).join() || names(ours.stdout).length === 0) {
        differences.push(
          `${c.name}: ${c.flags.join(" ")}\n  kubectl get (${theirs.code}): ${names(theirs.stdout).join(" ")} ${theirs.stderr.trim()}\n  kubectl ptah (${ours.status}): ${names(ours.stdout).join(" ")} ${ours.stderr.trim()}`,
        );
      }
    }
    console.log(`pflag forms: ${cases.length} command lines through kubectl get and kubectl ptah status, ${differences.length} differences`);
    expect(differences).toEqual([]);
  });

  it("an unknown flag is one error line, as kubectl's is", () => {
    const r = ptah(["status", "--colour=always"], "viewer");
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("error: unknown flag: --colour (see 'kubectl ptah status -h' for help and examples)\n");
  });

  it.each(["viewer", "nobody"] as const)("lab-admin with --as=lab-%s behaves exactly as that identity, and the audit log records the impersonation", (who) => {
    // -o json: the same objects, byte for byte (a table's AGE would tick between the two runs).
    // For lab-nobody only the single GET: which of several parallel lists is refused first varies.
    const lines =
      who === "viewer"
        ? [
            ["status", "-n", a, "-o", "json"],
            ["status", "s1", "-n", a, "-o", "json"],
            ["approvals", "-A", "-o", "json"],
          ]
        : [["status", "s1", "-n", a, "-o", "json"]];
    for (const args of lines) {
      const direct = ptah(args, who);
      const mark = auditMark();
      const impersonated = ptah([...args, `--as=lab-${who}`], "admin");
      expect({ status: impersonated.status, stdout: impersonated.stdout, stderr: impersonated.stderr }, args.join(" ")).toEqual({
        status: direct.status,
        stdout: direct.stdout,
        stderr: direct.stderr,
      });
      const events = auditEventsSince(mark).filter((e) => isPluginRequest(e));
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) {
        expect(e.user.username).toBe("lab-admin");
        expect(e.impersonatedUser?.username).toBe(`lab-${who}`);
      }
    }
  });

  it("-v=6 prints one line per request on stderr (as many as the audit log saw); stdout is unchanged", () => {
    const quiet = ptah(["status", "-n", a, "-o", "json"], "viewer");
    const mark = auditMark();
    const loud = ptah(["status", "-n", a, "-o", "json", "-v=6"], "viewer");
    const requests = auditEventsSince(mark).filter((e) => isPluginRequest(e));
    expect(loud.status).toBe(0);
    expect(loud.stdout).toBe(quiet.stdout);
    const logged = loud.stderr.split("\n").filter(Boolean);
    expect(logged.length).toBe(requests.length);
    for (const line of logged)
      expect(line).toMatch(
        /^I\d{4} [\d:.]+ +\d+ round_trippers\.go\] "Response" verb="GET" url="https:\/\/127\.0\.0\.1:\d+\/apis\/operator\.ptah\.run\/v1alpha1\/namespaces\/[\w-]+\/\w+\?limit=500" status="200 OK" milliseconds=\d+$/u,
      );
  });
});
