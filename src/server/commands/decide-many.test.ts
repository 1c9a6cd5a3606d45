// The owner's bulk decisions, called as their route calls them: many responses on several of
// their prisms at once, each audited, with the single decision's effects; all or nothing.
import { and, asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotationMessages } from "../../contract/annotation-messages.ts";
import type { ReviewAction } from "../../contract/annotations.ts";
import { annotations, auditLog, notifications, type UserRow } from "../db/schema.ts";
import { buildAnnotation, buildNotification, buildPrism, buildUser } from "../test/builders.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { run } from "../test/write.ts";
import * as commands from "./annotations.ts";

const t = setupTestDatabase();

const decideMany = (actor: UserRow, ids: number[], action: ReviewAction) =>
  run(t.database, actor, (write) => commands.decideMany(write, ids, action), "changed");

/**
 * An owner's two prisms with pending responses: two by a member on the first, one anonymous on
 * the second; each with the owner's unread notification of it.
 */
async function scene() {
  const owner = await buildUser(t.database);
  const author = await buildUser(t.database);
  const first = await buildPrism(t.database, { userId: owner.id, title: "How I work" });
  const second = await buildPrism(t.database, { userId: owner.id, title: "Meetings", index: 1 });
  const responses = [
    await buildAnnotation(t.database, { prismId: first.id, userId: author.id }),
    await buildAnnotation(t.database, { prismId: first.id, userId: author.id }),
    await buildAnnotation(t.database, {
      prismId: second.id,
      visitorHash: "bulk-visitor",
      annotatorName: "Sam",
      prismTitle: "Meetings",
    }),
  ];
  for (const response of responses) {
    await buildNotification(t.database, {
      userId: owner.id,
      prismId: response.prismId,
      type: "annotation",
      annotationId: response.id,
      actorKey: null,
    });
  }
  return { owner, author, first, second, ids: responses.map((response) => response.id) };
}

/** Where the responses stand: their statuses, notifications and audit lines, in id order. */
async function stateOf(ids: number[]) {
  const { db } = t.database;
  return {
    statuses: (
      await db
        .select({ status: annotations.status })
        .from(annotations)
        .where(inArray(annotations.id, ids))
        .orderBy(asc(annotations.id))
    ).map((row) => row.status),
    notifications: await db
      .select({
        userId: notifications.userId,
        type: notifications.type,
        annotationId: notifications.annotationId,
        read: notifications.read,
      })
      .from(notifications)
      .where(inArray(notifications.annotationId, ids))
      .orderBy(asc(notifications.id)),
    audit: await db
      .select({ actorId: auditLog.actorId, targetId: auditLog.targetId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "annotation.status"), inArray(auditLog.targetId, ids)))
      .orderBy(asc(auditLog.id)),
  };
}

/** The owner decides on all the scene's responses at once: the events, and where they stand. */
async function decideAll(action: ReviewAction) {
  const decided = await scene();
  const { changed, events } = await decideMany(decided.owner, decided.ids, action);
  expect(changed).toBe(decided.ids.length);
  return { ...decided, events, state: await stateOf(decided.ids) };
}

