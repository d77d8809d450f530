// Names and namespaces that cannot be one segment of a request's path are refused as kubectl's
// client refuses them (client-go's Request.Name and Namespace): its words, exit 1, before any
// request — not as a request the plugin must not send (the request guard's refusal).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathSegmentProblems } from "../../src/model/names.ts";
import { runRealCli, useFaultServer, writeKubeconfig } from "../support/fault-server.ts";

const f = useFaultServer("ptah-path-segment-", { beforeAll, afterAll });

describe("a name that is no path segment", () => {
  it.each([
    ["..", ["may not be '..'"]],
    [".", ["may not be '.'"]],
    ["a/status", ["may not contain '/'"]],
    ["a%2F", ["may not contain '%'"]],
    ["a/%", ["may not contain '/'", "may not contain '%'"]],
    ["...", []],
    ["storefront", []],
    ["a.b", []],
  ])("%j: %j", (name, problems) => {
    expect(pathSegmentProblems(name)).toEqual(problems);
  });

  it.each([
    [["schema", ".."], "error: invalid resource name \"..\": [may not be '..']"],
    [["schema", "a/status"], "error: invalid resource name \"a/status\": [may not contain '/']"],
    [["status", "."], "error: invalid resource name \".\": [may not be '.']"],
    [["migration", "a%b"], "error: invalid resource name \"a%b\": [may not contain '%']"],
    [["history", "migration", "../x"], "error: invalid resource name \"../x\": [may not contain '/']"],
    [["schema", "storefront", "-n", ".."], "error: invalid namespace \"..\": [may not be '..']"],
    [["plans", "-n", "a/b"], "error: invalid namespace \"a/b\": [may not contain '/']"],
  ])("kubectl ptah %j is refused as kubectl refuses it, exit 1, nothing sent", async (argv, line) => {
    f.server.reset();
    const kubeconfig = writeKubeconfig(f.dir, "segment.kubeconfig", { server: f.server.url, caFile: f.pki.caFile });
    const r = await runRealCli(argv, { kubeconfig, home: f.home });
    expect(r.stderr.trim()).toBe(line);
    expect(r.status).toBe(1);
    expect(r.stderr).not.toContain("refused to send");
    expect(f.server.requests).toEqual([]);
  });
});
