// `kubectl ptah version`: the plugin's own version comes first, whatever the cluster answers.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";

const REFUSED = "the connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?";

describe("version with an unreachable cluster", () => {
  it("prints the plugin's version first, then the connection error; exit 1", async () => {
    const reader = new FakeReader([]);
    reader.faults.set("get /version", new ReadError(REFUSED));
    expect(await runCliWith(["version"], reader)).toMatchObject({ status: 1, stdout: "Client Version: v0.0.0-test\n", stderr: `error: ${REFUSED}\n` });
    const json = await runCliWith(["version", "-o", "json"], reader);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ clientVersion: "v0.0.0-test" });
  });
});
