// A write that fails partway, for tests that check a workflow changes all or nothing: a trigger
// on one table makes the database refuse that kind of write until the test ends.
import { sql } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import type { Database } from "../db/client.ts";

const REFUSED = "refused for this test";

/** Until the current test ends, every `operation` of a row of `table` fails with REFUSED. */
export async function refuseWrites(
  database: Database,
  table: string,
  operation: "insert" | "update" | "delete",
): Promise<void> {
  const name = `refuse_${operation}_${table}`;
  const { db } = database;
  await db.execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin raise exception '${REFUSED}'; end $$`),
  );
  await db.execute(
    sql.raw(`create trigger ${name} before ${operation} on ${table}
      for each row execute function ${name}()`),
  );
  onTestFinished(async () => {
    await db.execute(sql.raw(`drop trigger ${name} on ${table}`));
    await db.execute(sql.raw(`drop function ${name}()`));
  });
}

/** Expects the work to fail on the refused write (Drizzle reports it as its error's cause). */
export async function expectRefused(work: Promise<unknown>): Promise<void> {
  await expect(work).rejects.toMatchObject({ cause: { message: REFUSED } });
}

/**
 * Until the current test ends, changes to members and sessions send no notice to the session
 * caches (migration 0011's triggers are off), as if every notice were still on its way: what a
 * cache forgets meanwhile, it learned from this process alone.
 */
export async function holdSessionNotices(database: Database): Promise<void> {
  const triggers = [
    ["users", "users_forget_sessions"],
    ["users", "users_deleted_forget_sessions"],
    ["sessions", "sessions_forget"],
    ["sessions", "sessions_deleted_forget"],
  ];
  const { db } = database;
  for (const [table, trigger] of triggers) {
    await db.execute(sql.raw(`alter table ${table} disable trigger ${trigger}`));
  }
  onTestFinished(async () => {
    for (const [table, trigger] of triggers) {
      await db.execute(sql.raw(`alter table ${table} enable trigger ${trigger}`));
    }
  });
}
