// `explain` has a topic for every lock mode and every finding code the lock analyser can print,
// found by the word a person copies from `plan --locks` (the code, the mode as printed).
import { describe, expect, it } from "vitest";
import { FINDING_CODES, LOCK_MODES } from "../../src/locks/index.ts";
import { findTopic } from "../../src/explain/knowledge.ts";
import { lookupTopic } from "../../src/explain/lookup.ts";

/** The finding code's topic: its own name, but protected-table, which the operator's ProtectedTable reason already names. */
const topicOf = (code: string) => (code === "protected-table" ? "protected-table-lock" : code);

describe("lock topics", () => {
  it.each([...FINDING_CODES])("finding %s has a topic that says what to do", (code) => {
    const t = findTopic(`concept/${topicOf(code)}`);
    expect(t, code).toBeDefined();
    expect(t!.userAction.length).toBeGreaterThan(10);
    expect(t!.next.map((n) => n.command)).toContain("kubectl ptah plan <schema> --locks");
  });

  it.each([...LOCK_MODES])("mode %s has a topic found by its printed name", (mode) => {
    const id = `concept/${mode.toLowerCase().replaceAll(" ", "-")}`;
    expect(findTopic(id), mode).toBeDefined();
    const found = lookupTopic(mode);
    expect(found.kind === "found" ? found.entry.id : found.kind).toBe(id);
  });

  it("keeps the operator's ProtectedTable reason where it was", () => {
    const found = lookupTopic("ProtectedTable");
    expect(found.kind === "found" ? found.entry.id : found.kind).toBe("reason/protected-table");
  });
});
