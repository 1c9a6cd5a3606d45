// Deciding on an annotation, called as the routes call it: the owner decides once, an admin may
// too and sets any status through their own call, each admin change audited; the annotation's
// notifications are marked read; the events; all or nothing.
import { and, asc, eq, ne } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotationMessages } from "../../contract/annotation-messages.ts";
import type { AnnotationStatus } from "../../contract/annotations.ts";
import { annotations, auditLog, notifications, type UserRow } from "../db/schema.ts";
import { buildAnnotation, buildNotification, buildPrism, buildUser } from "../test/builders.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { run } from "../test/write.ts";
import * as commands from "./annotations.ts";

const t = setupTestDatabase();

/** The decisions as their routes make them, with the events they announced. */
const decideOnAnnotation = (actor: UserRow, id: number, status: "approved" | "rejected") =>
  run(t.database, actor, (write) => commands.decideOnAnnotation(write, id, status), "view");
const setAnnotationStatusAsAdmin = (admin: UserRow, id: number, status: AnnotationStatus) =>
  run(t.database, admin, (write) => commands.setAnnotationStatusAsAdmin(write, id, status), "view");

/** A member's pending response to an owner's prism, and the owner's unread notification of it. */
async function scene() {
  const owner = await buildUser(t.database);
  const author = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, title: "How I work" });
  const annotation = await buildAnnotation(t.database, {
    prismId: prism.id,
    userId: author.id,
    annotationText: "Same here",
  });
  const notification = await buildNotification(t.database, {
    userId: owner.id,
    prismId: prism.id,
    type: "annotation",
    annotationId: annotation.id,
    actorKey: null,
  });
  return { owner, author, prism, annotation, notification };
}

async function stateOf(annotationId: number) {
  const { db } = t.database;
  const [annotation] = await db.select().from(annotations).where(eq(annotations.id, annotationId));
  return {
    status: annotation?.status,
    /** The owner's notifications asking for a decision. */
    read: (
      await db
        .select()
        .from(notifications)
        .where(
          and(eq(notifications.annotationId, annotationId), eq(notifications.type, "annotation")),
        )
    ).map((n) => n.read),
    /** What the author was told of it, unread until they read it. */
    told: (
      await db
        .select()
        .from(notifications)
        .where(
          and(eq(notifications.annotationId, annotationId), ne(notifications.type, "annotation")),
        )
    ).map((n) => ({ userId: n.userId, type: n.type, read: n.read })),
    audit: await auditOf(annotationId),
  };
}

const auditOf = (annotationId: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "annotation"), eq(auditLog.targetId, annotationId)))
    .orderBy(asc(auditLog.id));

