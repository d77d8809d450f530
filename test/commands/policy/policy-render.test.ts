// `policy render`: the objects it prints (goldens), that it reads no cluster, and its usage errors.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import yaml from "js-yaml";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";

const RECIPE = [
  "policy",
  "render",
  "--endorsements",
  "2",
  "--endorser-group",
  "dba",
  "--risky",
  "destructive",
  "--window",
  "Mon-Thu 09:00-17:00 Europe/Berlin",
  "--window",
  "Fri 09:00-12:00 Europe/Berlin",
  "--freeze",
  "2026-12-18..2027-01-04",
  "--breakglass-group",
  "sre-oncall",
];

type Obj = { kind: string; metadata: { name: string; labels: Record<string, string> }; spec: Record<string, unknown> };

describe("policy render", () => {
  it("prints every policy and binding the flags imply, reading no cluster", async () => {
    const r = await runCliWith(RECIPE, undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    expect(r.connects).toBe(0);
    await expectGolden(r.stdout, "policy/render-recipe.yaml");
    const docs = yaml.loadAll(r.stdout) as Obj[];
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
      "ValidatingAdmissionPolicy/ptah-quorum",
      "ValidatingAdmissionPolicyBinding/ptah-quorum",
      "ValidatingAdmissionPolicy/ptah-endorsements",
      "ValidatingAdmissionPolicyBinding/ptah-endorsements",
      "ValidatingAdmissionPolicy/ptah-window",
      "ValidatingAdmissionPolicyBinding/ptah-window",
      "ValidatingAdmissionPolicy/ptah-freeze",
      "ValidatingAdmissionPolicyBinding/ptah-freeze",
    ]);
    for (const d of docs) expect(d.metadata.labels["ptah.run/approval-policy"]).toBeTruthy();
    for (const d of docs.filter((x) => x.kind === "ValidatingAdmissionPolicy")) expect(d.spec.failurePolicy).toBe("Fail");
  });

  it("is the render line of docs/policy.md's recipe, word for word", () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, "..", "..", "..", "docs", "policy.md"), "utf8");
    const line = /^kubectl ptah (policy render \\\n(?:.*\\\n)*.*?) > approval-policy\.yaml$/mu.exec(doc)![1]!.replaceAll("\\\n", " ");
    const words = [...line.matchAll(/'([^']*)'|(\S+)/gu)].map((m) => m[1] ?? m[2]!);
    expect(words).toEqual(RECIPE);
  });

  it("prints a v1 List with -o json", async () => {
    const r = await runCliWith([...RECIPE, "--namespace-selector", "team=payments", "--name", "payments", "-o", "json"], undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "policy/render-recipe.json");
    const list = JSON.parse(r.stdout) as { kind: string; items: Obj[] };
    expect(list.kind).toBe("List");
    expect(list.items.filter((i) => i.kind === "ValidatingAdmissionPolicyBinding").map((b) => b.spec.matchResources)).toEqual(
      Array(4).fill({ namespaceSelector: { matchLabels: { team: "payments" } } }),
    );
  });

  it("renders only what is asked: a window alone is one policy and its binding", async () => {
    const r = await runCliWith(["policy", "render", "--window", "Sat-Sun 00:00-24:00 UTC"], undefined);
    const docs = yaml.loadAll(r.stdout) as Obj[];
    expect(docs.map((d) => d.metadata.name)).toEqual(["ptah-window", "ptah-window"]);
    const open = (docs[0]!.spec.variables as { name: string; expression: string }[]).find((v) => v.name === "open")!;
    expect(open.expression).toBe(
      "(variables.at.getDayOfWeek('UTC') in [0, 6] && variables.at.getHours('UTC') * 60 + variables.at.getMinutes('UTC') >= 0 && variables.at.getHours('UTC') * 60 + variables.at.getMinutes('UTC') < 1440)",
    );
  });

  const refusals: [string[], string][] = [
    [[], "nothing to render: give --endorsements N --endorser-group GROUP, --window or --freeze"],
    [["--endorsements", "2"], "--endorsements and --endorser-group go together: how many endorsers, and of which group"],
    [["--endorsements", "0", "--endorser-group", "dba"], 'invalid --endorsements "0": a whole number from 1 to 99'],
    [["--endorsements", "2", "--endorser-group", "d'ba"], `invalid --endorser-group "d'ba": a group name of letters, digits and _ . : @ / -`],
    [["--endorsements", "2", "--endorser-group", "dba", "--risky", "size"], 'invalid --risky "size": a comma list of destructive, privileges'],
    [["--window", "Mon-Thu 16:00-09:00 UTC"], 'invalid --window hours "16:00-09:00": the end must be later than the start on the same day (split a night into two windows)'],
    [["--window", "Mon-Thu 09:00-16:00 Mars/Olympus"], 'invalid --window zone "Mars/Olympus": use an IANA time zone such as Europe/Berlin or UTC'],
    [["--window", "Someday 09:00-16:00 UTC"], 'invalid --window days "Someday": use Mon-Thu, Mon,Wed,Fri or Sat-Sun (Sun Mon Tue Wed Thu Fri Sat)'],
    [["--window", "0 9 * * 1-4"], `invalid --window "0 9 * * 1-4": use 'DAYS HH:MM-HH:MM ZONE', e.g. 'Mon-Thu 09:00-16:00 Europe/Berlin'`],
    [["--freeze", "2027-01-04..2026-12-18"], 'invalid --freeze "2027-01-04..2026-12-18": FROM is later than TO'],
    [
      ["--freeze", "2026-02-30..2026-03-01"],
      `invalid --freeze "2026-02-30..2026-03-01": use FROM..TO as dates, optionally with a zone, e.g. '2026-12-18..2027-01-04 Europe/Berlin'`,
    ],
    [["--window", "Mon 09:00-10:00 UTC", "--namespace-selector", "team in (a)"], 'invalid --namespace-selector "team in (a)": use KEY=VALUE[,KEY=VALUE…] (equality only)'],
  ];
  it.each(refusals)("refuses %j with one usage line, stdout empty, exit 2", async (flags, message) => {
    const r = await runCliWith(["policy", "render", ...flags], undefined);
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toBe(`error: ${message} (see 'kubectl ptah policy -h' for help and examples)\n`);
  });
});
