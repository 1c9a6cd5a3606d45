// Fedify's key–value store on Prism's database: values by key, expiry, compare-and-swap, and
// listing by prefix (a key equal to the prefix included), as Fedify's memory store behaves; what
// a store read or wrote is read again from its memory, never older than its last write.
import type { KvKey, KvStoreSetOptions } from "@fedify/fedify";
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

describe("the store's memory", () => {
  /** The statements `work` sends, by verb: `select`, `insert`… */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const sent: string[] = [];
    const stop = t.database.watchQueries((query) => sent.push(query.split(" ")[0] ?? ""));
    try {
      await work();
    } finally {
      stop();
    }
    return sent;
  }

  it("reads a value again from memory, as it last wrote it, until its time is up", async () => {
    const kv = new DbKvStore(t.database.db);
    const key: KvKey = ["_fedify", "publicKey", "https://remote.example/users/a#main-key"];
    expect(await statementsOf(() => kv.set(key, { id: "a" }))).toEqual(["insert"]);
    expect(await statementsOf(async () => expect(await kv.get(key)).toEqual({ id: "a" }))).toEqual(
      [],
    );
    // Another process's store reads the database once, then its memory.
    const other = new DbKvStore(t.database.db);
    const twice = async () => {
      expect(await other.get(key)).toEqual({ id: "a" });
      expect(await other.get(key)).toEqual({ id: "a" });
    };
    expect(await statementsOf(twice)).toEqual(["select"]);
    // Written again as it is, for good: nothing to write; with a ttl, or another value, written.
    expect(await statementsOf(() => other.set(key, { id: "a" }))).toEqual([]);
    expect(await statementsOf(() => other.set(key, { id: "b" }))).toEqual(["insert"]);
    expect(await other.get(key)).toEqual({ id: "b" });

    const ttl = Temporal.Duration.from({ milliseconds: 30 }) as unknown as KvStoreSetOptions["ttl"];
    await kv.set(key, { id: "c" }, { ttl });
    expect(await statementsOf(() => kv.get(key))).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await kv.get(key)).toBeUndefined();
  });

  it("forgets what it deleted or swapped, and never keeps that a key holds nothing", async () => {
    const kv = new DbKvStore(t.database.db);
    await kv.set(["m", "gone"], 1);
    await kv.delete(["m", "gone"]);
    expect(await kv.get(["m", "gone"])).toBeUndefined();
    expect(await statementsOf(() => kv.get(["m", "gone"]))).toEqual(["select"]);
    // Another process writes it: this one sees it at once, as it kept nothing of it.
    await new DbKvStore(t.database.db).set(["m", "gone"], 2);
    expect(await kv.get(["m", "gone"])).toBe(2);

    await kv.set(["m", "swapped"], 1);
    expect(await kv.cas(["m", "swapped"], 1, 2)).toBe(true);
    expect(await kv.get(["m", "swapped"])).toBe(2);
    expect(await kv.cas(["m", "swapped"], 1, 3)).toBe(false);
    expect(await kv.get(["m", "swapped"])).toBe(2);
  });
});
