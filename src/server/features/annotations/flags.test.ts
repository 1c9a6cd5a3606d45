// Readers' flags over HTTP: who may flag a published response, once per person, never one they
// may not see; the owner's Flagged folder; and the three people that bring it to Catalyst.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { flagMessages } from "../../../contract/flag-messages.ts";
import { annotationFlags, annotations, auditLog } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";

const t = setupTestApp();

let callers = 0;
/** A call from an address of its own, so that the address budget is not what is tested. */
function call(
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string> = {},
  payload?: object,
) {
  callers += 1;
  return send(t.app, method, url, {
    headers,
    ...(payload && { payload }),
    remoteAddress: `10.37.${(callers >> 8) & 255}.${callers & 255}`,
  });
}

const flag = (id: number, headers: Record<string, string>, payload: object = { reason: "spam" }) =>
  call("POST", `/api/annotations/${id}/flag`, headers, payload);

async function scene() {
  const owner = await buildUser(t.database);
  const author = await buildUser(t.database, { displayName: "Ada" });
  const reader = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  const published = await buildAnnotation(t.database, {
    prismId: prism.id,
    userId: author.id,
    status: "approved",
  });
  return {
    owner,
    author,
    reader,
    prism,
    published,
    ownerHeaders: await signIn(t.database, owner),
    authorHeaders: await signIn(t.database, author),
    readerHeaders: await signIn(t.database, reader),
  };
}

const flagsOf = (annotationId: number) =>
  t.database.db
    .select({
      userId: annotationFlags.userId,
      visitor: annotationFlags.visitorHash,
      reason: annotationFlags.reason,
      note: annotationFlags.note,
    })
    .from(annotationFlags)
    .where(eq(annotationFlags.annotationId, annotationId));

describe("POST /api/annotations/{id}/flag", () => {
  it("counts a member's flags once: 201 the first time, 200 after, the reason replaced", async () => {
    const { reader, published, readerHeaders } = await scene();
    const first = await flag(published.id, readerHeaders, { reason: "spam" });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ annotationId: published.id, reason: "spam", note: null });

    const again = await flag(published.id, readerHeaders, {
      reason: "private",
      note: "  It names my neighbour.  ",
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ reason: "private", note: "It names my neighbour." });
    expect(await flagsOf(published.id)).toEqual([
      { userId: reader.id, visitor: null, reason: "private", note: "It names my neighbour." },
    ]);
  });

  it("counts an anonymous reader once by their browser", async () => {
    const { published } = await scene();
    const browser = { cookie: visitorCookie("flag-browser-one") };
    const other = { cookie: visitorCookie("flag-browser-two") };
    expect((await flag(published.id, browser, { reason: "abuse" })).statusCode).toBe(201);
    expect((await flag(published.id, browser, { reason: "other" })).statusCode).toBe(200);
    expect((await flag(published.id, other, { reason: "abuse" })).statusCode).toBe(201);
    const flags = await flagsOf(published.id);
    expect(flags.map(({ reason }) => reason).sort()).toEqual(["abuse", "other"]);
    expect(flags.every(({ userId, visitor }) => userId === null && visitor !== null)).toBe(true);
  });

  it("answers 404 for a response the reader may not see, and for none", async () => {
    const { prism, author, published, readerHeaders } = await scene();
    const pending = await buildAnnotation(t.database, { prismId: prism.id, userId: author.id });
    const spam = await buildAnnotation(t.database, { prismId: prism.id, status: "spam" });
    for (const id of [pending.id, spam.id, published.id + 1000]) {
      const answer = await flag(id, readerHeaders);
      expect(answer.statusCode).toBe(404);
    }
    expect((await flag(pending.id, { cookie: visitorCookie("flag-stranger") })).statusCode).toBe(
      404,
    );
    expect(await flagsOf(pending.id)).toEqual([]);
  });

  it("refuses the author's flag of their own response, and a flag of one not yet published", async () => {
    const { prism, published, authorHeaders, ownerHeaders } = await scene();
    const own = await flag(published.id, authorHeaders);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(flagMessages.flagOwn);

    // The owner sees a pending response, but there is nothing published to flag.
    const pending = await buildAnnotation(t.database, { prismId: prism.id });
    const early = await flag(pending.id, ownerHeaders);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(flagMessages.flagUnpublished);
    // The owner may flag a published one: they cannot take an approval back alone.
    expect((await flag(published.id, ownerHeaders)).statusCode).toBe(201);
    expect(await flagsOf(pending.id)).toEqual([]);
  });

  it("takes only the four reasons and a short note", async () => {
    const { published, readerHeaders } = await scene();
    expect((await flag(published.id, readerHeaders, { reason: "boring" })).statusCode).toBe(400);
    const long = await flag(published.id, readerHeaders, {
      reason: "other",
      note: "x".repeat(501),
    });
    expect(long.statusCode).toBe(400);
    expect(await flagsOf(published.id)).toEqual([]);
  });

  it("limits a browser's flags, with Retry-After", async () => {
    const { published } = await scene();
    const browser = { cookie: visitorCookie("flag-browser-busy") };
    const codes: number[] = [];
    for (let i = 0; i < 21; i += 1) codes.push((await flag(published.id, browser)).statusCode);
    expect(codes.slice(0, 20).every((code) => code === 201 || code === 200)).toBe(true);
    const refused = await flag(published.id, browser);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(refused.json().message).toBe(flagMessages.flagsTooMany);
  });
});

