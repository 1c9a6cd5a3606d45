// Hearting a prism, called as the route calls it, on a real event bus: the toggle and its exact
// count, the owner told once per actor, the events here and on another instance, all or nothing.
import { and, eq } from "drizzle-orm";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { PrismEvent } from "../../contract/events.ts";
import type { Participant } from "../actors.ts";
import { notifications, prismHearts, prisms, type users } from "../db/schema.ts";
import { EventBus } from "../live/bus.ts";
import { buildPrism, buildUser } from "../test/builders.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { heartPrism } from "./hearts.ts";

const t = setupTestDatabase();

let visitors = 0;
const visitor = (): Participant => ({ visitorHash: `hearting-visitor-${++visitors}` });

/**
 * This instance's bus and the events its listeners hear, and what another instance on the same
 * database hears (through NOTIFY).
 */
async function buses() {
  const here = new EventBus(t.database);
  const elsewhere = new EventBus(t.database);
  await elsewhere.start();
  onTestFinished(() => elsewhere.stop());
  const heard = { here: [] as PrismEvent[], elsewhere: [] as PrismEvent[] };
  here.subscribe((event) => heard.here.push(event));
  elsewhere.subscribe((event) => heard.elsewhere.push(event));
  return { bus: here, heard };
}

async function ownPrism(ownerFields: Partial<typeof users.$inferInsert> = {}) {
  const owner = await buildUser(t.database, ownerFields);
  return { owner, prism: await buildPrism(t.database, { userId: owner.id }) };
}

async function stateOf(prismId: number) {
  const { db } = t.database;
  const [prism] = await db.select().from(prisms).where(eq(prisms.id, prismId));
  return {
    heartsCount: prism?.heartsCount,
    hearts: await db.select().from(prismHearts).where(eq(prismHearts.prismId, prismId)),
    notifications: await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.prismId, prismId), eq(notifications.type, "heart"))),
  };
}

describe("heartPrism", () => {
  it("flips a visitor's heart and a member's apart, counting each", async () => {
    const { bus } = await buses();
    const { prism } = await ownPrism();
    const member = await buildUser(t.database);
    const someone = visitor();
    const heart = (participant: Participant) =>
      heartPrism({ db: t.database.db, bus, actor: participant }, prism.id);
    expect(await heart(someone)).toEqual({ hearted: true, heartsCount: 1 });
    expect(await heart({ user: member })).toEqual({ hearted: true, heartsCount: 2 });
    expect(await heart(someone)).toEqual({ hearted: false, heartsCount: 1 });
    const { hearts, heartsCount } = await stateOf(prism.id);
    expect(heartsCount).toBe(1);
    expect(hearts).toEqual([
      expect.objectContaining({ prismId: prism.id, userId: member.id, visitorHash: null }),
    ]);
  });

  it("tells the owner once per actor and prism, by name for a member, never of their own heart", async () => {
    const { bus, heard } = await buses();
    const { owner, prism } = await ownPrism();
    const fan = await buildUser(t.database, { displayName: "A Fan" });
    const someone = visitor();
    const heart = (participant: Participant) =>
      heartPrism({ db: t.database.db, bus, actor: participant }, prism.id);
    await heart({ user: fan });
    await heart({ user: fan });
    await heart({ user: fan });
    await heart(someone);
    await heart({ user: owner });

    const told = (await stateOf(prism.id)).notifications;
    expect(told.map((n) => [n.userId, n.actorName, n.actorKey])).toEqual(
      expect.arrayContaining([
        [owner.id, "A Fan", `user:${fan.id}`],
        [owner.id, null, `visitor:${"visitorHash" in someone ? someone.visitorHash : ""}`],
      ]),
    );
    expect(told).toHaveLength(2);
    // One line, unread, headed by the newest heart, counting both.
    expect(told.filter((n) => n.lineHead).map((n) => [n.actorKey, n.actorCount, n.read])).toEqual([
      [`visitor:${"visitorHash" in someone ? someone.visitorHash : ""}`, 2, false],
    ]);
    const created = heard.here.filter((event) => event.type === "notification.created");
    expect(created).toEqual([
      { type: "notification.created", userId: owner.id },
      { type: "notification.created", userId: owner.id },
    ]);
  });

  it("announces the count and the notification here at once, and on other instances as it commits", async () => {
    const { bus, heard } = await buses();
    const { owner, prism } = await ownPrism();
    const fan = await buildUser(t.database);
    await heartPrism({ db: t.database.db, bus, actor: { user: fan } }, prism.id);
    const first: PrismEvent[] = [
      { type: "heart.changed", prismId: prism.id, heartsCount: 1, username: owner.username },
      { type: "notification.created", userId: owner.id },
    ];
    expect(heard.here).toEqual(first);
    // Un-hearting tells nobody anything new: the count alone.
    await heartPrism({ db: t.database.db, bus, actor: { user: fan } }, prism.id);
    const second: PrismEvent = {
      type: "heart.changed",
      prismId: prism.id,
      heartsCount: 0,
      username: owner.username,
    };
    expect(heard.here).toEqual([...first, second]);
    await vi.waitFor(() => expect(heard.elsewhere).toEqual([...first, second]), {
      timeout: 10_000,
    });
  });

  it("answers 404 for a missing prism and for a deactivated member's, announcing nothing", async () => {
    const { bus, heard } = await buses();
    const { prism } = await ownPrism({ deactivatedAt: new Date() });
    for (const prismId of [prism.id, 2 ** 31 - 1]) {
      await expect(
        heartPrism({ db: t.database.db, bus, actor: visitor() }, prismId),
      ).rejects.toMatchObject({
        statusCode: 404,
        message: "Prism not found",
      });
    }
    const { heartsCount, hearts } = await stateOf(prism.id);
    expect({ heartsCount, hearts }).toEqual({ heartsCount: 0, hearts: [] });
    expect(heard.here).toEqual([]);
  });

  it("keeps the count exact under concurrent toggles", async () => {
    const { bus } = await buses();
    const { prism } = await ownPrism();
    const participants = Array.from({ length: 20 }, visitor);
    const heartAll = (list: Participant[]) =>
      Promise.all(list.map((p) => heartPrism({ db: t.database.db, bus, actor: p }, prism.id)));
    await heartAll(participants);
    expect((await stateOf(prism.id)).heartsCount).toBe(20);
    await heartAll(participants.filter((_, i) => i % 2 === 0));
    const { heartsCount, hearts } = await stateOf(prism.id);
    expect(heartsCount).toBe(10);
    expect(hearts).toHaveLength(10);
  });

  it("adds no heart, counts nothing and announces nothing when the notification cannot be written", async () => {
    const { bus, heard } = await buses();
    const { owner, prism } = await ownPrism();
    // The owner's own heart, which tells nobody: it goes through.
    await heartPrism({ db: t.database.db, bus, actor: { user: owner } }, prism.id);
    const before = await stateOf(prism.id);
    await refuseWrites(t.database, "notifications", "insert");
    await expectRefused(heartPrism({ db: t.database.db, bus, actor: visitor() }, prism.id));
    expect(await stateOf(prism.id)).toEqual(before);
    await heartPrism({ db: t.database.db, bus, actor: { user: owner } }, prism.id);

    const counts = (events: PrismEvent[]) =>
      events.map((event) => (event.type === "heart.changed" ? event.heartsCount : event.type));
    expect(counts(heard.here)).toEqual([1, 0]);
    // Other instances hear what committed, in order: the refused heart (a count of 2) never.
    await vi.waitFor(() => expect(counts(heard.elsewhere)).toEqual([1, 0]), { timeout: 10_000 });
  });
});
