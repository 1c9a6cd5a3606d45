// A prism's history through the API: who sees it, what a save keeps, restoring, the bound, the
// words an orphaned response keeps, and the export.
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { limits } from "../../../contract/limits.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import { savePrism } from "../../commands/prisms.ts";
import { auditLog, prismHearts, prismRevisions, prisms } from "../../db/schema.ts";
import { buildAnnotation, buildHeart, buildPrism, buildUser } from "../../test/builders.ts";
import { respondToQuote, send, setupTestApp, signIn } from "../../test/helpers.ts";
import { writeAs } from "../../test/write.ts";

const t = setupTestApp();

const FIRST = "<p>Mornings are for deep work.</p><p>Afternoons are for people.</p>";
const SECOND = "<p>Mornings are for deep work.</p><p>Evenings are for reading.</p>";

async function ownPrism(overrides: Partial<typeof prisms.$inferInsert> = {}) {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, {
    userId: owner.id,
    title: "How I work",
    content: FIRST,
    ...overrides,
  });
  return { owner, prism, headers: await signIn(t.database, owner) };
}

const save = (id: number, payload: object, headers: Record<string, string>) =>
  send(t.app, "PUT", `/api/prisms/${id}`, { payload, headers });
const history = (id: number, headers: Record<string, string> = {}) =>
  send(t.app, "GET", `/api/prisms/${id}/revisions`, { headers });
const version = (id: number, number: number, headers: Record<string, string> = {}) =>
  send(t.app, "GET", `/api/prisms/${id}/revisions/${number}`, { headers });
const restore = (id: number, number: number, headers: Record<string, string> = {}) =>
  send(t.app, "POST", `/api/prisms/${id}/revisions/${number}/restore`, { headers });

describe("a prism's history", () => {
  it("is its owner's and admins': members and visitors get 404, as for a prism that is not there", async () => {
    const { prism, headers } = await ownPrism();
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    const member = await signIn(t.database, await buildUser(t.database));
    for (const asker of [headers, admin]) {
      expect((await history(prism.id, asker)).statusCode).toBe(200);
      expect((await version(prism.id, 1, asker)).statusCode).toBe(200);
    }
    for (const asker of [member, {}]) {
      expect((await history(prism.id, asker)).statusCode).toBe(404);
      expect((await version(prism.id, 1, asker)).statusCode).toBe(404);
    }
    expect((await history(2 ** 31 - 1, headers)).statusCode).toBe(404);
    expect((await version(prism.id, 2, headers)).statusCode).toBe(404);
  });

  it("keeps the version each changing save replaces, newest first, and a no-op save keeps none", async () => {
    const { prism, headers } = await ownPrism();
    const unchanged = await save(prism.id, { title: "How I work", content: FIRST }, headers);
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json()).toMatchObject({
      editedAt: null,
      updatedAt: prism.updatedAt.toISOString(),
    });
    expect((await history(prism.id, headers)).json()).toEqual([
      {
        number: 1,
        title: "How I work",
        createdAt: prism.updatedAt.toISOString(),
        current: true,
      },
    ]);

    const edited = await save(prism.id, { title: "How I work", content: SECOND }, headers);
    expect(edited.json().editedAt).toBe(edited.json().updatedAt);
    await save(prism.id, { title: "How I work now", content: SECOND }, headers);
    const list = (await history(prism.id, headers)).json();
    expect(list.map((r: { number: number; title: string; current: boolean }) => r)).toMatchObject([
      { number: 3, title: "How I work now", current: true },
      { number: 2, title: "How I work", current: false },
      { number: 1, title: "How I work", current: false, createdAt: prism.updatedAt.toISOString() },
    ]);
    expect((await version(prism.id, 1, headers)).json()).toEqual({
      number: 1,
      title: "How I work",
      content: FIRST,
      createdAt: prism.updatedAt.toISOString(),
    });
    expect((await version(prism.id, 2, headers)).json()).toMatchObject({ content: SECOND });
    expect((await version(prism.id, 3, headers)).json()).toMatchObject({
      title: "How I work now",
      content: SECOND,
    });
  });

  it("moving and hearting a prism leave its history and its edited time alone", async () => {
    const { owner, prism, headers } = await ownPrism();
    await buildPrism(t.database, { userId: owner.id, index: 1, title: "Second" });
    expect(
      (
        await send(t.app, "PUT", `/api/prisms/${prism.id}/move`, {
          headers,
          payload: { direction: "down" },
        })
      ).json(),
    ).toMatchObject({ editedAt: null });
    await send(t.app, "POST", `/api/prisms/${prism.id}/heart`, { headers });
    const [listed] = (await send(t.app, "GET", `/api/prisms/${owner.username}`)).json();
    expect(listed).toMatchObject({ title: "Second", editedAt: null });
    expect((await history(prism.id, headers)).json()).toHaveLength(1);
  });
});