describe("the owner's Flagged folder", () => {
  it("lists published responses readers flagged, with how many people and their reasons", async () => {
    const { prism, published, readerHeaders, ownerHeaders } = await scene();
    const quiet = await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
    await flag(published.id, readerHeaders, { reason: "abuse" });
    await flag(published.id, { cookie: visitorCookie("flag-folder-a") }, { reason: "abuse" });
    await flag(published.id, { cookie: visitorCookie("flag-folder-b") }, { reason: "spam" });

    const folder = await call("GET", "/api/annotations/review?status=flagged", ownerHeaders);
    expect(folder.statusCode).toBe(200);
    expect(folder.json().items).toEqual([
      expect.objectContaining({
        id: published.id,
        status: "approved",
        flags: {
          count: 3,
          reasons: [
            { reason: "abuse", count: 2 },
            { reason: "spam", count: 1 },
          ],
        },
      }),
    ]);
    expect(folder.json().items.map((item: { id: number }) => item.id)).not.toContain(quiet.id);
    // Another member's queue holds nothing of it.
    const others = await call("GET", "/api/annotations/review?status=flagged", readerHeaders);
    expect(others.json().items).toEqual([]);
  });

  it("counts each folder on every page: the Flagged folder's count follows readers' flags", async () => {
    const { prism, published, readerHeaders, ownerHeaders } = await scene();
    await buildAnnotation(t.database, { prismId: prism.id });
    await buildAnnotation(t.database, { prismId: prism.id, status: "spam" });
    const counts = async (status: string) =>
      (await call("GET", `/api/annotations/review?status=${status}`, ownerHeaders)).json().counts;
    expect(await counts("pending")).toEqual({ pending: 1, spam: 1, flagged: 0 });
    await flag(published.id, readerHeaders);
    await flag(published.id, { cookie: visitorCookie("flag-count") }, { reason: "abuse" });
    // A response flagged by two people is one response to look at.
    for (const status of ["pending", "spam", "flagged"]) {
      expect(await counts(status)).toEqual({ pending: 1, spam: 1, flagged: 1 });
    }
    await call("POST", "/api/annotations/bulk", ownerHeaders, {
      ids: [published.id],
      action: "keep",
    });
    expect(await counts("flagged")).toEqual({ pending: 1, spam: 1, flagged: 0 });
  });

  it("keeps a flagged response published, or takes it down; each audited, each once", async () => {
    const { prism, published, readerHeaders, ownerHeaders } = await scene();
    const second = await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
    const unflagged = await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
    await flag(published.id, readerHeaders);
    await flag(second.id, readerHeaders);

    const refused = await call("POST", "/api/annotations/bulk", ownerHeaders, {
      ids: [unflagged.id],
      action: "keep",
    });
    expect(refused.statusCode).toBe(409);

    const kept = await call("POST", "/api/annotations/bulk", ownerHeaders, {
      ids: [published.id],
      action: "keep",
    });
    expect(kept.json()).toEqual({ changed: 1 });
    const down = await call("POST", "/api/annotations/bulk", ownerHeaders, {
      ids: [second.id],
      action: "take-down",
    });
    expect(down.json()).toEqual({ changed: 1 });

    const rows = await t.database.db
      .select({ id: annotations.id, status: annotations.status })
      .from(annotations)
      .where(eq(annotations.prismId, prism.id));
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: published.id, status: "approved" },
        { id: second.id, status: "rejected" },
      ]),
    );
    const folder = await call("GET", "/api/annotations/review?status=flagged", ownerHeaders);
    expect(folder.json().items).toEqual([]);
    const lines = await t.database.db
      .select({ targetId: auditLog.targetId })
      .from(auditLog)
      .where(and(eq(auditLog.action, "annotation.status")));
    expect(lines.map(({ targetId }) => targetId)).toEqual(
      expect.arrayContaining([published.id, second.id]),
    );
    // Taken down, it is gone from the page; kept, it stays.
    const page = await call("GET", `/api/prisms/${prism.id}/annotations`);
    const shown = page.json().map((item: { id: number }) => item.id);
    expect(shown).toContain(published.id);
    expect(shown).not.toContain(second.id);
    // Kept: a second keep has nothing left to settle.
    const twice = await call("POST", "/api/annotations/bulk", ownerHeaders, {
      ids: [published.id],
      action: "keep",
    });
    expect(twice.statusCode).toBe(409);
  });
});

