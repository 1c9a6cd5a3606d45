// Resonance through the API: who sees a prism's map, what it counts, the top passage readers see,
// views counted once per visitor and day (what is kept of them: commands/resonance.test.ts), and
// the owner's week.
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { RESONANCE_DAYS } from "../../../contract/resonance.ts";
import { pageReaders, prisms, prismViews } from "../../db/schema.ts";
import { buildAnnotation, buildHeart, buildPrism, buildUser } from "../../test/builders.ts";
import { respondToQuote, send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";
import { settleTopPassages, utcDay } from "./service.ts";

const t = setupTestApp();

const CONTENT =
  "<p>I answer messages in batches.</p><p>Mornings are for deep work, afternoons for people.</p>";
const READER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

async function ownPrism() {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
  return { owner, prism, headers: await signIn(t.database, owner) };
}

const resonance = (id: number, headers: Record<string, string> = {}) =>
  send(t.app, "GET", `/api/prisms/${id}/resonance`, { headers });
const listed = async (username: string) =>
  (await send(t.app, "GET", `/api/prisms/${username}`)).json()[0].topPassage;
const decide = (id: number, status: string, headers: Record<string, string>) =>
  send(t.app, "PUT", `/api/annotations/${id}/status`, { headers, payload: { status } });
const beacon = (prismIds: number[], headers: Record<string, string> = {}) =>
  send(t.app, "POST", "/api/prisms/views", {
    headers: { "user-agent": READER, ...headers },
    payload: { prismIds },
  });

/** A new member's response to `quote`, approved by the owner; answers its id. */
async function approvedResponse(prismId: number, quote: string, owner: Record<string, string>) {
  const author = await signIn(t.database, await buildUser(t.database));
  const response = await respondToQuote(t.app, prismId, CONTENT, quote, author);
  expect(response.statusCode).toBe(201);
  expect((await decide(response.json().id, "approved", owner)).statusCode).toBe(200);
  return response.json().id as number;
}

describe("a prism's resonance map", () => {
  it("is its owner's and admins': 403 for other members, 401 signed out, 404 for no prism", async () => {
    const { prism, headers } = await ownPrism();
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    const member = await signIn(t.database, await buildUser(t.database));
    expect((await resonance(prism.id, headers)).statusCode).toBe(200);
    expect((await resonance(prism.id, admin)).statusCode).toBe(200);
    const refused = await resonance(prism.id, member);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Only the prism's owner can see its resonance");
    expect((await resonance(prism.id)).statusCode).toBe(401);
    expect((await resonance(2 ** 31 - 1, headers)).statusCode).toBe(404);
    expect((await resonance(prism.id, headers)).headers["cache-control"]).toBe("private, no-store");
  });

  it("counts approved and pending responses over each stretch, and hearts and views by day over 30 days", async () => {
    const { owner, prism, headers } = await ownPrism();
    // "I answer messages in batches." is 0–30; "messages in batches" 9–28.
    await buildAnnotation(t.database, { prismId: prism.id, selectionStart: 0, selectionEnd: 8 });
    await buildAnnotation(t.database, {
      prismId: prism.id,
      selectionStart: 2,
      selectionEnd: 28,
      status: "approved",
    });
    await buildAnnotation(t.database, { prismId: prism.id, selectionStart: 9, selectionEnd: 28 });
    await buildAnnotation(t.database, {
      prismId: prism.id,
      selectionStart: 0,
      selectionEnd: 30,
      status: "rejected",
    });
    await buildAnnotation(t.database, {
      prismId: prism.id,
      selectionStart: 0,
      selectionEnd: 30,
      orphaned: true,
    });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await buildHeart(t.database, { prismId: prism.id });
    await buildHeart(t.database, { prismId: prism.id, createdAt: twoDaysAgo });
    await buildHeart(t.database, { prismId: prism.id, createdAt: new Date("2020-01-01") });
    // The owner's own heart moves nobody.
    await buildHeart(t.database, { prismId: prism.id, userId: owner.id });
    expect((await beacon([prism.id], { cookie: visitorCookie("a-reader") })).statusCode).toBe(204);

    const map = (await resonance(prism.id, headers)).json();
    expect(map.segments).toEqual([
      { start: 0, end: 2, count: 1 },
      { start: 2, end: 8, count: 2 },
      { start: 8, end: 9, count: 1 },
      { start: 9, end: 28, count: 2 },
    ]);
    expect(map.hearts).toHaveLength(RESONANCE_DAYS);
    expect(map.hearts[0].day).toBe(utcDay(new Date(), RESONANCE_DAYS - 1));
    expect(map.hearts.at(-1)).toEqual({ day: utcDay(new Date()), count: 1 });
    expect(map.hearts.at(-3)).toEqual({ day: utcDay(twoDaysAgo), count: 1 });
    expect(map.hearts.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(2);
    expect(map.views).toHaveLength(RESONANCE_DAYS);
    expect(map.views.at(-1)).toEqual({ day: utcDay(new Date()), count: 1 });
  });
});

describe("the top passage", () => {
  it("is marked once 3 different people's approved responses overlap, on the most-covered stretch", async () => {
    const { owner, prism, headers } = await ownPrism();
    await approvedResponse(prism.id, "I answer messages in batches.", headers);
    await approvedResponse(prism.id, "messages in batches", headers);
    expect(await listed(owner.username)).toBeNull();
    // A pending response, and a second one by someone already counted, do not make a third person.
    const again = await signIn(t.database, await buildUser(t.database));
    await respondToQuote(t.app, prism.id, CONTENT, "answer messages", again);
    expect(await listed(owner.username)).toBeNull();

    await approvedResponse(prism.id, "in batches", headers);
    expect(await listed(owner.username)).toEqual({
      start: 18,
      end: 28,
      count: 3,
      text: "in batches",
    });
    const [stored] = await t.database.db
      .select({ topPassage: prisms.topPassage })
      .from(prisms)
      .where(eq(prisms.id, prism.id));
    expect(stored?.topPassage).toMatchObject({ text: "in batches" });
  });

  it("counts one person once, goes to the earliest of equal stretches, and follows decisions and deletions", async () => {
    const { owner, prism, headers } = await ownPrism();
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    const author = await buildUser(t.database);
    const authorHeaders = await signIn(t.database, author);
    // One person three times is one person.
    for (const quote of ["I answer", "messages", "batches"]) {
      const mine = await respondToQuote(t.app, prism.id, CONTENT, quote, authorHeaders);
      await decide(mine.json().id, "approved", headers);
    }
    expect(await listed(owner.username)).toBeNull();

    // Three people on "Mornings" and three on "people": the earlier wins.
    for (const quote of ["people.", "people.", "people.", "Mornings", "Mornings"]) {
      await approvedResponse(prism.id, quote, headers);
    }
    const third = await approvedResponse(prism.id, "Mornings", headers);
    expect(await listed(owner.username)).toMatchObject({ text: "Mornings", count: 3 });

    // An admin taking an approval back, then deleting it: the next passage takes its place.
    const back = await send(t.app, "PUT", `/api/prisms/0/annotations/${third}/status`, {
      headers: admin,
      payload: { status: "rejected" },
    });
    expect(back.statusCode).toBe(200);
    expect(await listed(owner.username)).toMatchObject({ text: "people.", count: 3 });

    // An edit that takes the passage's words away takes the mark with it.
    const edited = await send(t.app, "PUT", `/api/prisms/${prism.id}`, {
      headers,
      payload: { title: "How I work", content: "<p>I answer messages in batches.</p>" },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().topPassage).toBeNull();
  });

  it("moves the member's list tag when it changes, and only then", async () => {
    const { owner, prism, headers } = await ownPrism();
    await approvedResponse(prism.id, "batches", headers);
    await approvedResponse(prism.id, "batches", headers);
    const before = await send(t.app, "GET", `/api/prisms/${owner.username}`);
    await approvedResponse(prism.id, "batches", headers);
    const after = await send(t.app, "GET", `/api/prisms/${owner.username}`, {
      headers: { "if-none-match": String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json()[0].topPassage).toMatchObject({ text: "batches", count: 3 });
    // An approval that leaves it where it was changes nothing readers see.
    await approvedResponse(prism.id, "Mornings", headers);
    const unchanged = await send(t.app, "GET", `/api/prisms/${owner.username}`, {
      headers: { "if-none-match": String(after.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
  });
});

describe("settling top passages at start-up", () => {
  it("works out those of responses written around the commands, and leaves the rest alone", async () => {
    const { owner, prism } = await ownPrism();
    const { prism: few } = await ownPrism();
    for (const visitorHash of ["one", "two", "three"]) {
      await buildAnnotation(t.database, {
        prismId: prism.id,
        selectionStart: 9,
        selectionEnd: 17,
        status: "approved",
        visitorHash,
      });
    }
    for (const visitorHash of ["one", "one", "two"]) {
      await buildAnnotation(t.database, { prismId: few.id, status: "approved", visitorHash });
    }
    const stored = async (id: number) =>
      (
        await t.database.db
          .select({ topPassage: prisms.topPassage })
          .from(prisms)
          .where(eq(prisms.id, id))
      )[0]?.topPassage;
    expect(await stored(prism.id)).toBeNull();
    // Before the app starts: nothing has read or cached the list yet.
    await settleTopPassages(t.database.db);
    expect(await stored(prism.id)).toEqual({ start: 9, end: 17, count: 3, text: "messages" });
    expect(await listed(owner.username)).toMatchObject({ text: "messages" });
    expect(await stored(few.id)).toBeNull();
    // Once settled, a start-up has nothing to do for them.
    expect(await settleTopPassages(t.database.db)).toBe(0);
  });
});

describe("views", () => {
  it("count once per visitor, prism and day; never the owner's own, nor a program's", async () => {
    const { owner, prism, headers } = await ownPrism();
    const other = await buildPrism(t.database, { userId: owner.id, content: CONTENT, index: 1 });
    // A browser without an id counts nothing, and is given one, which counts from then on.
    const first = await beacon([prism.id, other.id]);
    expect(first.statusCode).toBe(204);
    const vid = first.cookies.find((c) => c.name === "vid");
    expect(vid).toBeDefined();
    const sameBrowser = { cookie: `vid=${vid?.value}` };
    expect((await beacon([prism.id, other.id], sameBrowser)).statusCode).toBe(204);
    expect((await beacon([prism.id], sameBrowser)).statusCode).toBe(204);
    const member = await signIn(t.database, await buildUser(t.database));
    await beacon([prism.id], member);
    await beacon([prism.id], member);
    await beacon([prism.id], headers);
    for (const bot of [
      "Googlebot/2.1 (+http://www.google.com/bot.html)",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36",
      "curl/8.5.0",
      "",
    ]) {
      expect((await beacon([prism.id], { "user-agent": bot })).statusCode).toBe(204);
    }
    const counted = await t.database.db
      .select({ prismId: prismViews.prismId, count: prismViews.count })
      .from(prismViews)
      .where(inArray(prismViews.prismId, [prism.id, other.id]))
      .orderBy(prismViews.prismId);
    expect(counted).toEqual([
      { prismId: prism.id, count: 2 },
      { prismId: other.id, count: 1 },
    ]);
  });

  it("count one reader of a page and one read of each prism it showed them", async () => {
    const { owner, prism, headers } = await ownPrism();
    const second = await buildPrism(t.database, { userId: owner.id, index: 1 });
    const third = await buildPrism(t.database, { userId: owner.id, index: 2 });
    // A reader of the page of 3 prisms, with only the first opened and shown.
    const first = await beacon([prism.id]);
    const reader = { cookie: `vid=${first.cookies.find((c) => c.name === "vid")?.value}` };
    expect((await beacon([prism.id], reader)).statusCode).toBe(204);
    const week = async () =>
      (await send(t.app, "GET", "/api/user/this-week", { headers })).json().thisWeek;
    expect(await week()).toMatchObject({ readers: 1, views: 1 });
    // Later the same day they open the other two: more reads, the same reader.
    expect((await beacon([second.id, third.id], reader)).statusCode).toBe(204);
    expect(await week()).toMatchObject({ readers: 1, views: 3 });
    // A second reader, a member, reads one of them: two readers of the page.
    await beacon([third.id], await signIn(t.database, await buildUser(t.database)));
    expect(await week()).toMatchObject({ readers: 2, views: 4 });
    const kept = await t.database.db
      .select({ count: pageReaders.count })
      .from(pageReaders)
      .where(eq(pageReaders.userId, owner.id));
    expect(kept).toEqual([{ count: 2 }]);
  });

  it("reject bad input and are limited per visitor", async () => {
    expect((await beacon([])).statusCode).toBe(400);
    expect((await beacon([0])).statusCode).toBe(400);
    const tooMany = Array.from({ length: 51 }, (_, i) => i + 1);
    expect((await beacon(tooMany)).statusCode).toBe(400);
    const { prism } = await ownPrism();
    const first = await beacon([prism.id]);
    const browser = { cookie: `vid=${first.cookies.find((c) => c.name === "vid")?.value}` };
    for (let i = 0; i < 120; i += 1) await beacon([prism.id], browser);
    const refused = await beacon([prism.id], browser);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe("Too many views from here. Please try again later.");
  });
});

describe("this week", () => {
  it("sums readers, views, hearts and responses this week against last, with each prism's most responded passage", async () => {
    const { owner, prism, headers } = await ownPrism();
    const quiet = await buildPrism(t.database, { userId: owner.id, title: "Quiet", index: 1 });
    const tenDaysAgo = new Date(Date.now() - 10 * 24 * 60 * 60 * 1000);
    await buildHeart(t.database, { prismId: prism.id });
    await buildHeart(t.database, { prismId: quiet.id });
    await buildHeart(t.database, { prismId: prism.id, createdAt: tenDaysAgo });
    await buildHeart(t.database, { prismId: prism.id, userId: owner.id });
    await buildAnnotation(t.database, { prismId: prism.id, selectionStart: 9, selectionEnd: 28 });
    await buildAnnotation(t.database, {
      prismId: prism.id,
      selectionStart: 18,
      selectionEnd: 28,
      status: "approved",
      createdAt: tenDaysAgo,
    });
    await buildAnnotation(t.database, { prismId: prism.id, status: "rejected" });
    await t.database.db.insert(prismViews).values([
      { prismId: prism.id, day: utcDay(new Date()), count: 4 },
      { prismId: quiet.id, day: utcDay(new Date(), 6), count: 1 },
      { prismId: prism.id, day: utcDay(new Date(), 7), count: 3 },
      { prismId: prism.id, day: utcDay(new Date(), 14), count: 100 },
    ]);
    await t.database.db.insert(pageReaders).values([
      { userId: owner.id, day: utcDay(new Date()), count: 3 },
      { userId: owner.id, day: utcDay(new Date(), 6), count: 1 },
      { userId: owner.id, day: utcDay(new Date(), 7), count: 2 },
      { userId: owner.id, day: utcDay(new Date(), 14), count: 50 },
    ]);

    const week = await send(t.app, "GET", "/api/user/this-week", { headers });
    expect(week.statusCode).toBe(200);
    expect(week.json()).toEqual({
      thisWeek: { readers: 4, views: 5, hearts: 2, responses: 1 },
      lastWeek: { readers: 2, views: 3, hearts: 1, responses: 1 },
      prisms: [
        {
          id: prism.id,
          title: "How I work",
          mostResponded: { start: 18, end: 28, count: 2, text: "in batches" },
        },
        { id: quiet.id, title: "Quiet", mostResponded: null },
      ],
    });
    expect((await send(t.app, "GET", "/api/user/this-week")).statusCode).toBe(401);
  });
});
