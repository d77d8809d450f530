// `status SCHEMA --report`: the Markdown a bug report carries, through the one shell.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { T2, awaitingSchema } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

function reported(): Record<string, unknown> {
  const s = awaitingSchema();
  const status = s.status as Record<string, unknown>;
  status.executionBinding = { epoch: 3, ptahVersion: "v0.6.0", executorImage: `ghcr.io/stokaro/ptah@sha256:${"a".repeat(64)}`, runnerProtocolVersion: 1, secretRef: "not-printed" };
  status.applied = {
    planFingerprint: `sha256:${"1".repeat(64)}`,
    completedAt: T2,
    dispatchedBy: {
      controllerImage: `ghcr.io/stokaro/ptah-operator@sha256:${"9".repeat(64)}`,
      controllerRevision: "v0.2.10",
      runnerImage: `ghcr.io/stokaro/ptah-runner@sha256:${"b".repeat(64)}`,
    },
  };
  return s;
}

describe("status SCHEMA --report", () => {
  it("prints the phase, every condition with its observedGeneration, the plan, the operator's identity and the versions", async () => {
    const r = await runCliWith(["status", "storefront", "-n", "app", "--report"], new FakeReader([{ kind: "PtahSchema", raw: reported() }]));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    await expectGolden(r.stdout, "status/report.txt");
    expect(r.stdout).toContain("| `Ready` | `False` | `AwaitingApproval` | `1` |");
    expect(r.stdout).toContain("- **Execution binding:** epoch `3`, ptahVersion `v0.6.0`");
    expect(r.stdout).toContain("- **Server:** Kubernetes `v1.33.13`");
    expect(r.stdout).not.toContain("not-printed");
  });

  it.each([[["status", "--report"]], [["status", "storefront", "--report", "-o", "yaml"]], [["status", "storefront", "--report", "--watch"]]])(
    "refuses %j with exit 2 and one line",
    async (argv) => {
      const r = await runCliWith(argv, new FakeReader([]));
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: [^\n]+\n$/u);
    },
  );
});
