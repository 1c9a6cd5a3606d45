// Prism's message queue leaves the server's other work its turn: between two messages its
// listener lets the event loop run (on PGlite a query never waits on the network, so without that
// a queue full of replies would hold the loop until it was empty, and every page read with it);
// and a message handled is deleted by the statement that takes the next, one statement a message.
import { describe, expect, it } from "vitest";
import { federationQueue } from "../../db/schema.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { DbMessageQueue } from "./message-queue.ts";

const t = setupTestDatabase();

describe("the federation queue's listener", () => {
  it("lets the event loop run between two messages", async () => {
    const queue = new DbMessageQueue(t.database.db, { pollMs: 50, leaseMs: 60_000 });
    await queue.enqueueMany([1, 2, 3, 4, 5, 6]);
    const turns: string[] = [];
    let handled = 0;
    const controller = new AbortController();
    // A turn of the event loop's check phase, asked for again each time it comes.
    const loopTurn = () => {
      turns.push(`loop after ${handled}`);
      if (!controller.signal.aborted) setImmediate(loopTurn);
    };
    setImmediate(loopTurn);
    const listening = queue.listen(
      () => {
        handled += 1;
        turns.push(`message ${handled}`);
        if (handled === 6) controller.abort();
      },
      { signal: controller.signal },
    );
    await expect.poll(() => handled, { timeout: 5000 }).toBe(6);
    await listening;
    const messages = turns.filter((turn) => turn.startsWith("message"));
    expect(messages).toHaveLength(6);
    // Every message but the first has a turn of the loop before it.
    for (let n = 2; n <= 6; n += 1) {
      const at = turns.indexOf(`message ${n}`);
      expect(turns[at - 1], `before message ${n}`).toBe(`loop after ${n - 1}`);
    }
  });

  it("deletes a message handled as it takes the next, one statement a message", async () => {
    const queue = new DbMessageQueue(t.database.db, { pollMs: 60_000, leaseMs: 60_000 });
    await queue.enqueueMany(["a", "b", "c"]);
    const statements: string[] = [];
    const stop = t.database.watchQueries((query) =>
      statements.push(query.trim().split(/\s/)[0] ?? ""),
    );
    const controller = new AbortController();
    const seen: unknown[] = [];
    await queue.listen(
      (message) => {
        seen.push(message);
        if (seen.length === 3) controller.abort();
      },
      { signal: controller.signal },
    );
    stop();
    expect(seen).toEqual(["a", "b", "c"]);
    // The first take, two that delete the message before, and the last message's delete.
    expect(statements).toEqual(["update", "with", "with", "delete"]);
    expect(await t.database.db.select().from(federationQueue)).toEqual([]);
  });
});
