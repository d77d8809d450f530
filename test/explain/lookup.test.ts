import { describe, expect, it } from "vitest";
import { KNOWLEDGE } from "../../src/explain/knowledge.ts";
import { editDistance, lookupTopic, normalizeWord, type LookupResult } from "../../src/explain/lookup.ts";

function summary(result: LookupResult): { kind: string; ids: string[] } {
  switch (result.kind) {
    case "found":
      return { kind: "found", ids: [result.entry.id] };
    case "ambiguous":
      return { kind: "ambiguous", ids: result.candidates.map((e) => e.id) };
    case "unknown":
      return { kind: "unknown", ids: result.suggestions.map((e) => e.id) };
  }
}

describe("lookupTopic", () => {
  it.each([
    { name: "a plain word finds the approval state a newcomer means", query: "stale", id: "approval-state/stale" },
    { name: "case does not matter", query: "STALE", id: "approval-state/stale" },
    { name: "consumed finds the approval state", query: "consumed", id: "approval-state/consumed" },
    { name: "a kebab-case phase", query: "awaiting-approval", id: "phase/schema/awaiting-approval" },
    { name: "the same phase with a space", query: "awaiting approval", id: "phase/schema/awaiting-approval" },
    { name: "the same phase in CamelCase", query: "AwaitingApproval", id: "phase/schema/awaiting-approval" },
    { name: "a reason as the operator writes it", query: "PlanNoLongerCurrent", id: "reason/plan-no-longer-current" },
    { name: "a reason in odd case", query: "planNOlongercurrent", id: "reason/plan-no-longer-current" },
    { name: "a reason in kebab-case", query: "plan-no-longer-current", id: "reason/plan-no-longer-current" },
    { name: "a reason as separate words", query: "plan no longer current", id: "reason/plan-no-longer-current" },
    { name: "a topic id", query: "reason/plan-no-longer-current", id: "reason/plan-no-longer-current" },
    { name: "a topic id in capitals", query: "Condition/Schema/Ready", id: "condition/schema/ready" },
    { name: "a kind qualifier and a wire word", query: "reason PlanNoLongerCurrent", id: "reason/plan-no-longer-current" },
    { name: "a kind qualifier with a slash", query: "reason/Stale", id: "reason/stale" },
    { name: "a kind qualifier picks the reason named Stale", query: "reason stale", id: "reason/stale" },
    { name: "an object qualifier", query: "approval stale", id: "approval-state/stale" },
    { name: "an acknowledgment's condition", query: "ack stale", id: "condition/acknowledgment/stale" },
    { name: "a schema's condition", query: "schema ready", id: "condition/schema/ready" },
    { name: "a plan's condition", query: "plan ready", id: "condition/schema-plan/ready" },
    { name: "two qualifiers", query: "migration phase blocked", id: "phase/migration/blocked" },
    { name: "a concept", query: "destructive", id: "concept/destructive" },
    { name: "a concept by an alias", query: "privileges", id: "concept/privilege-changes" },
    { name: "a concept whose id has a hyphen", query: "unresolved run", id: "concept/unresolved-run" },
    { name: "a derived state that is not a reason", query: "superseded", id: "approval-state/superseded" },
    { name: "the reason behind it", query: "SupersededApproval", id: "reason/superseded-approval" },
    { name: "an acknowledgment reason", query: "RunNotUnresolved", id: "reason/run-not-unresolved" },
    { name: "another acknowledgment reason", query: "RunAcknowledged", id: "reason/run-acknowledged" },
    { name: "an engine refusal", query: "UnsupportedEngine", id: "reason/unsupported-engine" },
    { name: "a policy refusal", query: "PolicyBlocked", id: "reason/policy-blocked" },
    { name: "a run outcome", query: "UpToDate", id: "outcome/up-to-date" },
    { name: "an event", query: "ApprovalStale", id: "event/approval-stale" },
    { name: "a condition type shared with an event prefers the schema's", query: "ApprovalRequired", id: "condition/schema/approval-required" },
    { name: "whole plain words inside a reason", query: "no longer", id: "reason/plan-no-longer-current" },
    { name: "one plain word inside one reason", query: "conflict", id: "reason/realm-conflict" },
  ])("$name: $query", ({ query, id }) => {
    expect(summary(lookupTopic(query))).toEqual({ kind: "found", ids: [id] });
  });

  it("mentions the other topics that share a preferred name", () => {
    const result = lookupTopic("stale");
    expect(result.kind).toBe("found");
    if (result.kind !== "found") return;
    expect(result.via).toBe("alias");
    expect(result.others.map((e) => e.id)).toEqual(["condition/schema-approval/stale", "condition/acknowledgment/stale", "reason/stale"]);
  });

  it("narrows the others with a two-word object qualifier", () => {
    const result = lookupTopic("migration approval consumed");
    expect(result.kind === "found" && [result.entry.id, ...result.others.map((e) => e.id)]).toEqual(["approval-state/consumed", "condition/migration-approval/consumed"]);
  });

  it("names the other reading of a qualified query among the others", () => {
    const result = lookupTopic("plan ready");
    expect(result.kind === "found" && result.others.map((e) => e.id)).toEqual(["condition/schema/plan-ready", "reason/plan-ready"]);
  });

  it.each([
    { name: "a condition type on three kinds", query: "Ready", ids: ["condition/schema/ready", "condition/schema-plan/ready", "condition/migration/ready"] },
    {
      name: "a word that is a condition type, a reason and two phases",
      query: "in sync",
      ids: ["condition/schema/in-sync", "reason/in-sync", "phase/schema/in-sync", "phase/migration/in-sync"],
    },
    { name: "a phase of both kinds", query: "phase blocked", ids: ["phase/schema/blocked", "phase/migration/blocked"] },
    {
      name: "a plain word in several reasons",
      query: "history",
      ids: [
        "concept/history-read",
        "reason/history-ahead",
        "reason/history-dirty",
        "reason/history-matched",
        "reason/history-modified",
        "reason/history-out-of-order",
        "phase/migration/reading",
        "phase/migration/verifying-history",
      ],
    },
  ])("lists candidates for $name: $query", ({ query, ids }) => {
    expect(summary(lookupTopic(query))).toEqual({ kind: "ambiguous", ids });
  });

  it.each([
    { name: "a one-letter typo in a reason", query: "PlanNoLongerCurent", first: "reason/plan-no-longer-current" },
    { name: "a dropped letter in a state", query: "consumd", first: "approval-state/consumed" },
    { name: "the start of a reason", query: "plannolonger", first: "reason/plan-no-longer-current" },
    { name: "a swapped pair in a phase", query: "AwaitingAprpoval", first: "phase/schema/awaiting-approval" },
  ])("suggests the nearest topic for $name: $query", ({ query, first }) => {
    const result = summary(lookupTopic(query));
    expect(result.kind).toBe("unknown");
    expect(result.ids[0]).toBe(first);
    expect(result.ids.length).toBeLessThanOrEqual(3);
  });

  it.each(["storefront", "approval storefront-v1", "migration shop", "app", "", "   "])("finds nothing (and suggests nothing) for an object name: %j", (query) => {
    expect(summary(lookupTopic(query))).toEqual({ kind: "unknown", ids: [] });
  });

  it("finds every entry by its id, and by its title either alone or among the others", () => {
    for (const entry of KNOWLEDGE) {
      const byId = lookupTopic(entry.id);
      expect(byId.kind === "found" && byId.entry).toBe(entry);
      const byTitle = lookupTopic(entry.title);
      const reached = byTitle.kind === "found" ? [byTitle.entry, ...byTitle.others] : byTitle.kind === "ambiguous" ? byTitle.candidates : [];
      expect(reached, entry.id).toContain(entry);
    }
  });
});

describe("normalizeWord", () => {
  it.each([
    ["awaiting-approval", "awaitingapproval"],
    ["Awaiting Approval", "awaitingapproval"],
    ["plan_no_longer_current", "plannolongercurrent"],
    ["  X  ", "x"],
  ])("%j → %j", (input, expected) => {
    expect(normalizeWord(input)).toBe(expected);
  });
});

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["stale", "stale", 0],
    ["stale", "stal", 1],
    ["consumed", "consumd", 1],
    ["kitten", "sitting", 3],
    ["", "abc", 3],
  ] as const)("%j to %j is %d", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});
