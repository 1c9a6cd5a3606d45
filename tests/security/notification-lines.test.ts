// A popular member's notifications cost what a quiet member's do: a line of 10, 1,000 or 10,000
// named hearts is listed and marked read by the same work in the database, whether its statistics
// are fresh or stale, and one member cannot keep the database busy reading and marking.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notificationMessages } from "../../src/contract/notifications.ts";
import { type Executor, rowsOf } from "../../src/server/db/client.ts";
import type { UserRow } from "../../src/server/db/schema.ts";
import {
  forgetNotificationsBy,
  listNotifications,
  markNotificationRead,
} from "../../src/server/features/notifications/service.ts";
import { buildNotification, buildPrism, buildUser } from "../../src/server/test/builders.ts";
import { send, setupTestApp, signIn } from "../../src/server/test/helpers.ts";

const t = setupTestApp();

/**
 * Rows a plan may read besides: on a table this small, the planner may rightly walk every line's
 * head of every member (a few dozen) rather than one prism's, which it never does at scale.
 */
const SLACK = 64;

/** A member whose prism has `hearts` named hearts, and three responses besides. */
async function popular(hearts: number) {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  for (let i = 0; i < 3; i++) {
    await buildNotification(t.database, {
      userId: owner.id,
      prismId: prism.id,
      type: "annotation",
    });
  }
  await t.database.db.execute(sql`
    insert into notifications (user_id, prism_id, type, actor_name, actor_key)
    select ${owner.id}::int, ${prism.id}::int, 'heart', 'Reader ' || n, 'visitor:line-${sql.raw(String(prism.id))}-' || n
    from generate_series(1, ${hearts}::int) as n`);
  return owner;
}

/**
 * The rows the database read and wrote of the notifications (its heap and its indexes) while
 * `work` ran, as the database counts them for the transaction it runs in.
 */
async function rowsTouched(work: (tx: Executor) => Promise<unknown>): Promise<number> {
  const counted = async (tx: Executor) => {
    const [row] = rowsOf<{ rows: string }>(
      await tx.execute(sql`
        select (
          (select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0) + n_tup_upd), 0)
            from pg_stat_xact_user_tables where relname = 'notifications')
          + (select coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0)
            from pg_index where indrelid = 'notifications'::regclass)
        )::text as rows`),
    );
    return Number(row?.rows);
  };
  let touched = 0;
  await t.database.db
    .transaction(async (tx) => {
      const before = await counted(tx);
      await work(tx);
      touched = (await counted(tx)) - before;
      // Leaves the line as it was, for the next measure.
      tx.rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error && error.message === "Rollback")) throw error;
    });
  return touched;
}

/**
 * What the work costs on a vacuumed table (as autovacuum keeps PostgreSQL's): vacuum takes away
 * what earlier writes left behind, and leaves the column statistics as they were.
 */
async function steadyCost(work: (tx: Executor) => Promise<unknown>) {
  await t.database.db.execute(sql`vacuum notifications`);
  return rowsTouched(work);
}

/** What listing the first page and marking the heart line read cost the member. */
async function costs(owner: UserRow, measure = steadyCost) {
  const list = await measure((tx) => listNotifications(tx, owner, { limit: 10, offset: 0 }));
  const [line] = (await listNotifications(t.database.db, owner, { limit: 10, offset: 0 })).filter(
    (notification) => notification.type === "heart",
  );
  if (!line) throw new Error("no heart line");
  const mark = await measure((tx) =>
    markNotificationRead(tx as typeof t.database.db, owner.id, line.id),
  );
  return { list, mark, line };
}

