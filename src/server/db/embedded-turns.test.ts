// The embedded database leaves the server's other work its turn: PGlite answers a query without
// waiting on the network, so a chain of queries (a command's transaction, the inbox's reads and
// writes) would otherwise run from start to end in one turn of the event loop, every request
// that arrived meanwhile, and every timer, waiting behind it. Each query starts on a turn of its
// own, in a transaction too, and so do queries asked for at once (the inbox's, the queue's and a
// page's): never two in one turn. (PGlite alone: this file is not one the PostgreSQL run takes.)
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "../test/helpers.ts";
import type { Executor } from "./client.ts";

const t = setupTestDatabase();

const QUERIES = 5;

/** Runs `QUERIES` queries one after the other, noting each and every turn of the loop between. */
async function chainOfQueries(executor: Executor) {
  const turns: string[] = [];
  let done = 0;
  let chaining = true;
  const loopTurn = () => {
    turns.push(`loop after ${done}`);
    if (chaining) setImmediate(loopTurn);
  };
  setImmediate(loopTurn);
  for (let n = 1; n <= QUERIES; n += 1) {
    await executor.execute(sql`select ${n}::int as n`);
    done = n;
    turns.push(`query ${n}`);
  }
  chaining = false;
  return turns;
}

/** Every query but the first has a turn of the loop just before it. */
function expectTurnsBetween(turns: string[]) {
  for (let n = 2; n <= QUERIES; n += 1) {
    const at = turns.indexOf(`query ${n}`);
    expect(turns[at - 1], `before query ${n}`).toBe(`loop after ${n - 1}`);
  }
}

describe("the embedded database's queries", () => {
  it("let the event loop run between two queries", async () => {
    expectTurnsBetween(await chainOfQueries(t.database.db));
  });

  it("let the event loop run between two queries of a transaction", async () => {
    const turns = await t.database.db.transaction((tx) => chainOfQueries(tx));
    expectTurnsBetween(turns);
  });

  it("asked for at once, run on turns of their own, the loop turning between every two", async () => {
    const turns: string[] = [];
    let asking = true;
    const loopTurn = () => {
      turns.push("loop");
      if (asking) setImmediate(loopTurn);
    };
    setImmediate(loopTurn);
    await Promise.all(
      Array.from({ length: QUERIES }, async (_, n) => {
        await t.database.db.execute(sql`select ${n}::int as n`);
        turns.push("query");
      }),
    );
    asking = false;
    expect(turns.filter((turn) => turn === "query")).toHaveLength(QUERIES);
    expect(turns.join(" ")).not.toContain("query query");
  });
});
