// Saving a prism, called as the route calls it: who may, what is refused, hearts on a new title,
// annotations anchored again in the new text, the events, and all or nothing.
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { htmlToPlainText, quoteContext } from "../../contract/plain-text.ts";
import { prismMessages } from "../../contract/prisms.ts";
import { annotations, prismHearts, prisms, type UserRow } from "../db/schema.ts";
import { buildAnnotation, buildHeart, buildPrism, buildUser } from "../test/builders.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { run, writeAs } from "../test/write.ts";
import { savePrism } from "./prisms.ts";

const t = setupTestDatabase();

const CONTENT = "<p>Mornings are for deep work.</p><p>Afternoons are for people.</p>";
const TEXT = htmlToPlainText(CONTENT);

/** A response to `quote` in CONTENT, anchored as a new one would be. */
function responseTo(
  prismId: number,
  quote: string,
  extra: Partial<typeof annotations.$inferInsert>,
) {
  const start = TEXT.indexOf(quote);
  const end = start + quote.length;
  return buildAnnotation(t.database, {
    prismId,
    selectedText: quote,
    selectionStart: start,
    selectionEnd: end,
    ...quoteContext(TEXT, start, end),
    ...extra,
  });
}

/** An owner's prism with two hearts, one from a member. */
async function heartedPrism() {
  const owner = await buildUser(t.database);
  const fan = await buildUser(t.database);
  const prism = await buildPrism(t.database, {
    userId: owner.id,
    content: CONTENT,
    heartsCount: 2,
  });
  await buildHeart(t.database, { prismId: prism.id, userId: fan.id });
  await buildHeart(t.database, { prismId: prism.id });
  return { owner, fan, prism };
}

/** The prism's row, hearts and annotations, to compare before and after. */
async function stateOf(prismId: number) {
  const { db } = t.database;
  return {
    prism: await db.select().from(prisms).where(eq(prisms.id, prismId)),
    hearts: await db
      .select()
      .from(prismHearts)
      .where(eq(prismHearts.prismId, prismId))
      .orderBy(asc(prismHearts.id)),
    annotations: await db
      .select()
      .from(annotations)
      .where(eq(annotations.prismId, prismId))
      .orderBy(asc(annotations.id)),
  };
}

const save = (owner: UserRow, prismId: number, title: string, content = CONTENT) =>
  run(t.database, owner, (write) => savePrism(write, prismId, { title, content }), "prism");

