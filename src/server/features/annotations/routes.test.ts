import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import { htmlToPlainText, quoteContext } from "../../../contract/plain-text.ts";
import type { UserRow } from "../../db/schema.ts";
import { annotations, notifications } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { asSent, send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";

const t = setupTestApp();

const CONTENT =
  "<p>I give feedback <strong>in writing</strong> first.</p><p>Then I offer to talk it through.</p>";
const TEXT = htmlToPlainText(CONTENT);
let visitorSeq = 0;
const newVisitor = () => ({
  cookie: visitorCookie(`annotating-visitor-${String(++visitorSeq).padStart(6, "0")}`),
});

function selection(quote: string) {
  const start = TEXT.indexOf(quote);
  return { selectedText: quote, selectionStart: start, selectionEnd: start + quote.length };
}

async function scene() {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
  return { owner, prism, ownerHeaders: await signIn(t.database, owner) };
}

let callers = 0;
/** A response from an address of its own, as from many people (responses are limited per address). */
async function annotate(
  prismId: number,
  headers: Record<string, string>,
  quote = "in writing",
  extra = {},
) {
  callers += 1;
  const remoteAddress = `10.1.${(callers >> 8) & 255}.${callers & 255}`;
  return send(t.app, "POST", "/api/annotations", {
    headers,
    remoteAddress,
    payload: await asSent(
      t.app,
      headers,
      { prismId, annotationText: "  This resonates.  ", ...selection(quote), ...extra },
      remoteAddress,
    ),
  });
}

async function listFor(prismId: number, headers: Record<string, string> = {}) {
  const response = await send(t.app, "GET", `/api/prisms/${prismId}/annotations`, { headers });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    id: number;
    status: string;
    isOwn: boolean;
    canModerate: boolean;
    orphaned: boolean;
    authorName: string | null;
  }[];
}

describe("POST /api/annotations", () => {
  it("records an anonymous response, pending, trimmed, with the quote's context, and notifies the owner", async () => {
    const { owner, prism } = await scene();
    const response = await annotate(prism.id, newVisitor(), "in writing", {
      annotatorName: "Sam",
      annotatorEmail: "sam@example.com",
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      prismId: prism.id,
      status: "pending",
      annotationText: "This resonates.",
      selectedText: "in writing",
      authorName: "Sam (visitor)",
      isOwn: true,
      canModerate: false,
    });
    expect(body).not.toHaveProperty("annotatorEmail");
    expect(body).not.toHaveProperty("visitorHash");
    const [row] = await t.database.db.select().from(annotations).where(eq(annotations.id, body.id));
    expect(row?.prefix).toBe("I give feedback ");
    expect(row?.suffix).toBe(" first.\nThen I offer to talk it ");
    const [note] = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.annotationId, body.id));
    expect(note).toMatchObject({
      userId: owner.id,
      type: "annotation",
      actorName: "Sam (visitor)",
      read: false,
    });
  });

  it("rejects a selection that is not the prism's text at those offsets, and changes nothing", async () => {
    const { prism } = await scene();
    const before = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.prismId, prism.id));
    const mismatch = await annotate(prism.id, newVisitor(), "in writing", {
      annotationText: "x",
      selectionStart: 0,
      selectionEnd: 10,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.selectedText).toBe(annotationMessages.selectionMismatch);
    const blank = await annotate(prism.id, newVisitor(), "in writing", { annotationText: "   " });
    expect(blank.json().errors.annotationText).toBe(annotationMessages.textRequired);
    const long = await annotate(prism.id, newVisitor(), "in writing", {
      annotationText: "x".repeat(2001),
    });
    expect(long.json().errors.annotationText).toBe(annotationMessages.textTooLong);
    const backwards = await annotate(prism.id, newVisitor(), "in writing", {
      selectionStart: 5,
      selectionEnd: 5,
    });
    expect(backwards.statusCode).toBe(400);
    const missing = await annotate(999_999, newVisitor());
    expect(missing.statusCode).toBe(404);
    expect(
      await t.database.db.select().from(annotations).where(eq(annotations.prismId, prism.id)),
    ).toEqual(before);
  });

  it("rate limits anonymous responses per visitor", async () => {
    const { prism } = await scene();
    const visitor = newVisitor();
    for (let i = 0; i < 10; i++) expect((await annotate(prism.id, visitor)).statusCode).toBe(201);
    const limited = await annotate(prism.id, visitor);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(annotationMessages.tooMany);
  });
});