describe("a line of many hearts", () => {
  it("is listed and marked read by the same work at 10, 1,000 and 10,000 hearts, on stale and fresh statistics", async () => {
    await t.database.db.execute(
      sql`alter table notifications set (autovacuum_enabled = false, toast.autovacuum_enabled = false)`,
    );
    const quiet = await popular(10);
    // Statistics taken now know of ten hearts: stale once thousands more come.
    await t.database.db.execute(sql`analyze notifications`);
    const known = await popular(1_000);
    const famous = await popular(10_000);

    // Each heart leaves the index entries of the head it replaced until the table is vacuumed: the
    // first read after a burst steps over them and marks them gone, and the index drops the rest
    // a page at a time, so that they cost a bounded amount, however many hearts came.
    const afterOneRead = async (work: (tx: Executor) => Promise<unknown>) => {
      await rowsTouched(work);
      return rowsTouched(work);
    };
    const [churned, churnedMore] = [
      await costs(known, afterOneRead),
      await costs(famous, afterOneRead),
    ];
    expect(churnedMore.list).toBeLessThanOrEqual(2 * churned.list);
    expect(churnedMore.mark).toBeLessThanOrEqual(2 * churned.mark);

    for (const statistics of ["stale", "fresh"]) {
      if (statistics === "fresh") await t.database.db.execute(sql`analyze notifications`);
      const base = await costs(quiet);
      expect(base.line).toMatchObject({ actorCount: 10, read: false });
      for (const [owner, hearts] of [
        [known, 1_000],
        [famous, 10_000],
      ] as const) {
        const cost = await costs(owner);
        expect(cost.line, `${hearts} hearts`).toMatchObject({
          actorCount: hearts,
          actors: [`Reader ${hearts}`, `Reader ${hearts - 1}`, `Reader ${hearts - 2}`],
          read: false,
        });
        expect(cost.list, `list, ${hearts} hearts, ${statistics} statistics`).toBeLessThanOrEqual(
          2 * base.list + SLACK,
        );
        expect(
          cost.mark,
          `mark read, ${hearts} hearts, ${statistics} statistics`,
        ).toBeLessThanOrEqual(2 * base.mark + SLACK);
      }
    }
  }, 90_000);

  it("marks the line read and answers it read, counted once", async () => {
    const owner = await popular(1_000);
    const headers = await signIn(t.database, owner);
    const unread = async () =>
      (await send(t.app, "GET", "/api/notifications/unread-count", { headers })).json();
    expect(await unread()).toEqual({ count: 4 });
    const [line] = (await send(t.app, "GET", "/api/notifications", { headers }))
      .json()
      .filter((notification: { type: string }) => notification.type === "heart");
    const marked = await send(t.app, "POST", `/api/notifications/${line.id}/read`, { headers });
    expect(marked.json()).toMatchObject({ id: line.id, actorCount: 1_000, read: true });
    expect(await unread()).toEqual({ count: 3 });
  });
});

describe("a heart line losing hearts", () => {
  it("counts and names what remains when an actor's account goes, head or not", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const fans = [];
    for (const name of ["Ann", "Ben", "Cat", "Dan"]) {
      const fan = await buildUser(t.database, { displayName: name });
      fans.push(fan);
      await buildNotification(t.database, {
        userId: owner.id,
        prismId: prism.id,
        actorName: name,
        actorKey: `user:${fan.id}`,
      });
    }
    const line = async () => {
      const lines = await listNotifications(t.database.db, owner, { limit: 10, offset: 0 });
      return lines.map((l) => [l.actorCount, l.actors, l.read]);
    };
    expect(await line()).toEqual([[4, ["Dan", "Cat", "Ben"], false]]);
    const [ann, , , dan] = fans;
    // The head goes: the newest that remains heads the line, still unread.
    await forgetNotificationsBy(t.database.db, dan?.id ?? 0);
    expect(await line()).toEqual([[3, ["Cat", "Ben", "Ann"], false]]);
    const [head] = await listNotifications(t.database.db, owner, { limit: 1, offset: 0 });
    await markNotificationRead(t.database.db, owner.id, head?.id ?? 0);
    // Another goes: the line keeps its head and its read state.
    await forgetNotificationsBy(t.database.db, ann?.id ?? 0);
    expect(await line()).toEqual([[2, ["Cat", "Ben"], true]]);
  });
});

describe("reading and marking notifications", () => {
  it("is limited to 120 a minute per member, lists, marks and deletes alike", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const note = await buildNotification(t.database, { userId: owner.id, prismId: prism.id });
    const headers = await signIn(t.database, owner);
    const calls = [
      () => send(t.app, "GET", "/api/notifications", { headers }),
      () => send(t.app, "POST", `/api/notifications/${note.id}/read`, { headers }),
      () => send(t.app, "POST", "/api/notifications/read-all", { headers }),
    ];
    for (let i = 0; i < 120; i++) {
      const answer = await calls[i % calls.length]?.();
      expect(answer?.statusCode, `call ${i + 1}`).toBe(200);
    }
    for (const call of calls) {
      const limited = await call();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: notificationMessages.tooMany });
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    }
    const removed = await send(t.app, "DELETE", `/api/notifications/${note.id}`, { headers });
    expect(removed.statusCode).toBe(429);
    // The unread count, which every page polls, is not spent from it.
    expect(
      (await send(t.app, "GET", "/api/notifications/unread-count", { headers })).statusCode,
    ).toBe(200);
    // Another member keeps their own allowance.
    const other = await buildUser(t.database);
    const theirs = await signIn(t.database, other);
    expect((await send(t.app, "GET", "/api/notifications", { headers: theirs })).statusCode).toBe(
      200,
    );
  });
});
