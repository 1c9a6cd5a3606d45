// Views, counted as the beacon's route counts them: once per visitor, prism and day, and what is
// kept of them: counts, and today's keys under today's salt only.
import { getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Participant } from "../actors.ts";
import {
  pageReaders,
  prismViewAddresses,
  prismViewKeys,
  prismViews,
  viewSalts,
} from "../db/schema.ts";
import { utcDay } from "../features/resonance/service.ts";
import { buildPrism, buildUser } from "../test/builders.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { run } from "../test/write.ts";
import * as commands from "./resonance.ts";

const t = setupTestDatabase();

/** The prisms `viewer` was shown, counted as the beacon's route counts them, on the day of `now`. */
const countViews = (viewer: Participant, address: string, prismIds: number[], now: Date) =>
  run(t.database, viewer, (write) => commands.countViews(write, address, prismIds, now));

async function ownPrism() {
  const owner = await buildUser(t.database);
  return { owner, prism: await buildPrism(t.database, { userId: owner.id }) };
}

describe("countViews", () => {
  it("counts a visitor once per prism and day, never the owner's own, and announces nothing", async () => {
    const { owner, prism } = await ownPrism();
    const now = new Date();
    const first = await countViews({ visitorHash: "a-reader" }, "10.0.0.2", [prism.id], now);
    expect(first).toEqual({ result: 1, events: [] });
    expect(
      (await countViews({ visitorHash: "a-reader" }, "10.0.0.2", [prism.id], now)).result,
    ).toBe(0);
    expect((await countViews({ user: owner }, "10.0.0.2", [prism.id], now)).result).toBe(0);
  });

  it("keep no address, user agent or visitor: counts, and today's keys under today's salt only", async () => {
    const { prism } = await ownPrism();
    const visitor = { visitorHash: "a-visitor" };
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
    const dayAfter = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
    expect((await countViews(visitor, "10.0.0.1", [prism.id], tomorrow)).result).toBe(1);
    expect((await countViews(visitor, "10.0.0.1", [prism.id], tomorrow)).result).toBe(0);
    // A new day: the same visitor counts again, and the days before lose their salts and keys.
    expect((await countViews(visitor, "10.0.0.1", [prism.id], dayAfter)).result).toBe(1);
    expect(await t.database.db.select({ day: viewSalts.day }).from(viewSalts)).toEqual([
      { day: utcDay(dayAfter) },
    ]);
    // Two keys: the visitor's read of the prism, and of its owner's page.
    const keys = await t.database.db.select().from(prismViewKeys);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(["day", "key"]);
      // A digest (SHA-256 in base64url) of who and which prism or page, never either of them: an
      // id is a few digits, which a digest of letters and digits holds now and then by chance.
      expect(key.key).toMatch(/^[\w-]{43}$/);
      expect(key.key).not.toContain("a-visitor");
      expect(key.key).not.toContain(`browser:a-visitor:${prism.id}`);
      expect(key.key).not.toContain(`browser:a-visitor:page:${prism.userId}`);
    }
    // The address's count of the day goes with the day too, kept under a key of the same kind.
    const addresses = await t.database.db.select().from(prismViewAddresses);
    expect(addresses).toEqual([{ key: expect.any(String), day: utcDay(dayAfter), count: 1 }]);
    expect(addresses[0]?.key).not.toContain("10.0.0.1");
    expect(Object.keys(getTableColumns(prismViews)).sort()).toEqual([
      "count",
      "day",
      "id",
      "prismId",
    ]);
    expect(Object.keys(getTableColumns(pageReaders)).sort()).toEqual([
      "count",
      "day",
      "id",
      "userId",
    ]);
  });
});