describe("restoring a version", () => {
  it("saves it as a new version, with the usual rules: a title change resets hearts, responses re-anchor", async () => {
    const { prism, headers } = await ownPrism();
    const reader = await signIn(t.database, await buildUser(t.database));
    const response = await respondToQuote(
      t.app,
      prism.id,
      FIRST,
      "Afternoons are for people",
      reader,
    );
    expect(response.statusCode).toBe(201);
    await save(prism.id, { title: "How I work", content: SECOND }, headers);
    await buildHeart(t.database, { prismId: prism.id });
    await t.database.db.update(prisms).set({ heartsCount: 1 }).where(eq(prisms.id, prism.id));
    await save(prism.id, { title: "Renamed", content: SECOND }, headers);
    await buildHeart(t.database, { prismId: prism.id });
    await t.database.db.update(prisms).set({ heartsCount: 1 }).where(eq(prisms.id, prism.id));
    const orphaned = await send(t.app, "GET", `/api/annotations/${response.json().id}`, {
      headers,
    });
    expect(orphaned.json()).toMatchObject({ orphaned: true, revision: 1 });

    const restored = await restore(prism.id, 1, headers);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ title: "How I work", content: FIRST, heartsCount: 0 });
    expect(
      await t.database.db.select().from(prismHearts).where(eq(prismHearts.prismId, prism.id)),
    ).toEqual([]);
    const list = (await history(prism.id, headers)).json();
    expect(list.map((r: { number: number }) => r.number)).toEqual([4, 3, 2, 1]);
    expect(list[0]).toMatchObject({ title: "How I work", current: true });
    const anchored = await send(t.app, "GET", `/api/annotations/${response.json().id}`, {
      headers,
    });
    expect(anchored.json()).toMatchObject({ orphaned: false, revision: 1 });
    expect(anchored.json()).not.toHaveProperty("originalContext");

    // Restoring the version that is already current changes nothing.
    expect((await restore(prism.id, 4, headers)).json()).toMatchObject({ title: "How I work" });
    expect((await history(prism.id, headers)).json()).toHaveLength(4);
  });

  it("is the owner's, or an admin's for them (audited): 401 signed out, 404 for members and versions not kept", async () => {
    const { prism, headers } = await ownPrism();
    await save(prism.id, { title: "How I work", content: SECOND }, headers);
    const adminRow = await buildUser(t.database, { isAdmin: true });
    const admin = await signIn(t.database, adminRow);
    const member = await signIn(t.database, await buildUser(t.database));
    expect((await restore(prism.id, 1)).statusCode).toBe(401);
    expect((await restore(prism.id, 1, member)).statusCode).toBe(404);
    expect((await restore(prism.id, 7, headers)).statusCode).toBe(404);
    const [unchanged] = await t.database.db.select().from(prisms).where(eq(prisms.id, prism.id));
    expect(unchanged).toMatchObject({ content: SECOND, revision: 2 });

    const restored = await restore(prism.id, 1, admin);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ id: prism.id, userId: prism.userId, content: FIRST });
    const [row] = await t.database.db.select().from(prisms).where(eq(prisms.id, prism.id));
    expect(row).toMatchObject({ content: FIRST, revision: 3 });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "prism"), eq(auditLog.targetId, prism.id)));
    expect(audit).toEqual([
      expect.objectContaining({
        actorId: adminRow.id,
        action: "prism.restore",
        details: {
          target: "How I work",
          before: { revision: 2 },
          after: { revision: 3, restored: 1 },
        },
      }),
    ]);
    // The owner's own restore is theirs: nothing for the audit log.
    expect((await restore(prism.id, 2, headers)).statusCode).toBe(200);
    const after = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "prism"), eq(auditLog.targetId, prism.id)));
    expect(after).toHaveLength(1);
  });
});