describe("an anonymous annotator's name", () => {
  it("is shown as a visitor's, never able to pass for a member or for Prism", async () => {
    const { owner, prism, ownerHeaders } = await scene();
    for (const chosen of ["Prism", owner.username]) {
      const response = await annotate(prism.id, newVisitor(), "in writing", {
        annotatorName: chosen,
      });
      expect(response.json().authorName).toBe(`${chosen} (visitor)`);
    }
    const listed = await send(t.app, "GET", "/api/notifications", { headers: ownerHeaders });
    expect(listed.json().map((n: { actorName: string }) => n.actorName)).toEqual(
      expect.arrayContaining(["Prism (visitor)", `${owner.username} (visitor)`]),
    );
  });
});

describe("visibility", () => {
  it("shows pending and rejected annotations only to the owner, their author and admins", async () => {
    const { prism, ownerHeaders } = await scene();
    const authorMember = await buildUser(t.database);
    const authorHeaders = await signIn(t.database, authorMember);
    const anonymous = newVisitor();
    const pendingByMember = (await annotate(prism.id, authorHeaders)).json().id as number;
    const pendingByVisitor = (await annotate(prism.id, anonymous, "offer to talk")).json()
      .id as number;
    const approved = (await annotate(prism.id, newVisitor(), "first")).json().id as number;
    await send(t.app, "PUT", `/api/annotations/${approved}/status`, {
      headers: ownerHeaders,
      payload: { status: "approved" },
    });
    const admin = await buildUser(t.database, { isAdmin: true });
    const stranger = await buildUser(t.database);

    const ids = async (headers: Record<string, string>) =>
      (await listFor(prism.id, headers)).map((a) => a.id).sort();
    expect(await ids({})).toEqual([approved]);
    expect(await ids(newVisitor())).toEqual([approved]);
    expect(await ids(await signIn(t.database, stranger))).toEqual([approved]);
    expect(await ids(authorHeaders)).toEqual([pendingByMember, approved].sort());
    expect(await ids(anonymous)).toEqual([pendingByVisitor, approved].sort());
    expect(await ids(ownerHeaders)).toEqual([pendingByMember, pendingByVisitor, approved].sort());
    expect(await ids(await signIn(t.database, admin))).toEqual(
      [pendingByMember, pendingByVisitor, approved].sort(),
    );

    const single = (id: number, headers: Record<string, string> = {}) =>
      send(t.app, "GET", `/api/annotations/${id}`, { headers });
    expect((await single(pendingByMember)).statusCode).toBe(404);
    expect((await single(pendingByMember, await signIn(t.database, stranger))).statusCode).toBe(
      404,
    );
    expect((await single(pendingByMember, authorHeaders)).json()).toMatchObject({
      isOwn: true,
      canModerate: false,
    });
    expect((await single(pendingByVisitor, anonymous)).json()).toMatchObject({ isOwn: true });
    expect((await single(pendingByMember, ownerHeaders)).json()).toMatchObject({
      isOwn: false,
      canModerate: true,
    });
    expect((await single(approved)).json()).toMatchObject({
      status: "approved",
      canModerate: false,
    });
    expect((await single(987_654)).statusCode).toBe(404);
    expect((await single(pendingByVisitor, ownerHeaders)).body).not.toContain("annotating-visitor");
  });
});

describe("author names", () => {
  it("names every author the same way when responding, in the list and alone", async () => {
    const { prism, ownerHeaders } = await scene();
    const named = await buildUser(t.database, { displayName: "Dee Named" });
    const plain = await buildUser(t.database, { firstName: "Pat", lastName: "Plain" });
    const authors = [
      { headers: await signIn(t.database, named), extra: {}, name: "Dee Named" },
      { headers: await signIn(t.database, plain), extra: {}, name: "Pat Plain" },
      {
        headers: newVisitor(),
        extra: { annotatorName: "Sam Visitor" },
        name: "Sam Visitor (visitor)",
      },
      { headers: newVisitor(), extra: {}, name: null },
    ];
    const expected = new Map<number, string | null>();
    for (const author of authors) {
      const created = await annotate(prism.id, author.headers, "in writing", author.extra);
      expect(created.json().authorName).toBe(author.name);
      expected.set(created.json().id, author.name);
    }

    const listed = await listFor(prism.id, ownerHeaders);
    expect(new Map(listed.map((a) => [a.id, a.authorName]))).toEqual(expected);
    for (const [id, name] of expected) {
      const single = await send(t.app, "GET", `/api/annotations/${id}`, { headers: ownerHeaders });
      expect(single.json().authorName).toBe(name);
    }
  });
});

