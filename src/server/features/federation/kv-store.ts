// Fedify's key–value store on Prism's database (one table, `federation_kv`): what Fedify keeps
// between requests and across instances (fetched keys and documents, inbound activities already
// handled), each with its time to live.
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { and, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { federationKv } from "../../db/schema.ts";

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

export class DbKvStore implements KvStore {
  constructor(private readonly db: Db) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const [row] = await this.db
      .select({ value: federationKv.value })
      .from(federationKv)
      .where(and(sql`${federationKv.key} = ${keySql(key)}`, live()));
    return row?.value as T | undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const expiresAt = expiry(options);
    await this.db
      .insert(federationKv)
      .values({ key: [...key], value: stored(value), expiresAt })
      .onConflictDoUpdate({ target: federationKv.key, set: { value: stored(value), expiresAt } });
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.delete(federationKv).where(sql`${federationKv.key} = ${keySql(key)}`);
  }

  /** Sets `newValue` only when the key holds `expectedValue` (`undefined`: holds nothing). */
  async cas(
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
