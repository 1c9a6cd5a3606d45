// The owner's reply to a response: who may write it, what it does to a pending response, and who
// sees it.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import { limits } from "../../../contract/limits.ts";
import { annotations, notifications } from "../../db/schema.ts";
import { buildAnnotation, buildNotification, buildPrism, buildUser } from "../../test/builders.ts";
import { isEvent, openStream } from "../../test/event-stream.ts";
import { send, setupTestApp, signIn } from "../../test/helpers.ts";

const t = setupTestApp();
let base = "";
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});

async function scene(status: "pending" | "approved" | "rejected" = "approved") {
  const owner = await buildUser(t.database);
  const author = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  const annotation = await buildAnnotation(t.database, {
    prismId: prism.id,
    userId: author.id,
    status,
  });
  return {
    owner,
    author,
    prism,
    annotation,
    ownerHeaders: await signIn(t.database, owner),
    authorHeaders: await signIn(t.database, author),
  };
}

const putReply = (id: number, headers: Record<string, string>, text: unknown = "Thank you.") =>
  send(t.app, "PUT", `/api/annotations/${id}/reply`, { headers, payload: { text } });
const deleteReply = (id: number, headers: Record<string, string>) =>
  send(t.app, "DELETE", `/api/annotations/${id}/reply`, { headers });

async function stored(id: number) {
  const [row] = await t.database.db.select().from(annotations).where(eq(annotations.id, id));
  if (!row) throw new Error("annotation gone");
  return row;
}

async function seenBy(prismId: number, annotationId: number, headers: Record<string, string> = {}) {
  const response = await send(t.app, "GET", `/api/prisms/${prismId}/annotations`, { headers });
  expect(response.statusCode).toBe(200);
  return (response.json() as { id: number; status: string; reply: unknown }[]).find(
    (a) => a.id === annotationId,
  );
}

describe("PUT /api/annotations/:id/reply", () => {
  it("keeps the owner's trimmed reply, which every reader of the response sees under it", async () => {
    const { prism, annotation, ownerHeaders } = await scene();
    const response = await putReply(annotation.id, ownerHeaders, "  Thank you, that is it.  ");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      id: annotation.id,
      status: "approved",
      reply: { text: "Thank you, that is it." },
    });
    expect(body.reply.createdAt).toBe(body.reply.updatedAt);
    expect(await seenBy(prism.id, annotation.id)).toMatchObject({
      reply: { text: "Thank you, that is it.", createdAt: body.reply.createdAt },
    });
    const one = await send(t.app, "GET", `/api/annotations/${annotation.id}`);
    expect(one.json().reply.text).toBe("Thank you, that is it.");
  });

  it("approves a pending response and settles the owner's notification of it", async () => {
    const { owner, prism, annotation, ownerHeaders } = await scene("pending");
    await buildNotification(t.database, {
      userId: owner.id,
      prismId: prism.id,
      type: "annotation",
      annotationId: annotation.id,
    });
    expect(await seenBy(prism.id, annotation.id)).toBeUndefined();

    const response = await putReply(annotation.id, ownerHeaders);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "approved", canModerate: false });
    expect(await seenBy(prism.id, annotation.id)).toMatchObject({
      status: "approved",
      reply: { text: "Thank you." },
    });
    const [notification] = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.annotationId, annotation.id));
    expect(notification?.read).toBe(true);
  });

  it("rewrites the reply: written when first sent, updated when changed, not when resent", async () => {
    const { annotation, ownerHeaders } = await scene();
    const first = (await putReply(annotation.id, ownerHeaders, "First thought")).json();
    const resent = (await putReply(annotation.id, ownerHeaders, "First thought")).json();
    expect(resent.reply).toEqual(first.reply);
    const rewritten = (await putReply(annotation.id, ownerHeaders, "Second thought")).json();
    expect(rewritten.reply.text).toBe("Second thought");
    expect(rewritten.reply.createdAt).toBe(first.reply.createdAt);
    expect(Date.parse(rewritten.reply.updatedAt)).toBeGreaterThan(
      Date.parse(first.reply.updatedAt),
    );
  });

  it("is the prism owner's alone: not the author's, another member's, an admin's or a visitor's", async () => {
    const { annotation, authorHeaders } = await scene();
    const stranger = await signIn(t.database, await buildUser(t.database));
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    for (const headers of [authorHeaders, stranger, admin]) {
      const response = await putReply(annotation.id, headers);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(annotationMessages.replyOwnerOnly);
    }
    expect((await putReply(annotation.id, {})).statusCode).toBe(401);
    expect((await stored(annotation.id)).replyText).toBeNull();
  });

  it("answers 404 for a response the caller may not see, or that does not exist", async () => {
    const { annotation } = await scene("pending");
    const stranger = await signIn(t.database, await buildUser(t.database));
    expect((await putReply(annotation.id, stranger)).statusCode).toBe(404);
    expect((await putReply(2 ** 31 - 1, stranger)).statusCode).toBe(404);
    expect((await deleteReply(annotation.id, stranger)).statusCode).toBe(404);
  });

  it("refuses to answer a rejected response, and changes nothing", async () => {
    const { annotation, ownerHeaders } = await scene("rejected");
    const response = await putReply(annotation.id, ownerHeaders);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(annotationMessages.replyRejected);
    const row = await stored(annotation.id);
    expect(row.status).toBe("rejected");
    expect(row.replyText).toBeNull();
  });

  it("refuses an empty, overlong or malformed reply, and changes nothing", async () => {
    const { annotation, ownerHeaders } = await scene("pending");
    const cases: [unknown, string | null][] = [
      ["   ", annotationMessages.replyRequired],
      ["x".repeat(limits.replyMax + 1), annotationMessages.replyTooLong],
      [42, null],
    ];
    for (const [text, message] of cases) {
      const response = await putReply(annotation.id, ownerHeaders, text);
      expect(response.statusCode).toBe(400);
      if (message) expect(JSON.stringify(response.json())).toContain(message);
    }
    const extra = await send(t.app, "PUT", `/api/annotations/${annotation.id}/reply`, {
      headers: ownerHeaders,
      payload: { text: "Fine", status: "rejected" },
    });
    expect(extra.statusCode).toBe(400);
    const row = await stored(annotation.id);
    expect(row.status).toBe("pending");
    expect(row.replyText).toBeNull();
    expect(
      (await putReply(annotation.id, ownerHeaders, "x".repeat(limits.replyMax))).statusCode,
    ).toBe(200);
  });

  it("tells open pages of the prism that its responses changed", async () => {
    const { prism, annotation, ownerHeaders } = await scene();
    const visitor = await openStream(base);
    await visitor.connected();
    expect((await putReply(annotation.id, ownerHeaders)).statusCode).toBe(200);
    await visitor.waitFor(isEvent("annotation.changed", { prismId: prism.id }));
    await visitor.close();
  });
});

