// The answer written straight to stdout's descriptor (src/cli/fd-output.ts): every byte
// in order however the OS takes them, the stream taking over from the first byte a synchronous
// write could not place (and everything after it), and a closed reader ending quietly.
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fdOutput, type WriteSync } from "../../src/cli/fd-output.ts";

/** A descriptor that takes at most `step` bytes a call, then answers `failWith` once `limit` bytes are in. */
function descriptor(step: number, limit = Infinity, failWith = "EAGAIN") {
  const taken: number[] = [];
  let calls = 0;
  const writeSync: WriteSync = (fd, buffer, offset, length) => {
    expect(fd).toBe(1);
    calls++;
    if (taken.length >= limit) throw Object.assign(new Error(failWith), { code: failWith });
    const n = Math.min(step, length, limit - taken.length);
    for (let i = 0; i < n; i++) taken.push(buffer[offset + i]!);
    return n;
  };
  return { writeSync, bytes: () => Buffer.from(taken), calls: () => calls };
}

function collecting() {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  let made = 0;
  return {
    make: () => {
      made++;
      return stream;
    },
    stream,
    bytes: () => Buffer.concat(chunks),
    made: () => made,
  };
}

const TEXT = "Schema:  storefront — ✓ ready\nPlan:    ptah-plan-ab12\n";

describe("fdOutput", () => {
  it("writes every byte in order when the descriptor takes a few at a time", async () => {
    const fd = descriptor(3);
    const stream = collecting();
    const out = fdOutput(1, stream.make, () => expect.fail("not closed"), fd.writeSync);
    await out.write(TEXT);
    await out.write("");
    await out.write("second\n");
    expect(fd.bytes().toString("utf8")).toBe(`${TEXT}second\n`);
    expect(stream.made()).toBe(0);
  });

  it("hands the rest to the stream from the first byte a synchronous write could not place, and everything after", async () => {
    const fd = descriptor(7, 20);
    const stream = collecting();
    const out = fdOutput(1, stream.make, () => expect.fail("not closed"), fd.writeSync);
    await out.write(TEXT);
    const callsAtFallback = fd.calls();
    await out.write("second\n");
    await out.write("third\n");
    expect(Buffer.concat([fd.bytes(), stream.bytes()]).toString("utf8")).toBe(`${TEXT}second\nthird\n`);
    expect(fd.bytes()).toHaveLength(20);
    expect(stream.made()).toBe(1);
    // Once the stream has it, the descriptor is not tried again (order would break).
    expect(fd.calls()).toBe(callsAtFallback);
  });

  it.each(["EAGAIN", "EBADF", "EIO"])("falls back to the stream on %s", async (code) => {
    const fd = descriptor(5, 10, code);
    const stream = collecting();
    const out = fdOutput(1, stream.make, () => expect.fail("not closed"), fd.writeSync);
    await out.write(TEXT);
    expect(Buffer.concat([fd.bytes(), stream.bytes()]).toString("utf8")).toBe(TEXT);
  });

  it("falls back to the stream when the descriptor takes nothing (never loops)", async () => {
    const stream = collecting();
    const out = fdOutput(
      1,
      stream.make,
      () => expect.fail("not closed"),
      () => 0,
    );
    await out.write(TEXT);
    expect(stream.bytes().toString("utf8")).toBe(TEXT);
  });

  it("calls onClosed when the reader is gone (EPIPE), from the descriptor or from the stream", async () => {
    let closed = 0;
    const fd = descriptor(4, 8, "EPIPE");
    const out = fdOutput(
      1,
      () => expect.fail("no stream"),
      () => closed++,
      fd.writeSync,
    );
    await out.write(TEXT);
    expect(closed).toBe(1);

    const stream = collecting();
    const viaStream = fdOutput(1, stream.make, () => closed++, descriptor(4, 0).writeSync);
    await viaStream.write(TEXT);
    stream.stream.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(closed).toBe(2);
  });

  it("writes the exact UTF-8 of any text, slice by slice, whatever the descriptor takes and wherever it gives up", async () => {
    // Long texts (past the 64 Ki-unit slice), with astral characters, so a pair lands on a boundary.
    const unit = fc.constantFrom("a", "é", "€", "😀", "\n", "\ud800", "x".repeat(1000), "😀".repeat(500));
    const text = fc.array(unit, { maxLength: 400 }).map((parts) => parts.join(""));
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 70_000 }), fc.option(fc.integer({ min: 0, max: 300_000 })), async (t, step, limit) => {
        const fd = descriptor(step, limit ?? Infinity);
        const stream = collecting();
        const out = fdOutput(1, stream.make, () => expect.fail("not closed"), fd.writeSync);
        await out.write(t);
        await out.write("end\n");
        expect(Buffer.concat([fd.bytes(), stream.bytes()]).equals(Buffer.from(`${t}end\n`, "utf8"))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("cuts no surrogate pair at a slice's end", async () => {
    const text = `${"a".repeat(64 * 1024 - 1)}😀${"b".repeat(10)}`;
    const fd = descriptor(1 << 20);
    await fdOutput(
      1,
      () => expect.fail("no stream"),
      () => expect.fail("not closed"),
      fd.writeSync,
    ).write(text);
    expect(fd.bytes().toString("utf8")).toBe(text);
  });
});