describe("flags in Catalyst", () => {
  it("brings a response three different people flagged to the Annotations tab's filter", async () => {
    const { published, prism, readerHeaders, ownerHeaders } = await scene();
    const admin = await buildUser(t.database, { isAdmin: true });
    const adminHeaders = await signIn(t.database, admin);
    const flagged = async () =>
      (await call("GET", "/api/analytics/annotations?flagged=true", adminHeaders))
        .json()
        .items.map((item: { annotation: { id: number } }) => item.annotation.id);

    // One person flagging twice is one flag.
    await flag(published.id, readerHeaders, { reason: "abuse" });
    await flag(published.id, readerHeaders, { reason: "abuse" });
    await flag(published.id, ownerHeaders, { reason: "private" });
    expect(await flagged()).not.toContain(published.id);

    await flag(published.id, { cookie: visitorCookie("flag-catalyst-c") }, { reason: "abuse" });
    expect(await flagged()).toContain(published.id);
    const all = await call("GET", "/api/analytics/annotations", adminHeaders);
    const row = all
      .json()
      .items.find((item: { annotation: { id: number } }) => item.annotation.id === published.id);
    expect(row.flags).toEqual({
      count: 3,
      reasons: [
        { reason: "abuse", count: 2 },
        { reason: "private", count: 1 },
      ],
    });
    const quiet = await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
    const quietRow = (await call("GET", "/api/analytics/annotations", adminHeaders))
      .json()
      .items.find((item: { annotation: { id: number } }) => item.annotation.id === quiet.id);
    expect(quietRow.flags).toEqual({ count: 0, reasons: [] });
    // Admins only.
    expect(
      (await call("GET", "/api/analytics/annotations?flagged=true", readerHeaders)).statusCode,
    ).toBe(403);
  });
});
