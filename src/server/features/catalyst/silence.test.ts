// Silencing a member (Catalyst's Silence / Unsilence): their responses are theirs and admins'
// alone, old and new, and ring nobody; audited; admins only, never oneself.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { catalystMessages } from "../../../contract/catalyst.ts";
import { auditLog, notifications, users } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { respondToQuote, send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";

const t = setupTestApp();

const CONTENT = "<p>I give feedback in writing first.</p><p>Then we talk.</p>";

async function scene() {
  const admin = await buildUser(t.database, { isAdmin: true });
  const owner = await buildUser(t.database, { preapproveMembers: true });
  const loud = await buildUser(t.database, { displayName: "Loud" });
  const reader = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
  const earlier = await buildAnnotation(t.database, {
    prismId: prism.id,
    userId: loud.id,
    status: "approved",
    selectedText: "I give",
    selectionStart: 0,
    selectionEnd: 6,
  });
  return {
    admin,
    owner,
    loud,
    prism,
    earlier,
    adminHeaders: await signIn(t.database, admin),
    ownerHeaders: await signIn(t.database, owner),
    loudHeaders: await signIn(t.database, loud),
    readerHeaders: await signIn(t.database, reader),
  };
}

const silence = (headers: Record<string, string>, userId: number, silenced = true) =>
  send(t.app, "PUT", `/api/analytics/users/${userId}/silence`, {
    headers,
    payload: { silenced },
  });

const idsShown = async (prismId: number, headers: Record<string, string> = {}) =>
  (await send(t.app, "GET", `/api/prisms/${prismId}/annotations`, { headers }))
    .json()
    .map((item: { id: number }) => item.id);

describe("PUT /api/analytics/users/{id}/silence", () => {
  it("hides a silenced member's responses from everyone but them and admins, and back", async () => {
    const { admin, loud, prism, earlier, adminHeaders, ownerHeaders, loudHeaders, readerHeaders } =
      await scene();
    expect(await idsShown(prism.id)).toEqual([earlier.id]);

    const silenced = await silence(adminHeaders, loud.id);
    expect(silenced.statusCode).toBe(200);
    expect(silenced.json()).toMatchObject({ id: loud.id, silencedAt: expect.any(String) });

    for (const headers of [{}, ownerHeaders, readerHeaders, { cookie: visitorCookie("nipsa") }]) {
      expect(await idsShown(prism.id, headers)).toEqual([]);
      const one = await send(t.app, "GET", `/api/annotations/${earlier.id}`, { headers });
      expect(one.statusCode).toBe(404);
    }
    // The author notices nothing; admins see everything.
    expect(await idsShown(prism.id, loudHeaders)).toEqual([earlier.id]);
    const own = await send(t.app, "GET", `/api/annotations/${earlier.id}`, {
      headers: loudHeaders,
    });
    expect(own.json()).toMatchObject({ status: "approved", isOwn: true });
    expect(await idsShown(prism.id, adminHeaders)).toEqual([earlier.id]);
    // Nobody can flag what they cannot see.
    const flagged = await send(t.app, "POST", `/api/annotations/${earlier.id}/flag`, {
      headers: readerHeaders,
      payload: { reason: "abuse" },
    });
    expect(flagged.statusCode).toBe(404);

    // Catalyst's Annotations tab marks the response as a silenced member's.
    const tab = async () =>
      (
        await send(t.app, "GET", `/api/analytics/annotations?q=${loud.username}`, {
          headers: adminHeaders,
        })
      ).json().items;
    expect(await tab()).toEqual([
      expect.objectContaining({
        annotation: expect.objectContaining({ id: earlier.id, silenced: true }),
      }),
    ]);

    const heard = await silence(adminHeaders, loud.id, false);
    expect(await tab()).toEqual([
      expect.objectContaining({ annotation: expect.objectContaining({ silenced: false }) }),
    ]);
    expect(heard.json()).toMatchObject({ silencedAt: null });
    expect(await idsShown(prism.id)).toEqual([earlier.id]);

    const lines = await t.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.targetId, loud.id));
    expect(lines).toEqual([
      {
        action: "user.silence",
        actorId: admin.id,
        details: {
          target: `@${loud.username}`,
          before: { silenced: false },
          after: { silenced: true },
        },
      },
      {
        action: "user.unsilence",
        actorId: admin.id,
        details: {
          target: `@${loud.username}`,
          before: { silenced: true },
          after: { silenced: false },
        },
      },
    ]);
  });

  it("keeps a silenced member's new responses theirs, telling the owner nothing", async () => {
    const { owner, loud, prism, adminHeaders, ownerHeaders, loudHeaders } = await scene();
    await silence(adminHeaders, loud.id);
    const sent = await respondToQuote(t.app, prism.id, CONTENT, "Then we talk", loudHeaders);
    // Answered as any response the owner pre-approves.
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ status: "approved", isOwn: true });
    expect(await idsShown(prism.id, loudHeaders)).toContain(sent.json().id);
    expect(await idsShown(prism.id, ownerHeaders)).not.toContain(sent.json().id);
    expect(await idsShown(prism.id)).not.toContain(sent.json().id);
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.userId, owner.id), eq(notifications.annotationId, sent.json().id)),
      );
    expect(told).toEqual([]);
    const unread = await send(t.app, "GET", "/api/notifications/unread-count", {
      headers: ownerHeaders,
    });
    expect(unread.json()).toEqual({ count: 0 });
    // Nor is it in the owner's review queue, pending or not, nor in their data's download.
    const queue = await send(t.app, "GET", "/api/annotations/review", { headers: ownerHeaders });
    expect(queue.json().items).toEqual([]);
    const exported = await send(t.app, "GET", "/api/user/export", { headers: ownerHeaders });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain("About Then we talk");
    const own = await send(t.app, "GET", "/api/user/export", { headers: loudHeaders });
    expect(own.body).toContain("About Then we talk");
  });

  it("hides what a member's responses had told owners until they are heard again", async () => {
    const { owner, loud, prism, adminHeaders, loudHeaders } = await scene();
    await t.database.db
      .update(users)
      .set({ preapproveMembers: false })
      .where(eq(users.id, owner.id));
    const ownerHeaders = await signIn(t.database, owner);
    const sent = await respondToQuote(t.app, prism.id, CONTENT, "Then we talk", loudHeaders);
    expect(sent.json()).toMatchObject({ status: "pending" });
    const tray = async () => {
      const list = await send(t.app, "GET", "/api/notifications", { headers: ownerHeaders });
      const unread = await send(t.app, "GET", "/api/notifications/unread-count", {
        headers: ownerHeaders,
      });
      return {
        lines: list.json().map((line: { annotationId: number | null }) => line.annotationId),
        unread: unread.json().count,
      };
    };
    expect(await tray()).toEqual({ lines: [sent.json().id], unread: 1 });

    await silence(adminHeaders, loud.id);
    expect(await tray()).toEqual({ lines: [], unread: 0 });
    // Hidden, not deleted: the author is heard again, and the line is back, still unread.
    await silence(adminHeaders, loud.id, false);
    expect(await tray()).toEqual({ lines: [sent.json().id], unread: 1 });
  });

  it("is for admins only, and never for oneself", async () => {
    const { admin, loud, adminHeaders, loudHeaders } = await scene();
    expect((await silence({}, loud.id)).statusCode).toBe(401);
    expect((await silence(loudHeaders, admin.id)).statusCode).toBe(403);
    const self = await silence(adminHeaders, admin.id);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(catalystMessages.selfSilence);
    expect((await silence(adminHeaders, 999_999)).statusCode).toBe(404);
    const users = await send(t.app, "GET", `/api/analytics/users?q=${loud.username}`, {
      headers: adminHeaders,
    });
    expect(users.json().items[0]).toMatchObject({ silencedAt: null });
  });
});
