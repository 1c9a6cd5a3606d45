// An admin's deletions, called as Catalyst's routes call them: anyone's prism or annotation goes
// with what hangs on it, the audit log records it, the pages that may see it hear of it, and a
// failure partway (the audit line) changes nothing.
import { and, asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  annotations,
  auditLog,
  notifications,
  prismHearts,
  prisms,
  type UserRow,
} from "../db/schema.ts";
import {
  buildAnnotation,
  buildHeart,
  buildNotification,
  buildPrism,
  buildUser,
} from "../test/builders.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { run } from "../test/write.ts";
import * as annotationCommands from "./annotations.ts";
import * as prismCommands from "./prisms.ts";

const t = setupTestDatabase();

/** The admin's deletions as their routes make them, with the events they announced. */
const deletePrismAsAdmin = (admin: UserRow, id: number) =>
  run(t.database, admin, (write) => prismCommands.deletePrismAsAdmin(write, id));
const deleteAnnotationAsAdmin = (admin: UserRow, id: number) =>
  run(t.database, admin, (write) => annotationCommands.deleteAnnotationAsAdmin(write, id));

/** A member's three prisms; the middle one hearted and answered, with the owner's notifications. */
async function scene(ownerFields: { deactivatedAt?: Date } = {}) {
  const admin = await buildUser(t.database, { isAdmin: true });
  const owner = await buildUser(t.database, ownerFields);
  const author = await buildUser(t.database);
  const above = await buildPrism(t.database, { userId: owner.id, title: "Above", index: 0 });
  const prism = await buildPrism(t.database, {
    userId: owner.id,
    title: "Going away",
    index: 1,
    heartsCount: 1,
  });
  const below = await buildPrism(t.database, { userId: owner.id, title: "Below", index: 2 });
  await buildHeart(t.database, { prismId: prism.id });
  const annotation = await buildAnnotation(t.database, {
    prismId: prism.id,
    userId: author.id,
    prismTitle: "Going away",
  });
  await buildNotification(t.database, { userId: owner.id, prismId: prism.id });
  await buildNotification(t.database, {
    userId: owner.id,
    prismId: prism.id,
    type: "annotation",
    annotationId: annotation.id,
    actorKey: null,
  });
  return { admin, owner, author, above, prism, below, annotation };
}

type Scene = Awaited<ReturnType<typeof scene>>;

/** The owner's prisms and what hangs on them, to compare before and after. */
async function stateOf(s: Scene) {
  const { db } = t.database;
  const ids = [s.above.id, s.prism.id, s.below.id];
  return {
    prisms: (
      await db.select().from(prisms).where(eq(prisms.userId, s.owner.id)).orderBy(asc(prisms.id))
    ).map((p) => ({ id: p.id, index: p.index })),
    hearts: await db.select().from(prismHearts).where(inArray(prismHearts.prismId, ids)),
    annotations: await db.select().from(annotations).where(inArray(annotations.prismId, ids)),
    notifications: (
      await db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, s.owner.id))
        .orderBy(asc(notifications.id))
    ).map((n) => n.type),
  };
}

const auditOf = (targetType: "prism" | "annotation", targetId: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, targetId)));

describe("deletePrismAsAdmin", () => {
  it("deletes anyone's prism with its hearts, responses and notifications, and moves the rest up", async () => {
    const s = await scene();
    const { events } = await deletePrismAsAdmin(s.admin, s.prism.id);
    expect(await stateOf(s)).toEqual({
      prisms: [
        { id: s.above.id, index: 0 },
        { id: s.below.id, index: 1 },
      ],
      hearts: [],
      annotations: [],
      notifications: [],
    });
    expect(events).toEqual([
      { type: "prisms.changed", username: s.owner.username, prismIds: [s.prism.id] },
      { type: "notifications.changed", userId: s.owner.id },
    ]);
  });

  it("records what was deleted in the audit log", async () => {
    const s = await scene();
    await deletePrismAsAdmin(s.admin, s.prism.id);
    expect(await auditOf("prism", s.prism.id)).toEqual([
      expect.objectContaining({
        actorId: s.admin.id,
        action: "prism.delete",
        details: {
          target: "Going away",
          before: { title: "Going away", author: s.owner.username, hearts: 1 },
          after: null,
        },
      }),
    ]);
  });

  it("reaches a deactivated member's prism too", async () => {
    const s = await scene({ deactivatedAt: new Date() });
    await deletePrismAsAdmin(s.admin, s.prism.id);
    expect((await stateOf(s)).prisms.map((p) => p.id)).toEqual([s.above.id, s.below.id]);
  });

  it("answers 404 for a missing prism, auditing nothing", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    await expect(deletePrismAsAdmin(admin, 2 ** 31 - 1)).rejects.toMatchObject({
      statusCode: 404,
      message: "Prism not found",
    });
    expect(await auditOf("prism", 2 ** 31 - 1)).toEqual([]);
  });

  it("deletes nothing when the audit line cannot be written", async () => {
    const s = await scene();
    const before = await stateOf(s);
    await refuseWrites(t.database, "audit_log", "insert");
    await expectRefused(deletePrismAsAdmin(s.admin, s.prism.id));
    expect(await stateOf(s)).toEqual(before);
  });
});

describe("deleteAnnotationAsAdmin", () => {
  it("deletes anyone's annotation with its notification, audits it, and tells those who could see it", async () => {
    const s = await scene();
    const { events } = await deleteAnnotationAsAdmin(s.admin, s.annotation.id);
    const after = await stateOf(s);
    expect(after.annotations).toEqual([]);
    expect(after.notifications).toEqual(["heart"]);
    expect(after.prisms).toHaveLength(3);
    // It was pending: only the owner and its author could see it.
    expect(events).toEqual([
      {
        type: "annotation.changed",
        prismId: s.prism.id,
        username: s.owner.username,
        audience: [s.owner.id, s.author.id],
      },
      { type: "notifications.changed", userId: s.owner.id },
    ]);
    expect(await auditOf("annotation", s.annotation.id)).toEqual([
      expect.objectContaining({
        actorId: s.admin.id,
        action: "annotation.delete",
        details: {
          target: '"Same here" on "Going away"',
          before: { text: "Same here", passage: "Mornings", status: "pending" },
          after: null,
        },
      }),
    ]);
  });

  it("tells everyone when the annotation was approved", async () => {
    const s = await scene();
    const approved = await buildAnnotation(t.database, {
      prismId: s.prism.id,
      status: "approved",
    });
    const { events } = await deleteAnnotationAsAdmin(s.admin, approved.id);
    expect(events[0]).toEqual({
      type: "annotation.changed",
      prismId: s.prism.id,
      username: s.owner.username,
    });
  });

  it("answers 404 for a missing annotation, auditing nothing", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    await expect(deleteAnnotationAsAdmin(admin, 2 ** 31 - 1)).rejects.toMatchObject({
      statusCode: 404,
      message: "Annotation not found",
    });
    expect(await auditOf("annotation", 2 ** 31 - 1)).toEqual([]);
  });

  it("deletes nothing when the audit line cannot be written", async () => {
    const s = await scene();
    const before = await stateOf(s);
    await refuseWrites(t.database, "audit_log", "insert");
    await expectRefused(deleteAnnotationAsAdmin(s.admin, s.annotation.id));
    expect(await stateOf(s)).toEqual(before);
  });
});
