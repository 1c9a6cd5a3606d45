import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notificationExcerpt } from "../../../contract/notifications.ts";
import { notifications } from "../../db/schema.ts";
import { buildAnnotation, buildNotification, buildPrism, buildUser } from "../../test/builders.ts";
import { asSent, send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";
import { markAnnotationNotificationsRead } from "./service.ts";

const t = setupTestApp();

async function ownerWithPrism(title = "How I work") {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, title });
  return { owner, prism, headers: await signIn(t.database, owner) };
}

/** A notification to the owner about their prism. */
const notify = (
  { owner, prism }: Awaited<ReturnType<typeof ownerWithPrism>>,
  extra: Partial<typeof notifications.$inferInsert> = {},
) => buildNotification(t.database, { userId: owner.id, prismId: prism.id, ...extra });

const get = (url: string, headers: Record<string, string> = {}) =>
  send(t.app, "GET", url, { headers });
const post = (url: string, headers: Record<string, string> = {}) =>
  send(t.app, "POST", url, { headers });
const remove = (url: string, headers: Record<string, string> = {}) =>
  send(t.app, "DELETE", url, { headers });

async function rowOf(id: number) {
  const [row] = await t.database.db.select().from(notifications).where(eq(notifications.id, id));
  return row;
}

async function unread(headers: Record<string, string>) {
  return (await get("/api/notifications/unread-count", headers)).json().count as number;
}

