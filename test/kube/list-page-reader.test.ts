// pageReader (kube/page-reader.ts), the decoder as the reader uses it: a page that is not JSON is the
// reader's own error, and a list whose answers pass 256 KB keeps V8's young generation small from
// then on (kube/young-generation.ts, once per process), while a shorter one never loads node:v8.
import { Buffer } from "node:buffer";
import { beforeEach, describe, expect, it, vi } from "vitest";

const kept = vi.fn((read: string) => read.length > 0);
vi.mock("../../src/kube/young-generation.ts", () => ({ tuneForLargeRead: kept }));

beforeEach(() => {
  vi.resetModules();
  kept.mockClear();
});

const page = (items: number, size: number): Buffer =>
  Buffer.from(JSON.stringify({ metadata: { resourceVersion: "1" }, items: Array.from({ length: items }, (_, i) => ({ i, pad: "x".repeat(size) })) }));

async function read(bodies: readonly Buffer[]): Promise<number> {
  const { pageReader } = await import("../../src/kube/page-reader.ts");
  const list = { received: 0 };
  let items = 0;
  for (const body of bodies) {
    const reader = pageReader(
      () => items++,
      () => new Error("invalid JSON"),
      list,
    );
    for (let at = 0; at < body.length; at += 16_384) reader.write(body.subarray(at, at + 16_384));
    expect(reader.end()).toEqual({ metadata: { resourceVersion: "1" } });
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  await vi.dynamicImportSettled();
  return items;
}

describe("pageReader", () => {
  it("keeps the young generation small once a list passes 256 KB, across its pages, once", async () => {
    expect(await read([page(100, 1000), page(100, 1000), page(100, 1000)])).toBe(300);
    expect(kept).toHaveBeenCalledTimes(1);
    expect(kept).toHaveBeenCalledWith("list");
  });

  it("tunes for one large object, and for a list after it, each once", async () => {
    const { noteRead } = await import("../../src/kube/page-reader.ts");
    noteRead(300_000, "object");
    noteRead(600_000, "object");
    await vi.dynamicImportSettled();
    expect(kept.mock.calls).toEqual([["object"]]);
    expect(await read([page(100, 1000), page(100, 1000), page(100, 1000)])).toBe(300);
    expect(kept.mock.calls).toEqual([["object"], ["list"]]);
  });

  it("leaves it alone for a short list", async () => {
    expect(await read([page(50, 1000), page(50, 1000)])).toBe(100);
    expect(kept).not.toHaveBeenCalled();
  });

  it("refuses a page that is not JSON with the reader's error", async () => {
    const { pageReader } = await import("../../src/kube/page-reader.ts");
    const reader = pageReader(
      () => {},
      () => new Error("invalid JSON from the server"),
      { received: 0 },
    );
    expect(() => reader.write(Buffer.from('{"items":[{]}'))).toThrow("invalid JSON from the server");
    const cut = pageReader(
      () => {},
      () => new Error("invalid JSON from the server"),
      { received: 0 },
    );
    cut.write(Buffer.from('{"items":['));
    expect(() => cut.end()).toThrow("invalid JSON from the server");
  });
});