describe("PUT /api/annotations/:id/status", () => {
  it("lets the owner approve or reject a pending annotation once, marking its notification read", async () => {
    const { prism, ownerHeaders } = await scene();
    const id = (await annotate(prism.id, newVisitor())).json().id as number;
    const decide = (status: string, headers: Record<string, string>) =>
      send(t.app, "PUT", `/api/annotations/${id}/status`, {
        headers,
        payload: { status },
      });

    expect((await decide("approved", {})).statusCode).toBe(401);
    const stranger = await signIn(t.database, await buildUser(t.database));
    expect((await decide("approved", stranger)).statusCode).toBe(404);
    expect((await decide("pending", ownerHeaders)).statusCode).toBe(400);

    const approved = await decide("approved", ownerHeaders);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: "approved", canModerate: false });
    const [note] = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.annotationId, id));
    expect(note?.read).toBe(true);

    expect((await decide("rejected", ownerHeaders)).statusCode).toBe(409);
    expect((await decide("approved", stranger)).statusCode).toBe(403);
    const [row] = await t.database.db.select().from(annotations).where(eq(annotations.id, id));
    expect(row?.status).toBe("approved");
  });

  it("lets an admin set any status through the admin call; others may not", async () => {
    const { prism, ownerHeaders } = await scene();
    const id = (await annotate(prism.id, newVisitor())).json().id as number;
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    const set = (status: string, headers: Record<string, string>) =>
      send(t.app, "PUT", `/api/prisms/0/annotations/${id}/status`, {
        headers,
        payload: { status },
      });
    expect((await set("approved", ownerHeaders)).statusCode).toBe(403);
    expect((await set("rejected", admin)).json().status).toBe("rejected");
    expect((await set("pending", admin)).json().status).toBe("pending");
  });
});

describe("re-anchoring when the owner edits the prism", () => {
  async function edit(
    owner: UserRow,
    headers: Record<string, string>,
    prismId: number,
    content: string,
  ) {
    const response = await send(t.app, "PUT", `/api/prisms/${prismId}`, {
      headers,
      payload: { title: "How I work", content },
    });
    expect(response.statusCode, response.body).toBe(200);
    return owner;
  }

  it("moves offsets with a moved passage, follows a changed one, and orphans a deleted one", async () => {
    const { owner, prism, ownerHeaders } = await scene();
    const moved = (await annotate(prism.id, newVisitor(), "offer to talk")).json().id as number;
    const changed = (
      await annotate(prism.id, newVisitor(), "I give feedback in writing first")
    ).json().id as number;
    const deleted = (await annotate(prism.id, newVisitor(), "in writing")).json().id as number;

    const next =
      "<p>A new opening line about how I like to work.</p><p>I give my feedback in writing, first.</p><p>Then I offer to talk it through.</p>";
    await edit(owner, ownerHeaders, prism.id, next);
    const text = htmlToPlainText(next);
    const rows = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.prismId, prism.id));
    const byId = new Map(rows.map((r) => [r.id, r]));

    const m = byId.get(moved);
    expect(m?.orphaned).toBe(false);
    expect(text.slice(m?.selectionStart, m?.selectionEnd)).toBe("offer to talk");
    expect(m?.selectionStart).toBe(text.indexOf("offer to talk"));

    const c = byId.get(changed);
    expect(c?.orphaned).toBe(false);
    expect(text.slice(c?.selectionStart, c?.selectionEnd)).toMatch(
      /I give my feedback in writing,? first/,
    );
    expect(c?.selectedText).toBe("I give feedback in writing first");

    // "in writing" still occurs once, so it stays anchored; delete it entirely next.
    expect(byId.get(deleted)?.orphaned).toBe(false);
    const without =
      "<p>A new opening line about how I like to work.</p><p>Then I offer to talk it through.</p>";
    await edit(owner, ownerHeaders, prism.id, without);
    const [orphan] = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.id, deleted));
    expect(orphan?.orphaned).toBe(true);
    const listed = await listFor(prism.id, ownerHeaders);
    expect(listed.find((a) => a.id === deleted)).toMatchObject({
      orphaned: true,
      status: "pending",
    });
    expect(listed).toHaveLength(3);
  });

  it("saves a 20 KB prism with 100 annotations, one very long, following them all", async () => {
    const { owner, prism, ownerHeaders } = await scene();
    const sentence = "I write first, then we talk about what matters most to the team. ";
    const paragraphs = Array.from({ length: 300 }, (_, i) => `${sentence}(${i})`);
    const content = paragraphs.map((p) => `<p>${p}</p>`).join("");
    await edit(owner, ownerHeaders, prism.id, content);
    const text = htmlToPlainText(content);
    // One stored before the selection limit existed (5,000 characters), and 99 short ones.
    const spans = [
      [100, 5100],
      ...Array.from({ length: 99 }, (_, i) => [6000 + i * 140, 6030 + i * 140 + (i % 40)]),
    ] as const;
    await t.database.db.insert(annotations).values(
      spans.map(([start, end]) => ({
        prismId: prism.id,
        selectedText: text.slice(start, end),
        annotationText: "Noted",
        selectionStart: start,
        selectionEnd: end,
        ...quoteContext(text, start, end),
        prismTitle: prism.title,
      })),
    );
    // A new first paragraph moves every passage, and one word changes in every tenth paragraph.
    const edited = `<p>A new opening.</p>${paragraphs
      .map((p, i) => `<p>${i % 10 === 0 ? p.replace("team", "group") : p}</p>`)
      .join("")}`;
    await edit(owner, ownerHeaders, prism.id, edited);
    const rows = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.prismId, prism.id));
    expect(rows).toHaveLength(100);
    expect(rows.filter((row) => row.orphaned)).toEqual([]);
    const editedText = htmlToPlainText(edited);
    const unchanged = rows.filter((row) => editedText.includes(row.selectedText));
    expect(unchanged.length).toBeGreaterThan(80);
    for (const row of unchanged) {
      expect(editedText.slice(row.selectionStart, row.selectionEnd)).toBe(row.selectedText);
    }
  });
});

