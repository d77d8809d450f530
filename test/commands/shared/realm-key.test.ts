// The realm a schema or migration claims and its Lease's name. The name is checked against an
// oracle written apart from the code: the contract's canonical JSON spelled out by hand (the key
// and namespace patterns admit no character JSON would escape) and base32 by BigInt arithmetic.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { realmLeaseName, realmOf, sameRealm, type Realm } from "../../../src/commands/shared/realm-key.ts";

/** RFC 4648 base32 of the bytes, lower case, unpadded: the number read 5 bits at a time. */
function base32Oracle(bytes: Buffer): string {
  const bits = bytes.length * 8;
  const width = Math.ceil(bits / 5);
  let n = BigInt(`0x${bytes.toString("hex")}`) << BigInt(width * 5 - bits);
  let out = "";
  for (let i = 0; i < width; i++) {
    out = "abcdefghijklmnopqrstuvwxyz234567"[Number(n & 31n)]! + out;
    n >>= 5n;
  }
  return out;
}

const leaseOracle = (json: string): string => `ptah-t-${base32Oracle(createHash("sha256").update(json, "utf8").digest())}`;

const KEY = /^[a-z0-9](?:[a-z0-9._:/-]{0,40}[a-z0-9])?$/u;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/u;

function target(o: { namespace: string; engine?: string; key?: string; realm?: string }) {
  return {
    metadata: { namespace: o.namespace },
    spec: { target: { engine: o.engine ?? "PostgreSQL", ...(o.key ? { coordinationKey: o.key } : {}), ...(o.realm ? { realmRef: { name: o.realm } } : {}) } },
  };
}

describe("the realm Lease's name", () => {
  it("is ptah-t- and the base32 of sha256 of the coordination digest's canonical JSON, for any key and namespace", () => {
    fc.assert(
      fc.property(fc.stringMatching(KEY), fc.stringMatching(LABEL), fc.constantFrom("postgres", "PostgreSQL", "pgx", "mysql", "MariaDB"), (key, ns, engine) => {
        const canonical = /^(postgres|postgresql|pgx)$/iu.test(engine) ? "postgresql" : "mysql";
        const realm = realmOf(target({ namespace: ns, engine, key }))!;
        const name = realmLeaseName(realm)!;
        expect(name).toBe(leaseOracle(`{"contract_version":1,"engine":"${canonical}","namespace":"${ns}","coordination_key":"${key}"}`));
        expect(name).toMatch(/^ptah-t-[a-z2-7]{52}$/u); // 59 characters: a valid object name
      }),
    );
  });

  it("follows the realm digest for a PtahRealm, and is not computed for an unsupported engine", () => {
    expect(realmLeaseName(realmOf(target({ namespace: "app", realm: "orders-db" }))!)).toBe(leaseOracle('{"contract_version":1,"engine":"postgresql","realm":"orders-db"}'));
    expect(realmLeaseName(realmOf(target({ namespace: "app", engine: "oracle", key: "shop" }))!)).toBeUndefined();
  });
});

describe("claiming the same realm", () => {
  it("is the same key, namespace and engine, or the same PtahRealm in any namespace", () => {
    fc.assert(
      fc.property(
        fc.record({ ns: fc.constantFrom("app", "shop"), engine: fc.constantFrom("postgres", "pgx", "mysql"), key: fc.constantFrom("a", "b"), byRef: fc.boolean() }),
        fc.record({ ns: fc.constantFrom("app", "shop"), engine: fc.constantFrom("postgres", "pgx", "mysql"), key: fc.constantFrom("a", "b"), byRef: fc.boolean() }),
        (x, y) => {
          const obj = (o: typeof x) => target({ namespace: o.ns, engine: o.engine, ...(o.byRef ? { realm: o.key } : { key: o.key }) });
          const pg = (e: string) => (e === "mysql" ? "mysql" : "postgresql");
          const expected = x.byRef === y.byRef && x.key === y.key && (x.byRef || (x.ns === y.ns && pg(x.engine) === pg(y.engine)));
          expect(sameRealm(realmOf(obj(x)) as Realm, obj(y))).toBe(expected);
        },
      ),
    );
  });
});