describe("decideMany", () => {
  it("approves the owner's responses on several prisms at once, each settled, told and audited", async () => {
    const { owner, author, first, second, ids, events, state } = await decideAll("approve");
    expect(state.statuses).toEqual(["approved", "approved", "approved"]);
    // The owner's notifications are read; the member who wrote two is told of each.
    expect(state.notifications).toEqual([
      ...ids.map((annotationId) => ({
        userId: owner.id,
        type: "annotation",
        annotationId,
        read: true,
      })),
      ...ids.slice(0, 2).map((annotationId) => ({
        userId: author.id,
        type: "approved",
        annotationId,
        read: false,
      })),
    ]);
    expect(state.audit).toEqual(
      [
        { targetId: ids[0], target: '"Same here" on "How I work"' },
        { targetId: ids[1], target: '"Same here" on "How I work"' },
        { targetId: ids[2], target: '"Same here" on "Meetings"' },
      ].map(({ targetId, target }) => ({
        actorId: owner.id,
        targetId,
        details: { target, before: { status: "pending" }, after: { status: "approved" } },
      })),
    );
    // One change per prism, told to everyone; each member concerned hears once.
    expect(events).toEqual([
      { type: "annotation.changed", prismId: first.id, username: owner.username },
      { type: "annotation.changed", prismId: second.id, username: owner.username },
      { type: "notifications.changed", userId: owner.id },
      { type: "notification.created", userId: author.id },
    ]);
  });

  it("rejects them: only the owner and the member who wrote them hear of it", async () => {
    const { owner, author, first, second, ids, events, state } = await decideAll("reject");
    expect(state.statuses).toEqual(["rejected", "rejected", "rejected"]);
    expect(state.notifications.filter((n) => n.type === "rejected")).toHaveLength(2);
    expect(state.audit.map((line) => line.details)).toEqual(
      ids.map(() => expect.objectContaining({ after: { status: "rejected" } })),
    );
    expect(events).toEqual([
      {
        type: "annotation.changed",
        prismId: first.id,
        username: owner.username,
        audience: [owner.id, author.id],
      },
      {
        type: "annotation.changed",
        prismId: second.id,
        username: owner.username,
        audience: [owner.id],
      },
      { type: "notifications.changed", userId: owner.id },
      { type: "notification.created", userId: author.id },
    ]);
  });

  it("changes nothing when one of the responses is not the owner's to decide", async () => {
    const { owner, author, ids } = await scene();
    const other = await buildUser(t.database);
    const othersPrism = await buildPrism(t.database, { userId: other.id });
    const hidden = await buildAnnotation(t.database, { prismId: othersPrism.id });
    const visible = await buildAnnotation(t.database, {
      prismId: othersPrism.id,
      status: "approved",
    });
    const decided = await buildAnnotation(t.database, {
      prismId: (await buildPrism(t.database, { userId: owner.id, index: 2 })).id,
      status: "approved",
    });
    const admin = await buildUser(t.database, { isAdmin: true });
    const before = await stateOf([...ids, hidden.id, visible.id, decided.id]);
    const refusals: [UserRow, number[], number, string][] = [
      // Someone else's pending response is not there for the owner; nor is one that never was.
      [owner, [...ids, hidden.id], 404, "Annotation not found"],
      [owner, [2 ** 31 - 1, ...ids], 404, "Annotation not found"],
      // An approved one on someone else's prism is there, but not theirs to decide.
      [owner, [...ids, visible.id], 403, annotationMessages.bulkOwnerOnly],
      // Their own, decided already.
      [owner, [decided.id, ...ids], 409, annotationMessages.bulkNotPending],
      // An admin sees them all, and decides one at a time; the author, none.
      [admin, ids, 403, annotationMessages.bulkOwnerOnly],
      [author, ids.slice(0, 2), 403, annotationMessages.bulkOwnerOnly],
      [author, ids, 404, "Annotation not found"],
    ];
    for (const [actor, asked, statusCode, message] of refusals) {
      await expect(decideMany(actor, asked, "approve")).rejects.toMatchObject({
        statusCode,
        message,
      });
    }
    expect(await stateOf([...ids, hidden.id, visible.id, decided.id])).toEqual(before);
  });

  it("changes nothing when an author cannot be told, or a decision audited", async () => {
    const scenes = [await scene(), await scene()];
    // Telling authors comes after the audit lines: refused first, then the audit lines too.
    for (const [i, table] of ["notifications", "audit_log"].entries()) {
      const { owner, ids } = scenes[i] as Awaited<ReturnType<typeof scene>>;
      const before = await stateOf(ids);
      await refuseWrites(t.database, table, "insert");
      await expectRefused(decideMany(owner, ids, "reject"));
      expect(await stateOf(ids), table).toEqual(before);
    }
  });
});
