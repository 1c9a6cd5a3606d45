// Prism's message queue for Fedify, on Prism's own database, passes Fedify's own tests of a
// message queue (@fedify/testing's `testMessageQueue`): messages arrive, delayed ones after their
// delay, in bulk, and each to one of two listeners only.
import { testMessageQueue } from "@fedify/testing";
import { describe, expect, it } from "vitest";
import { federationQueue } from "../../db/schema.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { DbMessageQueue } from "./message-queue.ts";

const t = setupTestDatabase();
const timing = { pollMs: 50, leaseMs: 60_000 };

describe("the federation queue", () => {
  it("passes Fedify's tests of a message queue", { timeout: 60_000 }, async () => {
    await testMessageQueue(
      () => new DbMessageQueue(t.database.db, timing),
      ({ controller }) => controller.abort(),
    );
    // Every message handled was deleted.
    expect(await t.database.db.select().from(federationQueue)).toEqual([]);
  });

  it("gives a message whose taker stopped to another listener once its lease is over", async () => {
    const db = t.database.db;
    const stopped = new DbMessageQueue(db, { pollMs: 50, leaseMs: 300 });
    await stopped.enqueue({ n: 1 });
    const abandoned = new AbortController();
    // The first listener takes the message and never finishes it.
    void stopped.listen(() => new Promise<void>(() => abandoned.abort()), {
      signal: abandoned.signal,
    });
    const seen: unknown[] = [];
    const controller = new AbortController();
    const other = new DbMessageQueue(db, { pollMs: 50, leaseMs: 300 });
    const listening = other.listen((message) => void seen.push(message), {
      signal: controller.signal,
    });
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([{ n: 1 }]);
    controller.abort();
    await listening;
  });
});
