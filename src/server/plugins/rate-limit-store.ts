// Where the rate limits keep their counters. On PostgreSQL, in the database: every process and
// machine serving it spends from the same counters, so each limit holds for the whole server. On
// PGlite (one process by nature), in the process's memory.
import { sql } from "drizzle-orm";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { type Database, type Db, type Executor, rowsOf } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { rateLimits } from "../db/schema.ts";

/** The counters of one limit. */
export interface Counters {
  /** Spends a point from the counter `key`: the seconds until it has one again, or 0 if it had one. */
  spend(key: string): Promise<number>;
  /** Gives a point back to the counter `key`. */
  refund(key: string): Promise<void>;
  /** Forgets the counter `key`. */
  forget(key: string): Promise<void>;
}

/** Where an app's limits keep their counters. */
export interface LimitStore {
  /**
   * The counters of the limit `name`: `points` per window of `seconds`, which starts at a
   * counter's first point. Each limit has a name of its own, which its counters are stored under.
   */
  counters(name: string, points: number, seconds: number): Counters;
}

/** The store for the database's engine: PostgreSQL's tables, or this process's memory for PGlite. */
export function limitStoreFor(database: Database): LimitStore {
  return database.kind === "postgres" ? databaseStore(database.db) : memoryStore();
}

/** A whole number of seconds to wait, at least 1, for `ms` until a window ends. */
const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Counters in this process's memory; each forgets itself when its window ends. */
export function memoryStore(): LimitStore {
  return uniquelyNamed((_name, points, seconds) => {
    const limiter = new RateLimiterMemory({ points, duration: seconds });
    return {
      async spend(key) {
        try {
          await limiter.consume(key);
          return 0;
        } catch (result) {
          if (!(result instanceof RateLimiterRes)) throw result;
          return secondsOf(result.msBeforeNext);
        }
      },
      async refund(key) {
        await limiter.reward(key, 1);
      },
      async forget(key) {
        await limiter.delete(key);
      },
    };
  });
}

/**
 * Counters in the `rate_limits` table, one statement per call, timed by the database's clock so
 * that machines whose clocks differ count one window and answer the same Retry-After.
 */
function databaseStore(db: Db): LimitStore {
  return uniquelyNamed((name, points, seconds) => ({
    async spend(key) {
      const [counter] = await spendStatement(db).execute({ key: `${name}:${key}`, seconds });
      if (!counter) throw new Error("spending a point returned no counter");
      return counter.spent > points ? secondsOf(counter.msLeft) : 0;
    },
    async refund(key) {
      await db.execute(sql`
        update ${rateLimits} set points = points - 1
        where key = ${`${name}:${key}`} and expires_at > now()`);
    },
    async forget(key) {
      await db.execute(sql`delete from ${rateLimits} where key = ${`${name}:${key}`}`);
    },
  }));
}

/**
 * One point more on a counter: a new window when it has none or its window has ended; the points
 * spent in the window and the milliseconds left of it.
 */
const spendStatement = (db: Db) =>
  prepared(db, "rate_limit_spend", () => {
    const ended = sql`${rateLimits.expiresAt} <= now()`;
    return db
      .insert(rateLimits)
      .values({
        key: sql.placeholder("key"),
        points: 1,
        expiresAt: sql`now() + make_interval(secs => ${sql.placeholder("seconds")})`,
      })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          points: sql`case when ${ended} then 1 else ${rateLimits.points} + 1 end`,
          expiresAt: sql`case when ${ended} then excluded.expires_at else ${rateLimits.expiresAt} end`,
        },
      })
      .returning({
        spent: rateLimits.points,
        msLeft: sql<number>`(extract(epoch from ${rateLimits.expiresAt} - now()) * 1000)::float8`,
      })
      .prepare("rate_limit_spend");
  });

/** Makes sure no two limits share a name, and so their counters in the database. */
function uniquelyNamed(counters: LimitStore["counters"]): LimitStore {
  const names = new Set<string>();
  return {
    counters(name, points, seconds) {
      if (names.has(name)) throw new Error(`Two rate limits are named ${name}`);
      names.add(name);
      return counters(name, points, seconds);
    },
  };
}

/** Forgets the database's counters whose window has ended; returns how many. */
export async function deleteEndedRateLimits(db: Executor): Promise<number> {
  const [row] = rowsOf<{ count: number }>(
    await db.execute(sql`
      with ended as (delete from ${rateLimits} where expires_at <= now() returning 1)
      select count(*)::int as count from ended`),
  );
  return row?.count ?? 0;
}
