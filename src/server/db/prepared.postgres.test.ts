// A statement written once in SQL (`preparedSql`): built on first use, then only its values sent,
// on either engine, and still answering once its database's connection was made afresh.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "../test/helpers.ts";
import { param, preparedSql } from "./prepared.ts";

const t = setupTestDatabase();

describe("preparedSql", () => {
  it("writes the statement once and answers each call with that call's values", async () => {
    let writes = 0;
    const statement = () =>
      preparedSql<{ doubled: number; said: string }>(t.database.db, "doubled_test", () => {
        writes += 1;
        return sql`select ${param("n", "int")} * 2 as doubled, ${param("word", "text")} as said`;
      });
    const sent: string[] = [];
    const stop = t.database.watchQueries((query) => sent.push(query));
    try {
      expect(await statement().execute({ n: 2, word: "two" })).toEqual([
        { doubled: 4, said: "two" },
      ]);
      expect(await statement().execute({ n: 21, word: "many" })).toEqual([
        { doubled: 42, said: "many" },
      ]);
    } finally {
      stop();
    }
    expect(writes).toBe(1);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[0]).not.toMatch(/two|many/);
  });

  it("answers through the fresh connection of a recycled database", async () => {
    const statement = () =>
      preparedSql<{ n: number }>(
        t.database.db,
        "recycled_test",
        () => sql`select ${param("n", "int")} as n`,
      );
    expect(await statement().execute({ n: 1 })).toEqual([{ n: 1 }]);
    await t.database.recycle();
    expect(await statement().execute({ n: 2 })).toEqual([{ n: 2 }]);
  });
});
