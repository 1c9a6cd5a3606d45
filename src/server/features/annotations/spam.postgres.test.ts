// Spam over HTTP: a response that scores high is set aside, answered exactly as a pending one,
// ringing nobody and shown to nobody but its author (as pending), the owner's Spam folder and
// admins; the owner moves responses to and from the folder, telling no author; old spam goes.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { annotations, auditLog, notifications } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { respondToQuote, send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";

const t = setupTestApp();

const CONTENT = "<p>I give feedback in writing first.</p><p>Then we talk.</p>";
const SPAM = "Cheap at https://a.example/x and https://b.example/y and https://c.example/z";

async function scene() {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
  return { owner, prism, ownerHeaders: await signIn(t.database, owner) };
}

const get = (url: string, headers: Record<string, string> = {}) =>
  send(t.app, "GET", url, { headers });

let callers = 0;
/** A bulk decision, from an address of its own. */
function bulk(headers: Record<string, string>, payload: object) {
  callers += 1;
  return send(t.app, "POST", "/api/annotations/bulk", {
    headers,
    payload,
    remoteAddress: `10.36.${(callers >> 8) & 255}.${callers & 255}`,
  });
}

const texts = (answer: { json: () => unknown }) =>
  (answer.json() as { annotationText: string; status: string }[]).map(
    ({ annotationText, status }) => [annotationText, status],
  );

describe("spam", () => {
  it("answers a spam response exactly as a pending one, and rings nobody", async () => {
    const { owner, prism, ownerHeaders } = await scene();
    const reader = { cookie: visitorCookie("spam-reader-fair") };
    const spammer = { cookie: visitorCookie("spam-reader-links") };
    const fair = await respondToQuote(t.app, prism.id, CONTENT, "in writing", reader, {
      annotationText: "A fair point.",
    });
    const spam = await respondToQuote(t.app, prism.id, CONTENT, "Then we talk", spammer, {
      annotationText: SPAM,
    });

    // The same answer: 201, the same fields, pending, a private link.
    expect([fair.statusCode, spam.statusCode]).toEqual([201, 201]);
    expect(Object.keys(spam.json()).sort()).toEqual(Object.keys(fair.json()).sort());
    expect(spam.json()).toMatchObject({ status: "pending", statusUrl: expect.any(String) });
    const [stored] = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.id, spam.json().id));
    expect(stored?.status).toBe("spam");
    expect(stored?.signals).toMatchObject({ score: 3, reasons: ["Has 3 links"] });

    // No notification, no unread count.
    const told = await t.database.db
      .select({ annotationId: notifications.annotationId })
      .from(notifications)
      .where(eq(notifications.userId, owner.id));
    expect(told).toEqual([{ annotationId: fair.json().id }]);
    expect((await get("/api/notifications/unread-count", ownerHeaders)).json()).toEqual({
      count: 1,
    });

    // The owner's page shows the fair one; its author sees theirs, as pending; others neither.
    const list = `/api/prisms/${prism.id}/annotations`;
    expect(texts(await get(list, ownerHeaders))).toEqual([["A fair point.", "pending"]]);
    expect(texts(await get(list, spammer))).toEqual([[SPAM, "pending"]]);
    expect(texts(await get(list))).toEqual([]);
    expect((await get(`/api/annotations/${spam.json().id}`, ownerHeaders)).statusCode).toBe(404);
    const status = await get(`/api${spam.json().statusUrl}`);
    expect(status.json()).toMatchObject({ text: SPAM, status: "pending" });

    // The owner's Spam folder holds it, with the reasons; the queue holds the fair one.
    const folder = await get("/api/annotations/review?status=spam", ownerHeaders);
    expect(folder.json().items).toEqual([
      expect.objectContaining({ id: spam.json().id, status: "spam", reasons: ["Has 3 links"] }),
    ]);
    const waiting = await get("/api/annotations/review", ownerHeaders);
    expect(waiting.json().items.map((item: { id: number }) => item.id)).toEqual([fair.json().id]);
  });

  it("moves responses to the Spam folder and back, audited, telling no author", async () => {
    const { owner, prism, ownerHeaders } = await scene();
    const member = await buildUser(t.database);
    const memberHeaders = await signIn(t.database, member);
    const response = await buildAnnotation(t.database, { prismId: prism.id, userId: member.id });
    const status = async () =>
      (
        await t.database.db
          .select({ status: annotations.status })
          .from(annotations)
          .where(eq(annotations.id, response.id))
      )[0]?.status;

    expect((await bulk(ownerHeaders, { ids: [response.id], action: "spam" })).json()).toEqual({
      changed: 1,
    });
    expect(await status()).toBe("spam");
    // Its author still sees it waiting, and hears nothing.
    const theirs = await get(`/api/prisms/${prism.id}/annotations`, memberHeaders);
    expect(texts(theirs)).toEqual([["Same here", "pending"]]);
    expect((await get("/api/notifications/unread-count", memberHeaders)).json()).toEqual({
      count: 0,
    });
    // Only what is spam can be put back; only what is pending set aside.
    const again = await bulk(ownerHeaders, { ids: [response.id], action: "spam" });
    expect(again.statusCode).toBe(409);
    const folder = await get("/api/annotations/review?status=spam", ownerHeaders);
    expect(folder.json().items.map((item: { id: number }) => item.id)).toEqual([response.id]);

    expect((await bulk(ownerHeaders, { ids: [response.id], action: "not-spam" })).json()).toEqual({
      changed: 1,
    });
    expect(await status()).toBe("pending");
    expect((await bulk(ownerHeaders, { ids: [response.id], action: "not-spam" })).statusCode).toBe(
      409,
    );
    // Another member cannot move it.
    const other = await signIn(t.database, await buildUser(t.database));
    expect((await bulk(other, { ids: [response.id], action: "spam" })).statusCode).toBe(404);

    const lines = await t.database.db
      .select({ actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.targetId, response.id), eq(auditLog.action, "annotation.status")))
      .orderBy(asc(auditLog.id));
    expect(lines).toEqual([
      {
        actorId: owner.id,
        details: expect.objectContaining({
          before: { status: "pending" },
          after: { status: "spam" },
        }),
      },
      {
        actorId: owner.id,
        details: expect.objectContaining({
          before: { status: "spam" },
          after: { status: "pending" },
        }),
      },
    ]);
    const authorTold = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, member.id));
    expect(authorTold).toEqual([]);
  });

  it("deletes spam older than 30 days when the app starts, and keeps the rest", async () => {
    const { prism } = await scene();
    const at = (days: number) => sql`now() - make_interval(days => ${days})`;
    const old = await buildAnnotation(t.database, { prismId: prism.id, status: "spam" });
    const recent = await buildAnnotation(t.database, { prismId: prism.id, status: "spam" });
    const rejected = await buildAnnotation(t.database, { prismId: prism.id, status: "rejected" });
    for (const [id, days] of [
      [old.id, 31],
      [recent.id, 29],
      [rejected.id, 31],
    ] as const) {
      await t.database.db
        .update(annotations)
        .set({ createdAt: at(days) })
        .where(eq(annotations.id, id));
    }
    // The first run starts with the app; closing the app waits for it.
    const app = await buildApp({ config: t.config, database: t.database });
    await app.close();
    const left = await t.database.db
      .select({ id: annotations.id })
      .from(annotations)
      .where(inArray(annotations.id, [old.id, recent.id, rejected.id]))
      .orderBy(asc(annotations.id));
    expect(left.map(({ id }) => id)).toEqual([recent.id, rejected.id]);
  });
});
