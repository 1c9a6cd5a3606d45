// Opens Prism's database: embedded PGlite by default, PostgreSQL when DATABASE_URL says so.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** A database handle or an open transaction: services accept either. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** For PGlite on disk: the folder it lives in. */
  dataDir: string | undefined;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Postgres LISTEN: calls `onMessage` for each NOTIFY on the channel, and `onListening` each time
   * the listening connection starts, again after it was lost; resolves to an unlisten.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onListening: () => void,
  ): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
const MIGRATION_LOCK = 724_311;

export function openDatabase(url: string): Database {
  if (url.startsWith("pglite:")) return openPglite(url.slice("pglite:".length));
  return openPostgres(url);
}

function openPglite(location: string): Database {
  const dataDir = location === "memory" || location === "" ? undefined : location;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    dataDir,
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    ping: async () => {
      await client.query("select 1");
    },
    async listen(channel, onMessage, onListening) {
      // The embedded database lives in this process: its listener is never lost.
      const unlisten = await client.listen(channel, onMessage);
      onListening();
      return unlisten;
    },
    notify: async (channel, payload) => {
      await client.query("select pg_notify($1, $2)", [channel, payload]);
    },
    close: () => client.close(),
  };
}

function openPostgres(url: string): Database {
  const client = postgres(url, {
    max: 10,
    connect_timeout: 5,
    idle_timeout: 30,
    onnotice: () => {},
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    dataDir: undefined,
    async migrate() {
      // One connection holds an advisory lock so that instances starting together migrate once.
      const single = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await single`select pg_advisory_lock(${MIGRATION_LOCK})`;
        await migratePostgres(drizzlePostgres(single), { migrationsFolder });
        await single`select pg_advisory_unlock(${MIGRATION_LOCK})`;
      } finally {
        await single.end();
      }
    },
    ping: async () => {
      await client`select 1`;
    },
    async listen(channel, onMessage, onListening) {
      // postgres.js keeps one dedicated connection for LISTEN and re-listens after reconnecting.
      const { unlisten } = await client.listen(channel, onMessage, onListening);
      return unlisten;
    },
    notify: async (channel, payload) => {
      await client.notify(channel, payload);
    },
    close: () => client.end({ timeout: 5 }),
  };
}

const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/** True when an error means the database cannot be reached right now (→ 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (unavailableCodes.has(code) || code.startsWith("08"))) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The Postgres error code of a failed statement, looking through Drizzle's wrapper. */
export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
