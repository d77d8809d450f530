// `kubectl ptah explain` through the real shell and the registered command (live diagnosis
// included): topics are answered without asking for a connection.
import { describe, expect, it } from "vitest";
import { couldNameObjects } from "../../../src/commands/explain/explain-command.ts";
import { findCommand } from "../../../src/commands/all-commands.ts";
import { usageLine } from "../../../src/cli/usage.ts";
import type { KnowledgeEntry } from "../../../src/explain/knowledge.ts";
import { KNOWLEDGE } from "../../../src/explain/knowledge.ts";
import type { ClusterReader } from "../../../src/kube/types.ts";
import { runCliWith } from "../../support/cli.ts";
import { anApproval, CONSUMED_AND_STALE } from "../../support/builders.ts";
import { FakeReader } from "../../support/fake-reader.ts";

/** `kubectl ptah explain WORDS… [-o OUTPUT]`; with no reader, connecting fails. */
async function runExplain(words: readonly string[], options: { output?: string; width?: number; reader?: ClusterReader } = {}) {
  const { status, stdout, stderr, connects } = await runCliWith(["explain", ...words, ...(options.output ? ["-o", options.output] : [])], options.reader, {
    width: options.width ?? 80,
    namespace: "app",
  });
  return { status, stdout, stderr, connects };
}

describe("kubectl ptah explain", () => {
  it("tells a newcomer what a stale approval is and what to do, with no cluster", async () => {
    const run = await runExplain(["stale"]);
    expect(run.status).toBe(0);
    expect(run.connects).toBe(0);
    expect(run.stdout).toContain("Stale (approval state)");
    expect(run.stdout).toContain("kubectl ptah plan <schema>\n");
    expect(run.stdout).toContain("kubectl ptah approve <schema> | kubectl create -f -\n");
  });

  it("lists every topic when no topic is given", async () => {
    const run = await runExplain([]);
    expect(run.status).toBe(0);
    for (const entry of KNOWLEDGE) expect(run.stdout).toContain(`  ${entry.title}`);
  });

  it("joins several words into one topic", async () => {
    const run = await runExplain(["plan", "no", "longer", "current"]);
    expect(run.stdout.split("\n")[0]).toBe("PlanNoLongerCurrent (condition reason)");
  });

  it("lists candidates on stdout and succeeds when a name is shared", async () => {
    const run = await runExplain(["Ready"]);
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe('"Ready" matches 3 topics:');
  });

  it("refuses an unknown topic with the nearest one, exit 3 and nothing on stdout", async () => {
    const run = await runExplain(["PlanNoLongerCurent"]);
    expect(run).toEqual({
      stdout: "",
      stderr: 'error: no topic "PlanNoLongerCurent"; did you mean PlanNoLongerCurrent?\n',
      status: 3,
      connects: 0,
    });
  });

  it("refuses a word with no near topic by pointing at the list", async () => {
    const run = await runExplain(["storefront"]);
    expect(run.stderr).toBe("error: no topic \"storefront\"; run 'kubectl ptah explain' to list topics\n");
    expect(run.status).toBe(3);
  });

  it("escapes control characters of the typed word", async () => {
    const run = await runExplain(["\u001b[31mred\u009b"]);
    expect(run.stderr).toBe("error: no topic \"\\u001b[31mred\\u009b\"; run 'kubectl ptah explain' to list topics\n");
  });

  describe("-o", () => {
    it("json prints the entry", async () => {
      const run = await runExplain(["PlanNoLongerCurrent"], { output: "json" });
      const entry = JSON.parse(run.stdout) as KnowledgeEntry;
      expect(entry.id).toBe("reason/plan-no-longer-current");
      expect(entry.title).toBe("PlanNoLongerCurrent");
      expect(entry.next[0]?.command).toMatch(/^kubectl /);
    });

    it("json prints every entry when no topic is given", async () => {
      const run = await runExplain([], { output: "json" });
      expect((JSON.parse(run.stdout) as KnowledgeEntry[]).length).toBe(KNOWLEDGE.length);
    });

    it("json prints the candidates of a shared name", async () => {
      const run = await runExplain(["Ready"], { output: "json" });
      expect((JSON.parse(run.stdout) as KnowledgeEntry[]).map((e) => e.id)).toEqual(["condition/schema/ready", "condition/schema-plan/ready", "condition/migration/ready"]);
    });

    it("name prints topic ids", async () => {
      expect((await runExplain(["stale"], { output: "name" })).stdout).toBe("approval-state/stale\n");
      expect((await runExplain([], { output: "name" })).stdout.split("\n").length).toBe(KNOWLEDGE.length + 1);
    });

    it("refuses another format as a usage error", async () => {
      const run = await runExplain(["stale"], { output: "yaml" });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`error: unknown output format "yaml"; it is one of [json name] (see 'kubectl ptah explain -h' for help and examples)\n`);
    });
  });

  it("prints the same text at every terminal width", async () => {
    for (const words of [[], ["stale"], ["Ready"]]) {
      const narrow = await runExplain(words, { width: 40 });
      const wide = await runExplain(words, { width: 250 });
      expect(narrow.stdout).toBe(wide.stdout);
      expect(narrow.stdout).not.toMatch(/[ \t]$/m);
    }
  });

  describe("the live diagnosis", () => {
    it("gets the words that name no topic and prints the diagnosis of the object they name", async () => {
      const reader = new FakeReader([{ kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) }]);
      const run = await runExplain(["approval", "storefront-v1"], { reader });
      expect(run).toMatchObject({ status: 0, stderr: "", connects: 1 });
      expect(run.stdout).toContain("storefront-v1");
      expect(reader.requests[0]).toBe("get PtahSchemaApproval app/storefront-v1");
    });

    it("falls back to the topic refusal when it finds no object", async () => {
      const reader = new FakeReader([]);
      const run = await runExplain(["plannolongercurent"], { reader });
      expect(run.connects).toBe(1);
      expect(reader.requests).toContain("get PtahSchema app/plannolongercurent");
      expect(run.status).toBe(3);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("did you mean PlanNoLongerCurrent?");
    });

    it("falls back to the topic refusal when there is no cluster at all", async () => {
      const run = await runExplain(["plannolongercurent"]);
      expect(run).toMatchObject({ status: 3, stdout: "", connects: 1 });
      expect(run.stderr).toMatch(/^error: no topic "plannolongercurent"; did you mean PlanNoLongerCurrent\?\n$/u);
    });

    it("is not asked for a topic, nor for words that cannot be object names: no connection, no request", async () => {
      const reader = new FakeReader([]);
      for (const words of [["stale"], ["Ready"], ["PlanNoLongerCurent"], []]) {
        expect((await runExplain(words, { reader })).connects, words.join(" ")).toBe(0);
      }
      expect(reader.requests).toEqual([]);
    });
  });

  it.each([
    [["storefront"], true],
    [["approval", "storefront-v1"], true],
    [["migration", "shop.v2"], true],
    [["PlanNoLongerCurent"], false],
    [["under_score"], false],
    [["-dash"], false],
  ])("couldNameObjects(%j) is %s", (words, expected) => {
    expect(couldNameObjects(words)).toBe(expected);
  });

  it("has help data in kubectl's style", () => {
    const explainCommand = findCommand("explain")!;
    expect(explainCommand.name).toBe("explain");
    expect(usageLine(explainCommand)).toMatch(/^kubectl ptah explain /);
    expect(explainCommand.summary).not.toMatch(/\.$/);
    for (const example of explainCommand.examples) expect(example.command).toMatch(/^kubectl ptah explain/);
  });
});
