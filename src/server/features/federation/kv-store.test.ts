// Fedify's key–value store on Prism's database: values by key, expiry, compare-and-swap, and
// listing by prefix (a key equal to the prefix included), as Fedify's memory store behaves.
import type { KvStoreSetOptions } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "../../test/helpers.ts";
import { DbKvStore } from "./kv-store.ts";

const t = setupTestDatabase();

describe("the federation key-value store", () => {
  it("keeps, replaces, expires, swaps and lists values", async () => {
    const kv = new DbKvStore(t.database.db);
    expect(await kv.get(["a", "b"])).toBeUndefined();
    await kv.set(["a", "b"], { n: 1 });
    await kv.set(["a", "b"], { n: 2 });
    expect(await kv.get(["a", "b"])).toEqual({ n: 2 });

    // Fedify's types name the standard Temporal, which Node 20 has not: its polyfill stands in.
    const ttl = Temporal.Duration.from({ milliseconds: 1 }) as unknown as KvStoreSetOptions["ttl"];
    await kv.set(["a", "short"], "soon gone", { ttl });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await kv.get(["a", "short"])).toBeUndefined();

    expect(await kv.cas(["a", "b"], { n: 1 }, { n: 3 })).toBe(false);
    expect(await kv.cas(["a", "b"], { n: 2 }, { n: 3 })).toBe(true);
    expect(await kv.cas(["a", "new"], undefined, "first")).toBe(true);
    expect(await kv.cas(["a", "new"], undefined, "second")).toBe(false);
    // An expired value is as good as none.
    expect(await kv.cas(["a", "short"], undefined, "again")).toBe(true);

    await kv.set(["a"], "the prefix itself");
    await kv.set(["ab", "c"], "not under a");
    const listed = [];
    for await (const entry of kv.list(["a"])) listed.push(entry);
    expect(new Map(listed.map((entry) => [entry.key.join("/"), entry.value]))).toEqual(
      new Map<string, unknown>([
        ["a/b", { n: 3 }],
        ["a/new", "first"],
        ["a/short", "again"],
        ["a", "the prefix itself"],
      ]),
    );

    await kv.delete(["a", "b"]);
    expect(await kv.get(["a", "b"])).toBeUndefined();
  });

  it("keeps null, as Fedify keeps a key it could not fetch", async () => {
    const kv = new DbKvStore(t.database.db);
    await kv.set(["_fedify", "publicKey", "https://gone.example/actor#key"], null);
    expect(await kv.get(["_fedify", "publicKey", "https://gone.example/actor#key"])).toBeNull();
    await kv.set(["n"], 1);
    expect(await kv.cas(["n"], 1, null)).toBe(true);
    expect(await kv.get(["n"])).toBeNull();
    expect(await kv.cas(["n"], null, 2)).toBe(true);
  });
});