describe("decideOnAnnotation", () => {
  it("lets the owner approve a pending annotation: read notification, no audit, everyone told", async () => {
    const { owner, author, prism, annotation } = await scene();
    const { view, events } = await decideOnAnnotation(owner, annotation.id, "approved");
    expect(view.row).toMatchObject({ id: annotation.id, status: "approved" });
    expect(await stateOf(annotation.id)).toEqual({
      status: "approved",
      read: [true],
      told: [{ userId: author.id, type: "approved", read: false }],
      audit: [],
    });
    expect(events).toEqual([
      { type: "annotation.changed", prismId: prism.id, username: owner.username },
      { type: "notifications.changed", userId: owner.id },
      { type: "notification.created", userId: author.id },
    ]);
  });

  it("lets the owner reject one; only the owner and its author hear of it", async () => {
    const { owner, author, prism, annotation } = await scene();
    const { events } = await decideOnAnnotation(owner, annotation.id, "rejected");
    expect(await stateOf(annotation.id)).toEqual({
      status: "rejected",
      read: [true],
      told: [{ userId: author.id, type: "rejected", read: false }],
      audit: [],
    });
    expect(events).toEqual([
      {
        type: "annotation.changed",
        prismId: prism.id,
        username: owner.username,
        audience: [owner.id, author.id],
      },
      { type: "notifications.changed", userId: owner.id },
      { type: "notification.created", userId: author.id },
    ]);
  });

  it("decides once: a second decision is a conflict and changes nothing", async () => {
    const { owner, annotation } = await scene();
    await decideOnAnnotation(owner, annotation.id, "approved");
    const before = await stateOf(annotation.id);
    await expect(decideOnAnnotation(owner, annotation.id, "rejected")).rejects.toMatchObject({
      statusCode: 409,
      message: annotationMessages.alreadyDecided,
    });
    expect(await stateOf(annotation.id)).toEqual(before);
  });

  it("refuses everyone else: 404 where they cannot see it, 403 where they can; nothing changes", async () => {
    const { owner, author, annotation } = await scene();
    const stranger = await buildUser(t.database);
    const before = await stateOf(annotation.id);
    const decide = (actor: typeof owner, id = annotation.id) =>
      decideOnAnnotation(actor, id, "approved");
    // A pending annotation is not there for a stranger at all.
    await expect(decide(stranger)).rejects.toMatchObject({
      statusCode: 404,
      message: "Annotation not found",
    });
    // Its author sees it, but may not decide on it.
    const forbidden = {
      statusCode: 403,
      message: "Only the prism's owner can approve or reject its annotations",
    };
    await expect(decide(author)).rejects.toMatchObject(forbidden);
    await expect(decide(owner, 2 ** 31 - 1)).rejects.toMatchObject({ statusCode: 404 });
    expect(await stateOf(annotation.id)).toEqual(before);

    // Approved, anyone sees it; still only the owner (or an admin) decides.
    const approved = await buildAnnotation(t.database, {
      prismId: annotation.prismId,
      status: "approved",
    });
    await expect(decide(stranger, approved.id)).rejects.toMatchObject(forbidden);
  });

  it("lets an admin decide on someone's pending annotation, and audits it", async () => {
    const { owner, author, prism, annotation } = await scene();
    const admin = await buildUser(t.database, { isAdmin: true });
    const { events } = await decideOnAnnotation(admin, annotation.id, "rejected");
    const state = await stateOf(annotation.id);
    expect(state).toMatchObject({
      status: "rejected",
      read: [true],
      told: [{ userId: author.id, type: "rejected", read: false }],
    });
    expect(state.audit).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        action: "annotation.status",
        targetType: "annotation",
        targetId: annotation.id,
        details: {
          target: '"Same here" on "How I work"',
          before: { status: "pending" },
          after: { status: "rejected" },
        },
      }),
    ]);
    expect(events).toContainEqual({
      type: "annotation.changed",
      prismId: prism.id,
      username: owner.username,
      audience: [owner.id, author.id],
    });
    await expect(decideOnAnnotation(admin, annotation.id, "approved")).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it("changes nothing when marking the notifications read fails", async () => {
    const { owner, annotation } = await scene();
    const before = await stateOf(annotation.id);
    await refuseWrites(t.database, "notifications", "update");
    await expectRefused(decideOnAnnotation(owner, annotation.id, "approved"));
    expect(await stateOf(annotation.id)).toEqual(before);
  });

  it("changes nothing when an admin's decision cannot be audited", async () => {
    const { annotation } = await scene();
    const admin = await buildUser(t.database, { isAdmin: true });
    const before = await stateOf(annotation.id);
    await refuseWrites(t.database, "audit_log", "insert");
    await expectRefused(decideOnAnnotation(admin, annotation.id, "approved"));
    expect(await stateOf(annotation.id)).toEqual(before);
  });
});

describe("setAnnotationStatusAsAdmin", () => {
  it("sets any status from any other, auditing each change and settling the notification", async () => {
    const { owner, author, prism, annotation } = await scene();
    const admin = await buildUser(t.database, { isAdmin: true });
    const set = (status: "pending" | "approved" | "rejected") =>
      setAnnotationStatusAsAdmin(admin, annotation.id, status);
    const approved = await set("approved");
    expect(approved.view.row.status).toBe("approved");
    // It was pending and is approved: whoever saw either may need to know, so everyone.
    expect(approved.events).toEqual([
      { type: "annotation.changed", prismId: prism.id, username: owner.username },
      { type: "notifications.changed", userId: owner.id },
    ]);
    const rejected = await set("rejected");
    expect(rejected.events[0]).toEqual({
      type: "annotation.changed",
      prismId: prism.id,
      username: owner.username,
    });
    const pending = await set("pending");
    expect(pending.events[0]).toMatchObject({ audience: [owner.id, author.id] });

    const state = await stateOf(annotation.id);
    expect(state).toMatchObject({ status: "pending", read: [true] });
    expect(state.audit.map((entry) => [entry.actorId, entry.action, entry.details])).toEqual(
      [
        ["pending", "approved"],
        ["approved", "rejected"],
        ["rejected", "pending"],
      ].map(([before, after]) => [
        admin.id,
        "annotation.status",
        {
          target: '"Same here" on "How I work"',
          before: { status: before },
          after: { status: after },
        },
      ]),
    );
  });

  it("answers 404 for a missing annotation, auditing nothing", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    await expect(setAnnotationStatusAsAdmin(admin, 2 ** 31 - 1, "approved")).rejects.toMatchObject({
      statusCode: 404,
      message: "Annotation not found",
    });
    expect(await auditOf(2 ** 31 - 1)).toEqual([]);
  });

  it("changes nothing when the change cannot be audited", async () => {
    const { annotation } = await scene();
    const admin = await buildUser(t.database, { isAdmin: true });
    const before = await stateOf(annotation.id);
    await refuseWrites(t.database, "audit_log", "insert");
    await expectRefused(setAnnotationStatusAsAdmin(admin, annotation.id, "rejected"));
    expect(await stateOf(annotation.id)).toEqual(before);
  });
});