describe("who may respond, per prism", () => {
  it("members only: a visitor gets 403 with the reason, a member responds", async () => {
    const { prism, ownerHeaders } = await scene();
    await send(t.app, "PUT", `/api/prisms/${prism.id}/responders`, {
      headers: ownerHeaders,
      payload: { responders: "members" },
    });
    const refused = await annotate(prism.id, newVisitor());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: annotationMessages.membersOnly });
    const member = await signIn(t.database, await buildUser(t.database));
    expect((await annotate(prism.id, member)).statusCode).toBe(201);
  });

  it("no one: everybody gets 403, the owner too, and the annotations already made stay", async () => {
    const { prism, ownerHeaders } = await scene();
    const member = await signIn(t.database, await buildUser(t.database));
    expect((await annotate(prism.id, member)).statusCode).toBe(201);
    await send(t.app, "PUT", `/api/prisms/${prism.id}/responders`, {
      headers: ownerHeaders,
      payload: { responders: "no-one" },
    });
    for (const headers of [newVisitor(), member, ownerHeaders]) {
      const refused = await annotate(prism.id, headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: annotationMessages.closed });
    }
    const kept = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.prismId, prism.id));
    expect(kept).toHaveLength(1);
  });
});

describe("pre-approve members", () => {
  it("approves a member's response at once and keeps an anonymous one waiting; the owner is notified of both", async () => {
    const owner = await buildUser(t.database, { preapproveMembers: true });
    const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
    const member = await signIn(t.database, await buildUser(t.database));
    const byMember = await annotate(prism.id, member);
    expect(byMember.json()).toMatchObject({ status: "approved" });
    const byVisitor = await annotate(prism.id, newVisitor(), "Then I offer");
    expect(byVisitor.json()).toMatchObject({ status: "pending" });
    // Others see the member's response at once, not the visitor's.
    expect((await listFor(prism.id, newVisitor())).map((a) => a.id)).toEqual([byMember.json().id]);
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, owner.id));
    expect(told.map((n) => n.annotationId).sort()).toEqual(
      [byMember.json().id, byVisitor.json().id].sort(),
    );
    // The owner's list says where each stands, so decisions are offered only on the waiting one.
    const listed = await send(t.app, "GET", "/api/notifications?limit=10&offset=0", {
      headers: await signIn(t.database, owner),
    });
    expect(
      Object.fromEntries(
        (listed.json() as { annotationId: number; annotationStatus: string }[]).map((n) => [
          n.annotationId,
          n.annotationStatus,
        ]),
      ),
    ).toEqual({ [byMember.json().id]: "approved", [byVisitor.json().id]: "pending" });
  });

  it("is off by default: a member's response waits", async () => {
    const { prism } = await scene();
    const member = await signIn(t.database, await buildUser(t.database));
    expect((await annotate(prism.id, member)).json()).toMatchObject({ status: "pending" });
  });
});