describe("notifications", () => {
  it("requires a signed-in member for every call", async () => {
    const note = await notify(await ownerWithPrism());
    const calls = [
      get("/api/notifications"),
      get("/api/notifications?limit=500"),
      get("/api/notifications/unread-count"),
      get("/api/notifications/unread-count", { "if-none-match": '"anything"' }),
      post(`/api/notifications/${note.id}/read`),
      post("/api/notifications/read-all"),
      remove(`/api/notifications/${note.id}`),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: "You are not signed in" });
    }
    expect(await rowOf(note.id)).toMatchObject({ read: false });
  });

  it("lists newest first with the prism's title and owner, in pages, never the actor key", async () => {
    const scene = await ownerWithPrism("Mornings");
    const { owner, headers } = scene;
    const other = await buildPrism(t.database, { userId: owner.id, title: "Evenings", index: 1 });
    const evenings = { ...scene, prism: other };
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    const oldest = await notify(scene, { createdAt: day(1), type: "annotation", actorKey: null });
    const tieLow = await notify(evenings, {
      createdAt: day(2),
      type: "annotation",
      actorKey: null,
    });
    const tieHigh = await notify(scene, { createdAt: day(2) });
    const newest = await notify(evenings, { createdAt: day(3), actorName: null });
    // Someone else's notification never shows up in this list.
    await notify(await ownerWithPrism());

    const response = await get("/api/notifications", headers);
    expect(response.statusCode).toBe(200);
    const items = response.json() as Record<string, unknown>[];
    expect(items.map((item) => item.id)).toEqual([newest.id, tieHigh.id, tieLow.id, oldest.id]);
    expect(items[0]).toEqual({
      id: newest.id,
      userId: owner.id,
      prismId: other.id,
      type: "heart",
      actorName: null,
      actorCount: 1,
      actors: [null],
      read: false,
      createdAt: day(3).toISOString(),
      annotationId: null,
      annotationStatus: null,
      prismTitle: "Evenings",
      prismOwnerUsername: owner.username,
      quote: null,
      passage: null,
    });
    expect(items[1]).toMatchObject({ prismTitle: "Mornings", actorName: tieHigh.actorName });
    expect(items[2]).toMatchObject({ type: "annotation" });
    expect(items.some((item) => "actorKey" in item)).toBe(false);
    expect(response.body).not.toContain("visitor:");

    const page = await get("/api/notifications?limit=2&offset=1", headers);
    expect(page.json().map((item: { id: number }) => item.id)).toEqual([tieHigh.id, tieLow.id]);
    const past = await get("/api/notifications?limit=2&offset=4", headers);
    expect(past.json()).toEqual([]);

    for (const query of ["limit=51", "limit=0", "offset=-1", "limit=abc"]) {
      const bad = await get(`/api/notifications?${query}`, headers);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().message).toEqual(expect.any(String));
    }
    expect((await get("/api/notifications?limit=50", headers)).statusCode).toBe(200);
  });

  it("pages 10 at a time by default", async () => {
    const scene = await ownerWithPrism();
    const { headers } = scene;
    for (let i = 0; i < 12; i++) await notify(scene, { type: "annotation", actorKey: null });
    expect((await get("/api/notifications", headers)).json()).toHaveLength(10);
    expect((await get("/api/notifications?offset=10", headers)).json()).toHaveLength(2);
  });

  it("counts unread notifications, answering an unchanged poll with 304 until they change", async () => {
    const scene = await ownerWithPrism();
    const { headers } = scene;
    const annotation = { type: "annotation" as const, actorKey: null };
    const first = await notify(scene, annotation);
    await notify(scene, annotation);
    await notify(scene, { ...annotation, read: true });

    const url = "/api/notifications/unread-count";
    const response = await get(url, headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 2 });
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    expect((await get(url, { ...headers, "if-none-match": etag })).statusCode).toBe(304);
    // Another member's session never shares the tag.
    const other = await signIn(t.database, await buildUser(t.database));
    const theirs = await get(url, { ...other, "if-none-match": etag });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ count: 0 });

    expect((await post(`/api/notifications/${first.id}/read`, headers)).statusCode).toBe(200);
    const changed = await get(url, { ...headers, "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ count: 1 });
  });

  it("marks one notification read, and again without harm", async () => {
    const scene = await ownerWithPrism("Reading");
    const { owner, headers } = scene;
    const note = await notify(scene);
    const response = await post(`/api/notifications/${note.id}/read`, headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: note.id,
      read: true,
      prismTitle: "Reading",
      prismOwnerUsername: owner.username,
    });
    expect(response.json()).not.toHaveProperty("actorKey");
    expect(await rowOf(note.id)).toMatchObject({ read: true });
    expect(await unread(headers)).toBe(0);
    const again = await post(`/api/notifications/${note.id}/read`, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: note.id, read: true });
    expect((await post("/api/notifications/987654/read", headers)).statusCode).toBe(404);
    expect((await post("/api/notifications/1abc/read", headers)).statusCode).toBe(400);
  });

  it("marks all of one's own notifications read, and nobody else's", async () => {
    const scene = await ownerWithPrism();
    const { headers } = scene;
    const stranger = await ownerWithPrism();
    // Lines of their own (a prism's hearts would be one line).
    const line = { type: "annotation" as const, actorKey: null };
    await notify(scene, line);
    await notify(scene, line);
    await notify(scene, { ...line, read: true });
    const theirs = await notify(stranger);

    const response = await post("/api/notifications/read-all", headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 2 });
    expect(await unread(headers)).toBe(0);
    expect(await rowOf(theirs.id)).toMatchObject({ read: false });
    expect(await unread(stranger.headers)).toBe(1);
    expect((await post("/api/notifications/read-all", headers)).json()).toEqual({ count: 0 });
  });

  it("deletes one's own notification", async () => {
    const scene = await ownerWithPrism();
    const { headers } = scene;
    const note = await notify(scene);
    const response = await remove(`/api/notifications/${note.id}`, headers);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe("");
    expect(await rowOf(note.id)).toBeUndefined();
    expect((await get("/api/notifications", headers)).json()).toEqual([]);
    expect((await remove(`/api/notifications/${note.id}`, headers)).statusCode).toBe(404);
  });

  it("answers 404 for another member's notification and leaves it unchanged", async () => {
    const note = await notify(await ownerWithPrism());
    const intruder = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));

    const read = await post(`/api/notifications/${note.id}/read`, intruder);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({ message: "Notification not found" });
    const removed = await remove(`/api/notifications/${note.id}`, intruder);
    expect(removed.statusCode).toBe(404);
    expect(removed.json()).toEqual({ message: "Notification not found" });
    expect(await rowOf(note.id)).toEqual(note);
  });

  it("notifies the owner once per hearting actor, through un-heart and re-heart, never for their own heart", async () => {
    const { owner, prism, headers } = await ownerWithPrism("Hearted");
    const heart = (extra: Record<string, string>) => post(`/api/prisms/${prism.id}/heart`, extra);
    const visitor = { cookie: visitorCookie("visitor-notifications-0001") };

    const countUrl = "/api/notifications/unread-count";
    const etag = String((await get(countUrl, headers)).headers.etag);
    expect((await heart(visitor)).json()).toEqual({ hearted: true, heartsCount: 1 });
    expect((await heart(visitor)).json()).toEqual({ hearted: false, heartsCount: 0 });
    expect((await heart(visitor)).json()).toEqual({ hearted: true, heartsCount: 1 });
    expect((await heart(headers)).json()).toEqual({ hearted: true, heartsCount: 2 });

    const items = (await get("/api/notifications", headers)).json();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      userId: owner.id,
      prismId: prism.id,
      type: "heart",
      actorName: null,
      read: false,
      annotationId: null,
      prismTitle: "Hearted",
      prismOwnerUsername: owner.username,
    });
    // The new notification moved the unread count's tag.
    const after = await get(countUrl, { ...headers, "if-none-match": etag });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ count: 1 });
  });

  it("says whether the annotation it is about is still pending, read or not", async () => {
    const scene = await ownerWithPrism();
    const { prism, headers } = scene;
    const pending = await buildAnnotation(t.database, { prismId: prism.id });
    const decided = await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
    const aboutPending = await notify(scene, {
      type: "annotation",
      actorKey: null,
      annotationId: pending.id,
      read: true,
    });
    const aboutDecided = await notify(scene, {
      type: "annotation",
      actorKey: null,
      annotationId: decided.id,
    });
    const heart = await notify(scene);

    const items = (await get("/api/notifications", headers)).json() as {
      id: number;
      annotationStatus: string | null;
    }[];
    const statusOf = (id: number) => items.find((item) => item.id === id)?.annotationStatus;
    expect(statusOf(aboutPending.id)).toBe("pending");
    expect(statusOf(aboutDecided.id)).toBe("approved");
    expect(statusOf(heart.id)).toBeNull();
    const read = await post(`/api/notifications/${aboutPending.id}/read`, headers);
    expect(read.json()).toMatchObject({ read: true, annotationStatus: "pending" });
  });

  it("quotes the first words of a response and of its passage, on one line; a reply's words and the response", async () => {
    const scene = await ownerWithPrism();
    const { prism, headers } = scene;
    const long = `${"word ".repeat(40)}end`;
    const response = await buildAnnotation(t.database, {
      prismId: prism.id,
      selectedText: "Mornings are\nfor deep work",
      annotationText: long,
    });
    const answered = await buildAnnotation(t.database, {
      prismId: prism.id,
      annotationText: "Same here",
      replyText: "Glad it helps",
    });
    const aboutResponse = await notify(scene, { type: "annotation", annotationId: response.id });
    const aboutReply = await notify(scene, { type: "reply", annotationId: answered.id });
    const heart = await notify(scene);

    const items = (await get("/api/notifications", headers)).json() as {
      id: number;
      quote: string | null;
      passage: string | null;
    }[];
    const quoted = (id: number) => {
      const item = items.find((each) => each.id === id);
      return { quote: item?.quote, passage: item?.passage };
    };
    const cut = quoted(aboutResponse.id);
    expect(cut.passage).toBe("Mornings are for deep work");
    expect(cut.quote).toMatch(/^word word .*word…$/);
    expect(cut.quote?.length).toBeLessThanOrEqual(notificationExcerpt.quote + 1);
    expect(quoted(aboutReply.id)).toEqual({ quote: "Glad it helps", passage: "Same here" });
    expect(quoted(heart.id)).toEqual({ quote: null, passage: null });
  });

  it("names actors as the page shows them: members by display name, else full name", async () => {
    const { owner, prism, headers } = await ownerWithPrism("Named");
    const named = await buildUser(t.database, { displayName: "Dee Named" });
    const plain = await buildUser(t.database, { firstName: "Pat", lastName: "Plain" });
    for (const member of [named, plain]) {
      const hearted = await post(`/api/prisms/${prism.id}/heart`, await signIn(t.database, member));
      expect(hearted.statusCode).toBe(200);
    }
    const respond = async (who: Record<string, string>, extra: object) =>
      send(t.app, "POST", "/api/annotations", {
        headers: who,
        payload: await asSent(t.app, who, {
          prismId: prism.id,
          annotationText: "Yes.",
          selectedText: "Mornings",
          selectionStart: 0,
          selectionEnd: 8,
          ...extra,
        }),
      });
    expect(
      (await respond({ cookie: visitorCookie("named-visitor-000001") }, { annotatorName: "Sam" }))
        .statusCode,
    ).toBe(201);
    expect((await respond({ cookie: visitorCookie("nameless-visitor-0001") }, {})).statusCode).toBe(
      201,
    );
    expect((await respond(await signIn(t.database, plain), {})).statusCode).toBe(201);

    const items = (await get("/api/notifications", headers)).json() as {
      type: string;
      actorName: string | null;
      actors: (string | null)[];
      userId: number;
    }[];
    expect(items.every((item) => item.userId === owner.id)).toBe(true);
    // The hearts on one prism are one line, named by the newest actor first.
    expect(items.map((item) => [item.type, item.actorName, item.actors])).toEqual([
      ["annotation", "Pat Plain", ["Pat Plain"]],
      ["annotation", null, [null]],
      ["annotation", "Sam (visitor)", ["Sam (visitor)"]],
      ["heart", "Pat Plain", ["Pat Plain", "Dee Named"]],
    ]);
  });

  it("makes the hearts on one prism one line, read and deleted as one; responses stay one each", async () => {
    const scene = await ownerWithPrism("How I work");
    const { owner, headers } = scene;
    const elsewhere = await buildPrism(t.database, {
      userId: owner.id,
      title: "Evenings",
      index: 1,
    });
    const minute = (n: number) => new Date(Date.UTC(2026, 1, 1, 9, n));
    const hearts = [];
    for (let i = 0; i < 13; i++) {
      hearts.push(await notify(scene, { createdAt: minute(i), actorName: `Reader ${i}` }));
    }
    const other = await notify({ ...scene, prism: elsewhere }, { createdAt: minute(20) });
    const response = { type: "annotation" as const, actorKey: null };
    const first = await notify(scene, { ...response, createdAt: minute(30) });
    const second = await notify(scene, { ...response, createdAt: minute(31) });

    const list = async () =>
      (await get("/api/notifications", headers)).json() as {
        id: number;
        type: string;
        actorCount: number;
        actors: (string | null)[];
        read: boolean;
      }[];
    const lines = await list();
    expect(lines.map((line) => [line.id, line.actorCount])).toEqual([
      [second.id, 1],
      [first.id, 1],
      [other.id, 1],
      [hearts[12]?.id, 13],
    ]);
    expect(lines[3]?.actors).toEqual(["Reader 12", "Reader 11", "Reader 10"]);
    expect(await unread(headers)).toBe(4);

    // Marking the line read marks all 13.
    const marked = await post(`/api/notifications/${hearts[12]?.id}/read`, headers);
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ actorCount: 13, read: true });
    expect(await unread(headers)).toBe(3);
    expect((await rowOf(hearts[0]?.id ?? 0))?.read).toBe(true);
    // A new heart brings the line back, unread, at the top of the list.
    const latest = await notify(scene, { createdAt: minute(40), actorName: "Maya Okafor" });
    expect((await list())[0]).toMatchObject({
      id: latest.id,
      actorCount: 14,
      actors: ["Maya Okafor", "Reader 12", "Reader 11"],
      read: false,
    });
    // Deleting the line deletes the group; other lines stay.
    expect((await remove(`/api/notifications/${latest.id}`, headers)).statusCode).toBe(204);
    expect((await list()).map((line) => line.id)).toEqual([second.id, first.id, other.id]);
  });

  it("marks an annotation's notifications read and names the recipients that changed", async () => {
    const scene = await ownerWithPrism();
    const { owner, prism, headers } = scene;
    const decided = await buildAnnotation(t.database, { prismId: prism.id });
    const untouched = await buildAnnotation(t.database, { prismId: prism.id });
    const annotationNote = (annotationId: number, extra: { read?: boolean } = {}) =>
      notify(scene, { type: "annotation", actorKey: null, annotationId, ...extra });
    const target = await annotationNote(decided.id);
    const alreadyRead = await annotationNote(decided.id, { read: true });
    const other = await annotationNote(untouched.id);

    const users = await t.database.db.transaction((tx) =>
      markAnnotationNotificationsRead(tx, [decided.id]),
    );
    expect(users).toEqual([owner.id]);
    expect(await rowOf(target.id)).toMatchObject({ read: true });
    expect(await rowOf(alreadyRead.id)).toMatchObject({ read: true });
    expect(await rowOf(other.id)).toMatchObject({ read: false });
    expect(await unread(headers)).toBe(1);
    expect(await markAnnotationNotificationsRead(t.database.db, [decided.id])).toEqual([]);
  });
});
