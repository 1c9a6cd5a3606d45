// Deciding on an annotation (its prism's owner), answering it (the owner again: a reply approves a
// pending one) or setting its status (an admin, audited): the new state, its notifications marked
// read, and the events for the annotations and the owner's notifications. One transaction.
import type { AnnotationStatus } from "../../contract/annotations.ts";
import { annotationLabel, recordAudit } from "../audit.ts";
import type { Db, Executor } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import {
  type AnnotationView,
  type Decision,
  decideAnnotation,
  removeReply,
  setAnnotationStatus,
  writeReply,
} from "../features/annotations/service.ts";
import {
  markAnnotationNotificationsRead,
  notifyAuthor,
} from "../features/notifications/service.ts";
import { refreshTopPassage } from "../features/resonance/service.ts";
import type { WithEvents } from "../live/bus.ts";
import { annotationAudience } from "../policy.ts";

type Decided = WithEvents<{ view: AnnotationView }>;

/** Deciding on an annotation settles its notifications. */
async function settle(tx: Executor, { view, ownerUsername, previous }: Decision): Promise<Decided> {
  const recipients = await markAnnotationNotificationsRead(tx, view.row.id);
  // The owner's list follows the decision; so does anyone's whose notification was marked read.
  const notified = new Set([view.prismOwnerId, ...recipients]);
  // Approving, or taking an approval back, may move the prism's top passage.
  const approvals = [previous, view.row.status].includes("approved")
    ? (await refreshTopPassage(tx, view.row.prismId, ownerUsername)).events
    : [];
  return {
    view,
    events: [
      ...approvals,
      {
        type: "annotation.changed",
        prismId: view.row.prismId,
        username: ownerUsername,
        audience: annotationAudience(view.prismOwnerId, [
          { statuses: [previous, view.row.status], userId: view.row.userId },
        ]),
      },
      ...[...notified].map((userId) => ({ type: "notifications.changed" as const, userId })),
    ],
  };
}

/** The member who wrote the response hears what became of it. */
async function tellAuthor(
  tx: Executor,
  decided: Decided,
  actor: UserRow,
  type: "approved" | "rejected" | "reply",
): Promise<Decided> {
  const events = await notifyAuthor(tx, { annotation: decided.view.row, actor, type });
  return { ...decided, events: [...decided.events, ...events] };
}

/** The audit log's line for an admin's status change. */
function auditStatus(
  tx: Executor,
  actor: UserRow,
  { view }: Decision,
  before: AnnotationStatus,
  after: AnnotationStatus,
) {
  return recordAudit(tx, actor, {
    action: "annotation.status",
    targetType: "annotation",
    targetId: view.row.id,
    target: annotationLabel(view.row),
    before: { status: before },
    after: { status: after },
  });
}

/** The owner decides on a pending annotation; an admin may too, and then the audit log records it. */
export async function decideOnAnnotation(
  db: Db,
  actor: UserRow,
  id: number,
  status: "approved" | "rejected",
): Promise<Decided> {
  return db.transaction(async (tx) => {
    const decision = await decideAnnotation(tx, actor, id, status);
    if (actor.id !== decision.view.prismOwnerId) {
      await auditStatus(tx, actor, decision, "pending", status);
    }
    return tellAuthor(tx, await settle(tx, decision), actor, status);
  });
}

/** An admin sets any status, from any other (the route admits admins only); the audit log records it. */
export async function setAnnotationStatusAsAdmin(
  db: Db,
  actor: UserRow,
  id: number,
  status: AnnotationStatus,
): Promise<Decided> {
  return db.transaction(async (tx) => {
    const decision = await setAnnotationStatus(tx, id, status);
    await auditStatus(tx, actor, decision, decision.previous, status);
    return settle(tx, decision);
  });
}

/** The prism's owner writes or rewrites their reply to a response. */
export async function replyToAnnotation(
  db: Db,
  actor: UserRow,
  id: number,
  text: string,
): Promise<Decided> {
  return db.transaction(async (tx) => {
    const { firstReply, ...decision } = await writeReply(tx, actor, id, text);
    const settled = await settle(tx, decision);
    return firstReply ? tellAuthor(tx, settled, actor, "reply") : settled;
  });
}

/** The prism's owner takes their reply back. */
export async function withdrawReply(db: Db, actor: UserRow, id: number): Promise<Decided> {
  return db.transaction(async (tx) => settle(tx, await removeReply(tx, actor, id)));
}
