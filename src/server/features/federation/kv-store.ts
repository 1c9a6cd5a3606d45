// Fedify's key–value store on Prism's database (one table, `federation_kv`): what Fedify keeps
// between requests and across instances (fetched keys and documents, inbound activities already
// handled), each with its time to live; what the process last read or wrote is also kept in its
// memory a while (kv-memory.ts), for the reads Fedify repeats at every activity.
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { and, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { federationKv } from "../../db/schema.ts";
import { KvMemory, type Remembered } from "./kv-memory.ts";

/** How many keys a process keeps in memory, and how long at most (their own ttl when shorter). */
const KEPT = 1000;
const KEPT_MS = 5 * 60_000;

/** A key as a SQL `text[]`. */
const keySql = (key: readonly string[]) =>
  sql`array[${sql.join(
    key.map((part) => sql`${part}`),
    sql`, `,
  )}]::text[]`;

const live = () => or(isNull(federationKv.expiresAt), gt(federationKv.expiresAt, sql`now()`));

const expiry = (options?: KvStoreSetOptions) =>
  options?.ttl ? new Date(Date.now() + options.ttl.total("millisecond")) : null;

/** Fedify's values are JSON; `undefined` inside arrays or objects is written as JSON writes it. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as unknown;

/**
 * A value as the column stores it. A value of null (a key Fedify could not fetch, kept so it is
 * not asked for again at once) is JSON's null, not SQL's, which the column refuses and which would
 * read as no value at all.
 */
const stored = (value: unknown) => {
  const json = asJson(value);
  return json === null ? sql`'null'::jsonb` : json;
};

/** A row as the memory keeps it. */
const remembered = (value: unknown, expiresAt: Date | null): Remembered => ({
  json: JSON.stringify(value),
  expiresAt: expiresAt?.getTime() ?? null,
});

/** A key as the memory names it. */
const memoryKey = (key: KvKey) => JSON.stringify(key);

export class DbKvStore implements KvStore {
  private readonly memory = new KvMemory(KEPT, KEPT_MS);

  constructor(private readonly db: Db) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const known = this.memory.recall(memoryKey(key));
    if (known) return JSON.parse(known.json) as T;
    const row = await this.memory.run(
      memoryKey(key),
      false,
      async () => {
        const [found] = await this.db
          .select({ value: federationKv.value, expiresAt: federationKv.expiresAt })
          .from(federationKv)
          .where(and(sql`${federationKv.key} = ${keySql(key)}`, live()));
        return found;
      },
      (found) => (found ? remembered(found.value, found.expiresAt) : null),
    );
    return row?.value as T | undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const expiresAt = expiry(options);
    const now = remembered(asJson(value), expiresAt);
    const known = this.memory.recall(memoryKey(key));
    // What the database holds already, for good: Fedify writes a server's signature spec again
    // at every request it signs.
    if (known && known.json === now.json && known.expiresAt === null && expiresAt === null) return;
    await this.memory.run(
      memoryKey(key),
      true,
      async () => {
        await this.db
          .insert(federationKv)
          .values({ key: [...key], value: stored(value), expiresAt })
          .onConflictDoUpdate({
            target: federationKv.key,
            set: { value: stored(value), expiresAt },
          });
      },
      () => now,
    );
  }

  async delete(key: KvKey): Promise<void> {
    await this.memory.run(
      memoryKey(key),
      true,
      async () => {
        await this.db.delete(federationKv).where(sql`${federationKv.key} = ${keySql(key)}`);
      },
      () => null,
    );
  }

  /** Sets `newValue` only when the key holds `expectedValue` (`undefined`: holds nothing). */
  cas(
    key: KvKey,
    expectedValue: unknown,
    newValue: unknown,
    options?: KvStoreSetOptions,
  ): Promise<boolean> {
    return this.memory.run(
      memoryKey(key),
      true,
      () => this.swap(key, expectedValue, newValue, options),
      () => null,
    );
  }

  private async swap(
    key: KvKey,
    expectedValue: unknown,
    newValue: unknown,
    options?: KvStoreSetOptions,
  ): Promise<boolean> {
    const expiresAt = expiry(options);
    const value = stored(newValue);
    if (expectedValue === undefined) {
      const inserted = await this.db
        .insert(federationKv)
        .values({ key: [...key], value, expiresAt })
        .onConflictDoUpdate({
          target: federationKv.key,
          set: { value, expiresAt },
          setWhere: sql`${federationKv.expiresAt} <= now()`,
        })
        .returning({ key: federationKv.key });
      return inserted.length > 0;
    }
    const updated = await this.db
      .update(federationKv)
      .set({ value, expiresAt })
      .where(
        and(
          sql`${federationKv.key} = ${keySql(key)}`,
          live(),
          sql`${federationKv.value} = ${JSON.stringify(asJson(expectedValue))}::jsonb`,
        ),
      )
      .returning({ key: federationKv.key });
    return updated.length > 0;
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const length = prefix?.length ?? 0;
    const rows = await this.db
      .select({ key: federationKv.key, value: federationKv.value })
      .from(federationKv)
      .where(
        and(
          live(),
          prefix
            ? sql`${federationKv.key}[1:${sql.raw(String(length))}] = ${keySql(prefix)}`
            : undefined,
        ),
      );
    for (const row of rows) yield { key: row.key as unknown as KvKey, value: row.value };
  }
}