describe("the bound", () => {
  it(`keeps ${limits.revisionsKept} versions, the oldest going first, and those others responded to beside them`, async () => {
    const { owner, prism } = await ownPrism({ revision: limits.revisionsKept });
    // The 99 versions before the current one, as 99 saves would have kept them.
    await t.database.db.insert(prismRevisions).values(
      Array.from({ length: limits.revisionsKept - 1 }, (_, i) => ({
        prismId: prism.id,
        number: i + 1,
        title: `Version ${i + 1}`,
        content: `<p>Words of version ${i + 1}</p>`,
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      })),
    );
    await buildAnnotation(t.database, { prismId: prism.id, revision: 2 });
    await buildAnnotation(t.database, { prismId: prism.id, revision: 1 });
    await buildAnnotation(t.database, { prismId: prism.id, revision: 4 });
    // The owner's own response keeps nothing.
    await buildAnnotation(t.database, { prismId: prism.id, revision: 3, userId: owner.id });

    const kept = async () =>
      (
        await t.database.db
          .select({ number: prismRevisions.number })
          .from(prismRevisions)
          .where(eq(prismRevisions.prismId, prism.id))
          .orderBy(asc(prismRevisions.number))
      ).map((row) => row.number);
    for (let i = 1; i <= 6; i++) {
      const content = `<p>Save ${i} more</p>`;
      await savePrism(writeAs(t.database, owner), prism.id, { title: "How I work", content });
    }
    // 96 versions no one else answered and 6 more: with the current one, the oldest 3 (3, 5 and
    // 6) were past the bound.
    const numbers = await kept();
    expect(numbers).toHaveLength(limits.revisionsKept - 1 + 3);
    expect(numbers.slice(0, 5)).toEqual([1, 2, 4, 7, 8]);
    expect(numbers.at(-1)).toBe(limits.revisionsKept + 5);
    expect((await history(prism.id, await signIn(t.database, owner))).json()).toHaveLength(
      limits.revisionsKept + 3,
    );
  });
});

it("deleting a prism deletes its history", async () => {
  const { prism, headers } = await ownPrism();
  await save(prism.id, { title: "How I work", content: SECOND }, headers);
  expect(
    await t.database.db.select().from(prismRevisions).where(eq(prismRevisions.prismId, prism.id)),
  ).toHaveLength(1);
  expect((await send(t.app, "DELETE", `/api/prisms/${prism.id}`, { headers })).statusCode).toBe(
    204,
  );
  expect(
    await t.database.db.select().from(prismRevisions).where(eq(prismRevisions.prismId, prism.id)),
  ).toEqual([]);
});

describe("a response whose passage is gone", () => {
  it("keeps the version it was made on and the words around its passage then", async () => {
    const before = "I plan my week on Sunday evening, and ".repeat(4);
    const html = `<p>${before}mornings are for deep work and long quiet thinking.</p><p>Afternoons are for people.</p>`;
    const { prism, headers } = await ownPrism({ content: html });
    const reader = await signIn(t.database, await buildUser(t.database));
    const made = await respondToQuote(t.app, prism.id, html, "deep work", reader);
    expect(made.json()).toMatchObject({ revision: 1, orphaned: false });
    await save(prism.id, { title: "How I work", content: SECOND }, headers);
    await save(prism.id, { title: "How I work", content: "<p>Nothing alike at all.</p>" }, headers);

    const listed = await send(t.app, "GET", `/api/prisms/${prism.id}/annotations`, { headers });
    const [orphan] = listed.json();
    const text = htmlToPlainText(html);
    const at = text.indexOf("deep work");
    expect(orphan).toMatchObject({ orphaned: true, revision: 1 });
    expect(orphan.originalContext).toEqual({
      // Cut at 100 characters, less the word the cut fell in.
      before:
        "and I plan my week on Sunday evening, and I plan my week on Sunday evening, and mornings are for ",
      passage: "deep work",
      after: " and long quiet thinking.\nAfternoons are for people.",
    });
    expect(text.slice(at - orphan.originalContext.before.length, at)).toBe(
      orphan.originalContext.before,
    );
    expect(orphan.originalContext.before.length).toBeLessThanOrEqual(100);
    // The version it was made on is kept, for the owner to open from the response.
    expect((await version(prism.id, orphan.revision, headers)).json()).toMatchObject({
      content: html,
    });
  });
});

it("the account export includes the histories of the member's prisms", async () => {
  const { prism, headers } = await ownPrism();
  await save(prism.id, { title: "Renamed", content: SECOND }, headers);
  const exported = (await send(t.app, "GET", "/api/user/export", { headers })).json();
  expect(exported.revisions).toEqual([
    {
      prismId: prism.id,
      number: 1,
      title: "How I work",
      html: FIRST,
      text: htmlToPlainText(FIRST),
      createdAt: prism.updatedAt.toISOString(),
    },
  ]);
  expect(exported.prisms[0]).toMatchObject({ title: "Renamed", editedAt: expect.any(String) });
});
