// Annotations: responding to a passage (anyone who may), deciding on a response (its prism's
// owner, or an admin, audited) or on many at once (the owner's review queue, audited), answering
// it (the owner: a reply approves a pending one), setting any status or deleting any response (an
// admin, audited), and flagging a published response (anyone who may see it). Each is one
// transaction whose events follow its commit: the prism's annotations for those who may see them,
// its top passage, and the notifications of the owner and of the response's author.
import type {
  AnnotationCreate,
  AnnotationStatus,
  FlagInput,
  ReviewAction,
} from "../../contract/annotations.ts";
import { flagMessages } from "../../contract/flag-messages.ts";
import type { Participant } from "../actors.ts";
import { type AuditRecord, annotationLabel, recordAudit } from "../audit.ts";
import type { Executor } from "../db/client.ts";
import type { ResponseSignals, UserRow } from "../db/schema.ts";
import { flagAnnotation } from "../features/annotations/flags.ts";
import { ownerTakesAnonymous } from "../features/annotations/landing.ts";
import {
  type AnnotationView,
  createAnnotation,
  type Decision,
  decideAnnotation,
  decideAnnotations,
  deleteAnnotation,
  type RemoteOrigin,
  removeReply,
  responderName,
  setAnnotationStatus,
  writeReply,
} from "../features/annotations/service.ts";
import { lessonOfAction, teachOwners } from "../features/annotations/spam-model.ts";
import {
  markAnnotationNotificationsRead,
  notifyAnnotation,
  notifyAuthors,
} from "../features/notifications/service.ts";
import { checkPerson, spendProof } from "../features/person-check/service.ts";
import { forbidden } from "../http-error.ts";
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
  // An owner who takes members' responses only refuses a visitor before any check is asked of them.
  if (!("user" in actor) && !(await ownerTakesAnonymous(write.db, input.prismId))) {
    throw forbidden(flagMessages.anonymousMembersOnly);
  }
  const proof = "user" in actor ? null : await checkPerson(secret, input);
  return commit(write, async (tx, record) => {
    if (proof) await spendProof(tx, proof);
    return landResponse(tx, record, { input, participant: actor, signals: proof?.signals ?? null });
  });
}

/**
 * Records a response (from Prism or from the fediverse) in the caller's transaction: the prism's
 * owner is told (unless it is their own, or spam, or its author is silenced), and those who may
 * see it hear of it.
 */
export async function landResponse(
  tx: Executor,
  record: Recorder,
  response: {
    input: AnnotationCreate;
    participant: Participant;
    signals: ResponseSignals | null;
    remote?: RemoteOrigin;
  },
): Promise<{ view: AnnotationView; statusToken: string | null }> {
  const { input, participant, signals } = response;
  const { view, prism, ownerUsername, statusToken } = await createAnnotation(
    tx,
    input,
    participant,
    signals,
    response.remote ?? null,
  );
  // Spam never rings, nor does a silenced member: no notification, no unread count, no e-mail.
  const notified =
    view.row.status !== "spam" &&
    !view.row.silenced &&
    (await notifyAnnotation(tx, {
      recipientId: prism.userId,
      prismId: prism.id,
      participant,
      annotationId: view.row.id,
      responderName: responderName(view.row),
    }));
  record({
    type: "annotation.changed",
    prismId: prism.id,
    username: ownerUsername,
    // A new annotation is pending (or spam): only those who may see it hear of it. A silenced
    // member's is theirs alone.
    audience:
      view.row.silenced && view.row.userId !== null
        ? [view.row.userId]
        : annotationAudience(prism.userId, [
            { statuses: [view.row.status], userId: view.row.userId },
          ]),
  });
  if (notified) record({ type: "notification.created", userId: prism.userId, mail: true });
  // Approved at once (the owner pre-approves members): it may make a top passage.
  if (view.row.status === "approved" && !view.row.silenced)
    await refreshTop(tx, record, prism.id, ownerUsername);
  return { view, statusToken };
}

/**
 * Deciding on annotations settles their notifications; each prism's annotations and top passage,
 * and the notifications of everyone concerned, follow.
 */
