// Annotations: responding to a passage (anyone who may), deciding on a response (its prism's
// owner, or an admin, audited), answering it (the owner: a reply approves a pending one), setting
// any status or deleting any response (an admin, audited). Each is one transaction whose events
// follow its commit: the prism's annotations for those who may see them, its top passage, and the
// notifications of the owner and of the response's author.
import type { AnnotationCreate, AnnotationStatus } from "../../contract/annotations.ts";
import type { Participant } from "../actors.ts";
import { annotationLabel, recordAudit } from "../audit.ts";
import type { Executor } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import {
  type AnnotationView,
  createAnnotation,
  type Decision,
  decideAnnotation,
  deleteAnnotation,
  removeReply,
  setAnnotationStatus,
  writeReply,
} from "../features/annotations/service.ts";
import {
  markAnnotationNotificationsRead,
  notifyAnnotation,
  notifyAuthor,
} from "../features/notifications/service.ts";
import { checkPerson, spendProof } from "../features/person-check/service.ts";
import { annotationAudience } from "../policy.ts";
import { refreshTop } from "./prisms.ts";
import { commit, type Recorder, type WriteContext } from "./write.ts";

/**
 * Records a response to a passage: the prism's owner is told (unless it is their own), and those
 * who may see it hear of it. `statusToken` is the private link of an anonymous response. An
 * anonymous response must pass the person check (its challenge signed with `secret`), and spends
 * its proof with it: a response refused spends nothing.
 */
export async function respondToPassage(
  write: WriteContext<Participant>,
  input: AnnotationCreate,
  secret: string,
): Promise<{ view: AnnotationView; statusToken: string | null }> {
  const { actor } = write;
  const proof = "user" in actor ? null : await checkPerson(secret, input);
  return commit(write, async (tx, record) => {
    if (proof) await spendProof(tx, proof);
    const { view, prism, ownerUsername, statusToken } = await createAnnotation(
      tx,
      input,
      actor,
      proof?.signals ?? null,
    );
    const notified = await notifyAnnotation(tx, {
      recipientId: prism.userId,
      prismId: prism.id,
      participant: actor,
      annotationId: view.row.id,
      annotatorName: view.row.annotatorName,
    });
    record({
      type: "annotation.changed",
      prismId: prism.id,
      username: ownerUsername,
      // A new annotation is pending: only those who may see it hear of it.
      audience: annotationAudience(prism.userId, [
        { statuses: [view.row.status], userId: view.row.userId },
      ]),
    });
    if (notified) record({ type: "notification.created", userId: prism.userId, mail: true });
    // Approved at once (the owner pre-approves members): it may make a top passage.
    if (view.row.status === "approved") await refreshTop(tx, record, prism.id, ownerUsername);
    return { view, statusToken };
  });
}

/** Deciding on an annotation settles its notifications. */
async function settle(
  tx: Executor,
  record: Recorder,
  { view, ownerUsername, previous }: Decision,
): Promise<AnnotationView> {
  const recipients = await markAnnotationNotificationsRead(tx, view.row.id);
  // The owner's list follows the decision; so does anyone's whose notification was marked read.
  const notified = new Set([view.prismOwnerId, ...recipients]);
  // Approving, or taking an approval back, may move the prism's top passage.
  if ([previous, view.row.status].includes("approved")) {
    await refreshTop(tx, record, view.row.prismId, ownerUsername);
  }
  record(
    {
      type: "annotation.changed",
      prismId: view.row.prismId,
      username: ownerUsername,
      audience: annotationAudience(view.prismOwnerId, [
        { statuses: [previous, view.row.status], userId: view.row.userId },
      ]),
    },
    ...[...notified].map((userId) => ({ type: "notifications.changed" as const, userId })),
  );
  return view;
}

/** The member who wrote the response hears what became of it (a reply may be e-mailed). */
async function tellAuthor(
  tx: Executor,
  record: Recorder,
  view: AnnotationView,
  actor: UserRow,
  type: "approved" | "rejected" | "reply",
): Promise<AnnotationView> {
  const { userId } = view.row;
  if (userId !== null && (await notifyAuthor(tx, { annotation: view.row, actor, type }))) {
    record(
      type === "reply"
        ? { type: "notification.created", userId, mail: true }
        : { type: "notification.created", userId },
    );
  }
  return view;
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
export function decideOnAnnotation(
  write: WriteContext,
  id: number,
  status: "approved" | "rejected",
): Promise<AnnotationView> {
  const { actor } = write;
  return commit(write, async (tx, record) => {
    const decision = await decideAnnotation(tx, actor, id, status);
    if (actor.id !== decision.view.prismOwnerId) {
      await auditStatus(tx, actor, decision, "pending", status);
    }
    return tellAuthor(tx, record, await settle(tx, record, decision), actor, status);
  });
}

/** An admin sets any status, from any other (the route admits admins only); the audit log records it. */
export function setAnnotationStatusAsAdmin(
  write: WriteContext,
  id: number,
  status: AnnotationStatus,
): Promise<AnnotationView> {
  return commit(write, async (tx, record) => {
    const decision = await setAnnotationStatus(tx, id, status);
    await auditStatus(tx, write.actor, decision, decision.previous, status);
    return settle(tx, record, decision);
  });
}

/** The prism's owner writes or rewrites their reply to a response. */
export function replyToAnnotation(
  write: WriteContext,
  id: number,
  text: string,
): Promise<AnnotationView> {
  const { actor } = write;
  return commit(write, async (tx, record) => {
    const { firstReply, ...decision } = await writeReply(tx, actor, id, text);
    const view = await settle(tx, record, decision);
    return firstReply ? tellAuthor(tx, record, view, actor, "reply") : view;
  });
}

/** The prism's owner takes their reply back. */
export function withdrawReply(write: WriteContext, id: number): Promise<void> {
  return commit(write, async (tx, record) => {
    await settle(tx, record, await removeReply(tx, write.actor, id));
  });
}

/**
 * An admin deletes anyone's annotation with its notifications: its prism's annotations, top
 * passage and owner's notifications change, and the audit log records it.
 */
export function deleteAnnotationAsAdmin(write: WriteContext, annotationId: number): Promise<void> {
  return commit(write, async (tx, record) => {
    const { row, ownerId, ownerUsername } = await deleteAnnotation(tx, annotationId);
    record(
      {
        type: "annotation.changed",
        prismId: row.prismId,
        username: ownerUsername,
        audience: annotationAudience(ownerId, [{ statuses: [row.status], userId: row.userId }]),
      },
      { type: "notifications.changed", userId: ownerId },
    );
    if (row.status === "approved") await refreshTop(tx, record, row.prismId, ownerUsername);
    await recordAudit(tx, write.actor, {
      action: "annotation.delete",
      targetType: "annotation",
      targetId: row.id,
      target: annotationLabel(row),
      before: { text: row.annotationText, passage: row.selectedText, status: row.status },
    });
  });
}
