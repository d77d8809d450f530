import { describe, expect, it, vi } from "vitest";
import { couldNameObjects, explainCommand } from "../../src/commands/explain.ts";
import type { KnowledgeEntry } from "../../src/explain/knowledge.ts";
import { KNOWLEDGE } from "../../src/explain/knowledge.ts";
import { runExplain } from "./support.ts";

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
    expect(run.stderr).toBe('error: no topic "\\u001b[31mred\\u009b"; run \'kubectl ptah explain\' to list topics\n');
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
      expect((JSON.parse(run.stdout) as KnowledgeEntry[]).map((e) => e.id)).toEqual([
        "condition/schema/ready",
        "condition/schema-plan/ready",
        "condition/migration/ready",
      ]);
    });

    it("name prints topic ids", async () => {
      expect((await runExplain(["stale"], { output: "name" })).stdout).toBe("approval-state/stale\n");
      expect((await runExplain([], { output: "name" })).stdout.split("\n").length).toBe(KNOWLEDGE.length + 1);
    });

    it("refuses another format as a usage error", async () => {
      const run = await runExplain(["stale"], { output: "yaml" });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^error: unable to match a printer suitable for the output format "yaml", allowed formats are: json,name \(see 'kubectl ptah explain -h'/);
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

  describe("the diagnosis hook", () => {
    it("receives the words that name no topic and prints what it returns", async () => {
      const diagnose = vi.fn((_words: readonly string[]) => Promise.resolve({ stdout: "storefront-v1 is stale because …\n" }));
      const run = await runExplain(["approval", "storefront-v1"], { diagnose });
      expect(diagnose).toHaveBeenCalledTimes(1);
      expect(diagnose.mock.calls[0]?.[0]).toEqual(["approval", "storefront-v1"]);
      expect(run).toMatchObject({ status: 0, stdout: "storefront-v1 is stale because …\n" });
    });

    it("falls back to the topic refusal when it finds no object", async () => {
      const diagnose = vi.fn(() => Promise.resolve(undefined));
      const run = await runExplain(["plannolongercurent"], { diagnose });
      expect(diagnose).toHaveBeenCalledTimes(1);
      expect(run.status).toBe(3);
      expect(run.stderr).toContain("did you mean PlanNoLongerCurrent?");
    });

    it("is not called for a topic, nor for words that cannot be object names", async () => {
      const diagnose = vi.fn(() => Promise.resolve({ stdout: "diagnosis\n" }));
      await runExplain(["stale"], { diagnose });
      await runExplain(["Ready"], { diagnose });
      await runExplain(["PlanNoLongerCurent"], { diagnose });
      await runExplain([], { diagnose });
      expect(diagnose).not.toHaveBeenCalled();
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
    expect(explainCommand.name).toBe("explain");
    expect(explainCommand.usage).toMatch(/^kubectl ptah explain /);
    expect(explainCommand.summary).not.toMatch(/\.$/);
    for (const example of explainCommand.examples) expect(example.command).toMatch(/^kubectl ptah explain/);
  });
});