describe("DELETE /api/annotations/:id/reply", () => {
  it("takes the owner's reply back and leaves the response as it was", async () => {
    const { prism, annotation, ownerHeaders } = await scene("pending");
    await putReply(annotation.id, ownerHeaders);
    const response = await deleteReply(annotation.id, ownerHeaders);
    expect(response.statusCode).toBe(204);
    expect(await seenBy(prism.id, annotation.id)).toMatchObject({
      status: "approved",
      reply: null,
    });
    expect((await deleteReply(annotation.id, ownerHeaders)).statusCode).toBe(204);
  });

  it("is the prism owner's alone", async () => {
    const { annotation, ownerHeaders, authorHeaders } = await scene();
    await putReply(annotation.id, ownerHeaders);
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    expect((await deleteReply(annotation.id, authorHeaders)).statusCode).toBe(403);
    expect((await deleteReply(annotation.id, admin)).statusCode).toBe(403);
    expect((await deleteReply(annotation.id, {})).statusCode).toBe(401);
    expect((await stored(annotation.id)).replyText).toBe("Thank you.");
  });
});

describe("what a member author hears of their response", () => {
  async function authorsNotifications(headers: Record<string, string>) {
    const response = await send(t.app, "GET", "/api/notifications?limit=10", { headers });
    expect(response.statusCode).toBe(200);
    return response.json() as { type: string; actorName: string; read: boolean }[];
  }

  it("is told when the owner approves, rejects or first answers it, by the owner's name", async () => {
    const owner = await buildUser(t.database, { displayName: "Maya Okafor" });
    const author = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const ownerHeaders = await signIn(t.database, owner);
    const authorHeaders = await signIn(t.database, author);
    const one = await buildAnnotation(t.database, { prismId: prism.id, userId: author.id });
    const two = await buildAnnotation(t.database, { prismId: prism.id, userId: author.id });
    const three = await buildAnnotation(t.database, { prismId: prism.id, userId: author.id });
    await buildNotification(t.database, {
      userId: owner.id,
      prismId: prism.id,
      type: "annotation",
      annotationId: one.id,
    });

    const stream = await openStream(base, authorHeaders);
    await stream.connected();
    const decide = (id: number, status: string) =>
      send(t.app, "PUT", `/api/annotations/${id}/status`, {
        headers: ownerHeaders,
        payload: { status },
      });
    expect((await decide(one.id, "approved")).statusCode).toBe(200);
    await stream.waitFor(isEvent("notification.created"));
    expect((await decide(two.id, "rejected")).statusCode).toBe(200);
    // Replying to a pending response approves it: one notification, the reply.
    expect((await putReply(three.id, ownerHeaders, "First")).statusCode).toBe(200);
    expect((await putReply(three.id, ownerHeaders, "Rewritten")).statusCode).toBe(200);
    await stream.close();

    const told = await authorsNotifications(authorHeaders);
    expect(told.map((n) => n.type)).toEqual(["reply", "rejected", "approved"]);
    expect(told.every((n) => n.actorName === "Maya Okafor" && !n.read)).toBe(true);
    // The owner's own notification of the response was settled by the decision.
    const ownerTold = await authorsNotifications(ownerHeaders);
    expect(ownerTold).toEqual([expect.objectContaining({ type: "annotation", read: true })]);
  });

  it("is not made for the owner's own response, nor for an anonymous one", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const ownerHeaders = await signIn(t.database, owner);
    const own = await buildAnnotation(t.database, { prismId: prism.id, userId: owner.id });
    const anonymous = await buildAnnotation(t.database, { prismId: prism.id });
    expect((await putReply(own.id, ownerHeaders)).statusCode).toBe(200);
    expect((await putReply(anonymous.id, ownerHeaders)).statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.prismId, prism.id));
    expect(rows).toEqual([]);
  });
});
