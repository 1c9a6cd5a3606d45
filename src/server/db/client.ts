// Opens Prism's database: embedded PGlite by default, PostgreSQL when DATABASE_URL says so.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { readMigrationFiles } from "drizzle-orm/migrator";
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
   * Whether the database holds every migration of this version (`migrated`) and this handle's
   * LISTEN connection is open (`listening`; PGlite's listener lives in the process, so always);
   * fails when the database does not answer.
   */
  status(): Promise<{ migrated: boolean; listening: boolean }>;
  /**
   * The connections it may hold (`size`), how many of them queries and transactions use now
   * (`inUse`), and how many more wait for one (`waiting`). Neither driver reports its pool: these
   * count the queries and transactions sent and not yet finished, which each take a connection
   * of their own while there are fewer of them than connections.
   */
  usage(): { size: number; inUse: number; waiting: number };
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
  /**
   * Closes the connection (PGlite's handle; PostgreSQL's pool and its listening connection) and
   * opens a fresh one behind the same `db`. Queries and transactions under way finish first;
   * listeners keep listening; no data is lost, not even an in-memory database's.
   */
  recycle(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `watcher` with the text of each statement Drizzle sends through this handle, in
   * transactions too (tests count what a piece of work costs); returns a function that stops it.
   */
  watchQueries(watcher: (query: string) => void): () => void;
}

/** The rows of `db.execute`: PostgreSQL's driver answers them as a list, PGlite's in `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** `busy` queries and transactions under way on `size` connections. */
function usageOf(size: number, busy: number) {
  return { size, inUse: Math.min(busy, size), waiting: Math.max(busy - size, 0) };
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
const MIGRATION_LOCK = 724_311;

let latest: number | undefined;
/** The journal time of this version's newest migration, as the migrator records it once applied. */
function latestMigration(): number {
  latest ??= Math.max(...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
  return latest;
}

/**
 * `image`: for an in-memory PGlite, the files it starts from (a `dumpDataDir` of another), instead
 * of an empty cluster made afresh, or a PGlite already started (the test suite reuses its own).
 */
export function openDatabase(url: string, image?: Blob | PGlite): Database {
  if (url.startsWith("pglite:")) return openPglite(pgliteDataDir(url), image);
  return openPostgres(url);
}

/** The folder of an embedded database kept on disk (`pglite:<dir>`); none for memory or PostgreSQL. */
export function pgliteDataDir(url: string): string | undefined {
  if (!url.startsWith("pglite:")) return undefined;
  const location = url.slice("pglite:".length);
  return location === "memory" || location === "" ? undefined : location;
}

/** Drizzle's logger for a handle: tells each statement to whoever watches; nobody, mostly. */
class QueryWatchers {
  private readonly watchers = new Set<(query: string) => void>();

  logQuery(query: string) {
    for (const watcher of this.watchers) watcher(query);
  }

  watch(watcher: (query: string) => void) {
    this.watchers.add(watcher);
    return () => {
      this.watchers.delete(watcher);
    };
  }
}

type Unlisten = () => Promise<void>;
type Listen = Database["listen"];

/**
 * The LISTENs made through a database handle, so that a fresh connection can listen again (and
 * say so through `onListening`, as after any lost connection).
 */
class Listeners {
  private readonly entries = new Set<{
    channel: string;
    onMessage: (payload: string) => void;
    onListening: () => void;
    unlisten: Unlisten;
  }>();

  async add(
    listen: Listen,
    channel: string,
    onMessage: (payload: string) => void,
    onListening: () => void,
  ) {
    const unlisten = await listen(channel, onMessage, onListening);
    const entry = { channel, onMessage, onListening, unlisten };
    this.entries.add(entry);
    return async () => {
      this.entries.delete(entry);
      await entry.unlisten();
    };
  }

  /** Listens again through a fresh connection; the old connection's LISTENs end with it. */
  async moveTo(listen: Listen) {
    const moved = await Promise.all(
      [...this.entries].map(async (entry) => ({
        entry,
        unlisten: await listen(entry.channel, entry.onMessage, entry.onListening),
      })),
    );
    for (const { entry, unlisten } of moved) entry.unlisten = unlisten;
  }
}

/**
 * The turns of the event loop PGlite's statements run on, one statement a turn, in the order they
 * asked. PGlite answers a query without waiting on the network: a chain of queries would
 * otherwise hold the loop from its first to its last, and queries that each waited only for the
 * next turn would all run in the same one, a request that came meanwhile waiting behind them all.
 */
class Turns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves on a turn of its own, once the statements that asked before have had theirs. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.letOneGo);
      }
    });
  }

  private readonly letOneGo = () => {
    this.waiting.shift()?.();
    if (this.waiting.length > 0) setImmediate(this.letOneGo);
    else this.scheduled = false;
  };
}