describe("savePrism", () => {
  it("lets only the owner save: 403 for another member, an admin too, 404 when missing; nothing changes", async () => {
    const { prism } = await heartedPrism();
    const before = await stateOf(prism.id);
    const stranger = await buildUser(t.database);
    const admin = await buildUser(t.database, { isAdmin: true });
    for (const actor of [stranger, admin]) {
      await expect(save(actor, prism.id, "Taken over")).rejects.toMatchObject({
        statusCode: 403,
        message: "Only the owner can change this prism",
      });
    }
    await expect(save(stranger, 2 ** 31 - 1, "Nowhere")).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await stateOf(prism.id)).toEqual(before);
  });

  it("refuses a title that is blank once sanitized, content over the limit once sanitized, and a mismatched id; nothing changes", async () => {
    const { owner, prism } = await heartedPrism();
    const before = await stateOf(prism.id);
    await expect(save(owner, prism.id, "<b> </b>")).rejects.toMatchObject({
      statusCode: 400,
      errors: { title: prismMessages.titleRequired },
    });
    // Fits as sent (one byte each), not as stored: each "<" is kept as "&lt;".
    const growing = `<p>${"<".repeat(20 * 1024)}</p>`;
    expect(new TextEncoder().encode(growing).length).toBeLessThan(50 * 1024);
    await expect(save(owner, prism.id, "Changed", growing)).rejects.toMatchObject({
      statusCode: 400,
      errors: { content: prismMessages.contentTooLong },
    });
    await expect(
      savePrism(writeAs(t.database, owner), prism.id, {
        id: prism.id + 1,
        title: "Changed",
        content: CONTENT,
      }),
    ).rejects.toMatchObject({ statusCode: 400, errors: { id: "Does not match the path" } });
    expect(await stateOf(prism.id)).toEqual(before);
  });

  it("stores the title and text sanitized", async () => {
    const { owner, prism } = await heartedPrism();
    const { prism: saved } = await save(
      owner,
      prism.id,
      "  How   I <i>work</i> ",
      `<p onclick="x()">Mornings are for deep work.<script>alert(1)</script></p><p>Afternoons are for people.</p>`,
    );
    expect(saved).toMatchObject({ title: "How I work", content: CONTENT });
    expect((await stateOf(prism.id)).prism).toEqual([saved]);
  });

  it("takes the hearts away on a new title and says so; the count and the mark start over", async () => {
    const { owner, prism } = await heartedPrism();
    await t.database.db
      .update(prisms)
      .set({ editedAfterHearts: true })
      .where(eq(prisms.id, prism.id));
    const { prism: saved, events } = await save(owner, prism.id, "A new title");
    expect(saved).toMatchObject({ title: "A new title", heartsCount: 0, editedAfterHearts: false });
    expect((await stateOf(prism.id)).hearts).toEqual([]);
    expect(events).toEqual([
      { type: "prisms.changed", username: owner.username, prismIds: [prism.id] },
      { type: "heart.changed", prismId: prism.id, heartsCount: 0, username: owner.username },
    ]);
  });

  it("keeps the hearts on new text under the same title, marking the prism edited after hearts", async () => {
    const { owner, prism } = await heartedPrism();
    const hearts = (await stateOf(prism.id)).hearts;
    const { prism: saved, events } = await save(
      owner,
      prism.id,
      prism.title,
      "<p>Mornings are for deep work, always.</p>",
    );
    expect(saved).toMatchObject({ heartsCount: 2, editedAfterHearts: true });
    expect((await stateOf(prism.id)).hearts).toEqual(hearts);
    expect(events).toEqual([
      { type: "prisms.changed", username: owner.username, prismIds: [prism.id] },
    ]);
  });

  it("neither marks nor resets a prism without hearts", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
    const { prism: saved, events } = await save(owner, prism.id, "Renamed", "<p>New</p>");
    expect(saved).toMatchObject({ heartsCount: 0, editedAfterHearts: false });
    expect(events).toEqual([
      { type: "prisms.changed", username: owner.username, prismIds: [prism.id] },
    ]);
  });

  it("anchors annotations again in new text: moved, followed, or orphaned; those who may see them hear of it", async () => {
    const { owner, fan, prism } = await heartedPrism();
    const moved = await responseTo(prism.id, "Afternoons are for people", { userId: fan.id });
    const gone = await responseTo(prism.id, "deep work", {});
    const next =
      "<p>A new opening line.</p><p>Mornings are for quiet.</p><p>Afternoons are for people.</p>";
    const { events } = await save(owner, prism.id, prism.title, next);

    const text = htmlToPlainText(next);
    const rows = new Map((await stateOf(prism.id)).annotations.map((row) => [row.id, row]));
    const m = rows.get(moved.id);
    expect(m).toMatchObject({ orphaned: false, selectionStart: text.indexOf("Afternoons") });
    expect(text.slice(m?.selectionStart, m?.selectionEnd)).toBe("Afternoons are for people");
    expect(m?.prefix).toBe(quoteContext(text, m?.selectionStart ?? 0, m?.selectionEnd ?? 0).prefix);
    // Orphaned, it keeps its last place: the owner still sees what it answered.
    expect(rows.get(gone.id)).toMatchObject({
      orphaned: true,
      selectionStart: gone.selectionStart,
      selectionEnd: gone.selectionEnd,
    });
    // Both are pending: the owner and the member who wrote one, not everyone.
    expect(events).toContainEqual({
      type: "annotation.changed",
      prismId: prism.id,
      username: owner.username,
      audience: [owner.id, fan.id],
    });
  });

  it("tells everyone when an approved annotation moved", async () => {
    const { owner, prism } = await heartedPrism();
    await responseTo(prism.id, "Afternoons are for people", { status: "approved" });
    const { events } = await save(owner, prism.id, prism.title, `<p>Hello.</p>${CONTENT}`);
    expect(events).toContainEqual({
      type: "annotation.changed",
      prismId: prism.id,
      username: owner.username,
    });
  });

  it("announces no annotation change when the text did not change, or its annotations stayed put", async () => {
    const { owner, prism } = await heartedPrism();
    await responseTo(prism.id, "Mornings", { status: "approved" });
    const before = (await stateOf(prism.id)).annotations;
    const sameText = await save(owner, prism.id, prism.title);
    const appended = await save(
      owner,
      prism.id,
      prism.title,
      `${CONTENT}<p>Evenings are mine.</p>`,
    );
    for (const { events } of [sameText, appended]) {
      expect(events.map((event) => event.type)).not.toContain("annotation.changed");
    }
    expect((await stateOf(prism.id)).annotations).toEqual(before);
  });

  it("changes nothing when anchoring fails partway: title, text, hearts and annotations stay", async () => {
    const { owner, prism } = await heartedPrism();
    await responseTo(prism.id, "Afternoons are for people", {});
    const before = await stateOf(prism.id);
    await refuseWrites(t.database, "annotations", "update");
    await expectRefused(save(owner, prism.id, "A new title", `<p>Hello.</p>${CONTENT}`));
    expect(await stateOf(prism.id)).toEqual(before);
  });
});