async function settle(tx: Executor, record: Recorder, decisions: Decision[]): Promise<void> {
  const recipients = await markAnnotationNotificationsRead(
    tx,
    decisions.map(({ view }) => view.row.id),
  );
  // The owners' lists follow the decisions; so does anyone's whose notification was marked read.
  const notified = new Set([...decisions.map(({ view }) => view.prismOwnerId), ...recipients]);
  const byPrism = new Map<number, Decision[]>();
  for (const decision of decisions) {
    const { prismId } = decision.view.row;
    byPrism.set(prismId, [...(byPrism.get(prismId) ?? []), decision]);
  }
  for (const [prismId, decided] of byPrism) {
    const changed = decided.map(({ view, previous }) => ({
      statuses: [previous, view.row.status],
      userId: view.row.userId,
    }));
    const [{ view, ownerUsername }] = decided as [Decision];
    // Approving, or taking an approval back, may move the prism's top passage.
    if (changed.some(({ statuses }) => statuses.includes("approved"))) {
      await refreshTop(tx, record, prismId, ownerUsername);
    }
    record({
      type: "annotation.changed",
      prismId,
      username: ownerUsername,
      audience: annotationAudience(view.prismOwnerId, changed),
    });
  }
  record(...[...notified].map((userId) => ({ type: "notifications.changed" as const, userId })));
}

/**
 * The members who wrote the responses hear what became of them (a reply may be e-mailed); an
 * anonymous author who left an e-mail address is mailed it.
 */
async function tellAuthors(
  tx: Executor,
  record: Recorder,
  views: AnnotationView[],
  actor: UserRow,
  type: "approved" | "rejected" | "reply",
): Promise<void> {
  const told = await notifyAuthors(tx, { annotations: views.map(({ row }) => row), actor, type });
  record(
    ...told.map((userId) =>
      type === "reply"
        ? { type: "notification.created" as const, userId, mail: true as const }
        : { type: "notification.created" as const, userId },
    ),
    ...views
      .filter(({ row }) => row.userId === null && row.annotatorEmail)
      .map(({ row }) => ({ type: "response.mail" as const, annotationId: row.id })),
  );
}

/** The audit log's line for a decision: the status it set, and the one before. */
function statusLine({ view, previous }: Decision): AuditRecord {
  return {
    action: "annotation.status",
    targetType: "annotation",
    targetId: view.row.id,
    target: annotationLabel(view.row),
    before: { status: previous },
    after: { status: view.row.status },
  };
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
    if (actor.id !== decision.view.prismOwnerId) await recordAudit(tx, actor, statusLine(decision));
    await teachOwners(tx, actor.id, status === "approved" ? "ham" : null, [decision.view]);
    await settle(tx, record, [decision]);
    await tellAuthors(tx, record, [decision.view], actor, status);
    return decision.view;
  });
}

/**
 * The prism's owner decides on many responses of their review queue at once (approves, rejects,
 * sets aside as spam, or puts back from spam): all of them, or none. The audit log records each
 * decision. Answers how many changed.
 */
export function decideMany(
  write: WriteContext,
  ids: number[],
  action: ReviewAction,
): Promise<number> {
  const { actor } = write;
  return commit(write, async (tx, record) => {
    const decisions = await decideAnnotations(tx, actor, ids, action);
    await recordAudit(tx, actor, ...decisions.map(statusLine));
    await settle(tx, record, decisions);
    const views = decisions.map(({ view }) => view);
    await teachOwners(tx, actor.id, lessonOfAction[action], views);
    // An author hears of an approval or a rejection; spam, and its undoing, they never learn of.
    const told = action === "approve" ? "approved" : action === "reject" ? "rejected" : null;
    if (told) await tellAuthors(tx, record, views, actor, told);
    return decisions.length;
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
    await recordAudit(tx, write.actor, statusLine(decision));
    await settle(tx, record, [decision]);
    return decision.view;
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
    await settle(tx, record, [decision]);
    // A reply approves the response: it teaches the owner's classifier as approving it does.
    await teachOwners(tx, actor.id, "ham", [decision.view]);
    if (firstReply) await tellAuthors(tx, record, [decision.view], actor, "reply");
    return decision.view;
  });
}

/** The prism's owner takes their reply back. */
export function withdrawReply(write: WriteContext, id: number): Promise<void> {
  return commit(write, async (tx, record) => {
    await settle(tx, record, [await removeReply(tx, write.actor, id)]);
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

/**
 * A reader flags a published response (once per person; again, their reason and note replace the
 * first). Nobody is notified: the owner finds it in their Flagged folder, whose count their open
 * pages refresh (the change is told to them and admins alone), admins in Catalyst once
 * FLAGS_FOR_ADMINS people flagged it. `created`: this was the reader's first flag of it.
 */
export function flagResponse(write: WriteContext<Participant>, id: number, input: FlagInput) {
  return commit(write, async (tx, record) => {
    const { owner, ...flagged } = await flagAnnotation(tx, write.actor, id, input);
    record({
      type: "annotation.changed",
      prismId: owner.prismId,
      username: owner.username,
      audience: [owner.id],
    });
    return flagged;
  });
}
