// Explore's lists without HTTP: who is shown, in which order, and the flags the database keeps
// for them (a member has prisms, an author is active) following every change.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { prisms, users } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { listExplorePrisms, listExploreUsers } from "./service.ts";

const t = setupTestDatabase();

const page = { limit: 50, offset: 0 };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** The listed members among `ids`, in the list's order. */
async function membersAmong(ids: number[]) {
  const rows = await listExploreUsers(t.database.db, page);
  return rows.filter((row) => ids.includes(row.user.id));
}

async function prismsAmong(ids: number[]) {
  const rows = await listExplorePrisms(t.database.db, page);
  return rows.map((row) => row.prism.id).filter((id) => ids.includes(id));
}

describe("listExploreUsers", () => {
  it("shows active members with prisms, most recently active first, never active last, each with the prism at the top of their page", async () => {
    const earlier = await buildUser(t.database, { lastActiveAt: minutesAgo(30) });
    const latest = await buildUser(t.database, { lastActiveAt: minutesAgo(1) });
    const never = await buildUser(t.database, { lastActiveAt: null });
    const neverLater = await buildUser(t.database, { lastActiveAt: null });
    const empty = await buildUser(t.database, { lastActiveAt: new Date() });
    const gone = await buildUser(t.database, {
      lastActiveAt: new Date(),
      deactivatedAt: new Date(),
    });
    await buildPrism(t.database, { userId: earlier.id, index: 1, title: "Second" });
    await buildPrism(t.database, { userId: earlier.id, index: 0, title: "Top" });
    for (const member of [latest, never, neverLater, gone]) {
      await buildPrism(t.database, { userId: member.id });
    }
    const ids = [earlier, latest, never, neverLater, empty, gone].map((member) => member.id);
    const listed = await membersAmong(ids);
    expect(listed.map((row) => row.user.id)).toEqual([
      latest.id,
      earlier.id,
      neverLater.id,
      never.id,
    ]);
    expect(listed[1]?.firstPrism.title).toBe("Top");
    expect(Object.keys(listed[0]?.user ?? {}).sort()).toEqual([
      "displayName",
      "firstName",
      "id",
      "lastName",
      "profileImageUrl",
      "username",
    ]);
  });

  it("follows a member's last prism going and a deactivation coming and going", async () => {
    const member = await buildUser(t.database, { lastActiveAt: new Date() });
    const prism = await buildPrism(t.database, { userId: member.id });
    expect(await membersAmong([member.id])).toHaveLength(1);
    await t.database.db.delete(prisms).where(eq(prisms.id, prism.id));
    expect(await membersAmong([member.id])).toEqual([]);
    await buildPrism(t.database, { userId: member.id });
    const setDeactivated = (deactivatedAt: Date | null) =>
      t.database.db.update(users).set({ deactivatedAt }).where(eq(users.id, member.id));
    await setDeactivated(new Date());
    expect(await membersAmong([member.id])).toEqual([]);
    await setDeactivated(null);
    expect(await membersAmong([member.id])).toHaveLength(1);
  });
});

describe("listExplorePrisms", () => {
  it("lists active authors' prisms by hearts, then newest, then newest id", async () => {
    const author = await buildUser(t.database);
    const gone = await buildUser(t.database, { deactivatedAt: new Date() });
    const at = minutesAgo(42);
    let index = 0;
    const prism = (heartsCount: number, createdAt: Date, userId = author.id) =>
      buildPrism(t.database, { userId, heartsCount, createdAt, index: index++ });
    const top = await prism(9, minutesAgo(120));
    const oldFavourite = await prism(5, minutesAgo(60));
    const newFavourite = await prism(5, minutesAgo(10));
    const tiedFirst = await prism(0, at);
    const tiedSecond = await prism(0, at);
    const hidden = await prism(1000, new Date(), gone.id);
    const ids = [top, oldFavourite, newFavourite, tiedFirst, tiedSecond, hidden].map((p) => p.id);
    expect(await prismsAmong(ids)).toEqual([
      top.id,
      newFavourite.id,
      oldFavourite.id,
      tiedSecond.id,
      tiedFirst.id,
    ]);
    await t.database.db.update(users).set({ deactivatedAt: null }).where(eq(users.id, gone.id));
    expect((await prismsAmong(ids))[0]).toBe(hidden.id);
  });
});