/** A transaction whose queries each wait for a turn of the event loop of their own. */
function takingTurns(tx: Transaction, turns: Turns): Transaction {
  const query: Transaction["query"] = async (...args) => {
    await turns.next();
    return tx.query(...args);
  };
  return Object.assign(Object.create(tx) as Transaction, { query });
}

/**
 * Lets calls through until exclusive work comes; that waits for the calls under way, and calls
 * made meanwhile wait for it.
 */
class Gate {
  /** Calls under way. */
  active = 0;
  private drained: (() => void) | undefined;
  private closed: Promise<void> | undefined;

  async run<T>(call: () => Promise<T>): Promise<T> {
    while (this.closed) await this.closed;
    this.active += 1;
    try {
      return await call();
    } finally {
      this.active -= 1;
      if (this.active === 0) this.drained?.();
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.closed) await this.closed;
    let reopen = () => {};
    this.closed = new Promise((resolve) => {
      reopen = resolve;
    });
    try {
      if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = undefined;
      return await work();
    } finally {
      this.closed = undefined;
      reopen();
    }
  }
}

/** The files of an in-memory PGlite with every migration applied, for `openDatabase`'s `image`. */
export async function migratedPgliteImage(): Promise<Blob> {
  const client = new PGlite();
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    return await client.dumpDataDir("none");
  } finally {
    await client.close();
  }
}

function openPglite(dataDir: string | undefined, image: Blob | PGlite | undefined): Database {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  let client =
    image instanceof Blob ? new PGlite({ loadDataDir: image }) : (image ?? new PGlite(dataDir));
  const gate = new Gate();
  const turns = new Turns();
  const listeners = new Listeners();
  const listen: Listen = async (channel, onMessage, onListening) => {
    // The embedded database lives in this process: its listener is lost only when recycled.
    const unlisten = await client.listen(channel, onMessage);
    onListening();
    return unlisten;
  };
  // Drizzle keeps the client it is given, and so do its prepared statements; its PGlite session
  // calls only query() and transaction() (and, in a transaction, its query()). It gets those two,
  // reaching whichever handle is open, each query on a turn of the event loop of its own.
  const handle = {
    query: (...args: Parameters<PGlite["query"]>) =>
      gate.run(async () => {
        await turns.next();
        return client.query(...args);
      }),
    transaction: <T>(work: (tx: Transaction) => Promise<T>) =>
      gate.run(() => client.transaction((tx) => work(takingTurns(tx, turns)))),
  };
  const queries = new QueryWatchers();
  const db = drizzlePglite(handle as unknown as PGlite, {
    schema,
    logger: queries,
  }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    dataDir,
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    ping: () =>
      gate.run(async () => {
        await client.query("select 1");
      }),
    status: () =>
      gate.run(async () => {
        const { rows } = await client.query<{ migrated: boolean }>(
          "select coalesce(max(created_at), 0) >= $1 as migrated from drizzle.__drizzle_migrations",
          [latestMigration()],
        );
        return { migrated: rows[0]?.migrated === true, listening: true };
      }),
    // One connection, which runs one query or transaction at a time.
    usage: () => usageOf(1, gate.active),
    listen: (channel, onMessage, onListening) =>
      gate.run(() => listeners.add(listen, channel, onMessage, onListening)),
    notify: (channel, payload) =>
      gate.run(async () => {
        await client.query("select pg_notify($1, $2)", [channel, payload]);
      }),
    // Two handles must never open the same folder at once: the old one closes first.
    recycle: () =>
      gate.exclusive(async () => {
        // An in-memory database lives only in its handle: its files move to the new one.
        const image = dataDir ? undefined : await client.dumpDataDir("none");
        await client.close();
        client = image ? new PGlite({ loadDataDir: image }) : new PGlite(dataDir);
        await client.waitReady;
        await listeners.moveTo(listen);
      }),
    close: () => gate.exclusive(() => client.close()),
    watchQueries: (watcher) => queries.watch(watcher),
  };
}

/** Migrates a PostgreSQL database, once however many instances start together. */
async function migrateOnce(url: string) {
  // One connection holds an advisory lock so that instances starting together migrate once.
  const single = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await single`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(single), { migrationsFolder });
    await single`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await single.end();
  }
}

/** Whether the database is migrated, and whether this handle's connections (by name) listen. */
async function postgresStatus(client: postgres.Sql, applicationName: string) {
  // The listening connection's last statement is its LISTEN (postgres.js listens again on a
  // fresh connection after losing one); the pool's connections never run one.
  const [row] = await client<{ migrated: boolean; listening: boolean }[]>`
    select
      (select coalesce(max(created_at), 0) from drizzle.__drizzle_migrations)
        >= ${latestMigration()} as migrated,
      exists (
        select from pg_stat_activity
        where application_name = ${applicationName} and query like 'listen %'
      ) as listening`;
  return { migrated: row?.migrated === true, listening: row?.listening === true };
}

function openPostgres(url: string): Database {
  // Names this handle's connections, so that its listening one can be told from other processes'.
  const applicationName = `prism ${randomBytes(4).toString("hex")}`;
  const poolSize = 10;
  const connect = () =>
    postgres(url, {
      max: poolSize,
      connect_timeout: 5,
      idle_timeout: 30,
      connection: { application_name: applicationName },
      onnotice: () => {},
    });
  let client = connect();
  const gate = new Gate();
  const listeners = new Listeners();
  const listenOn =
    (pool: postgres.Sql): Listen =>
    async (channel, onMessage, onListening) =>
      // postgres.js keeps one dedicated connection for LISTEN and re-listens after reconnecting.
      (await pool.listen(channel, onMessage, onListening)).unlisten;
  let busy = 0;
  /** Counts a query or transaction from when it is sent until it has finished. */
  const counted = <T extends PromiseLike<unknown>>(work: T): T => {
    busy += 1;
    const done = () => {
      busy -= 1;
    };
    work.then(done, done);
    return work;
  };
  // Drizzle keeps the client it is given, and so do its prepared statements: it gets one that
  // forwards to whichever pool is open. A new pool takes every query from the moment it is in
  // place, so queries never wait; only LISTENs wait for a recycle under way.
  const handle = new Proxy(client, {
    get: (_target, property) => {
      // Drizzle sends each query through `unsafe` and asks for a named (prepared) statement only
      // for queries it was told to prepare; for any other query with parameters, postgres.js
      // first asks the server for their types and only then runs it: two round trips. Preparing
      // every query takes one (the server parses and plans each query's text once per connection).
      if (property === "unsafe") {
        return (query: string, parameters?: never[], options?: postgres.UnsafeQueryOptions) =>
          counted(client.unsafe(query, parameters, { ...options, prepare: true }));
      }
      if (property === "begin") {
        return (...args: Parameters<postgres.Sql["begin"]>) => counted(client.begin(...args));
      }
      const value = Reflect.get(client, property);
      return typeof value === "function" ? value.bind(client) : value;
    },
  });
  const queries = new QueryWatchers();
  const db = drizzlePostgres(handle, { schema, logger: queries }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    dataDir: undefined,
    migrate: () => migrateOnce(url),
    ping: async () => {
      await client`select 1`;
    },
    status: () => postgresStatus(client, applicationName),
    usage: () => usageOf(poolSize, busy),
    listen: (channel, onMessage, onListening) =>
      gate.run(() => listeners.add(listenOn(client), channel, onMessage, onListening)),
    notify: async (channel, payload) => {
      await client.notify(channel, payload);
    },
    recycle: () =>
      gate.exclusive(async () => {
        const old = client;
        const next = connect();
        // The type handling Drizzle gave the first pool (dates as text, JSON as is).
        Object.assign(next.options.parsers, old.options.parsers);
        Object.assign(next.options.serializers, old.options.serializers);
        try {
          await listeners.moveTo(listenOn(next));
        } catch (error) {
          await next.end({ timeout: 0 });
          throw error;
        }
        client = next;
        // Queries already waiting for one of the old pool's connections get it before this one
        // does; end() then lets each connection finish what it runs, transactions included.
        await old`select 1`.catch(() => {});
        await old.end({ timeout: 5 });
      }),
    close: () => gate.exclusive(() => client.end({ timeout: 5 })),
    watchQueries: (watcher) => queries.watch(watcher),
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
