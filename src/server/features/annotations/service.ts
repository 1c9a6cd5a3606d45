// Annotations: creating them against a prism's text, who may see them, deciding on them, and
// keeping them anchored when the prism is edited.
import { and, asc, desc, eq, gt, inArray, ne, type SQL, sql } from "drizzle-orm";
import { alias, type SelectedFields } from "drizzle-orm/pg-core";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import type {
  AnnotationCreate,
  AnnotationStatus,
  ReviewAction,
  ReviewQuery,
} from "../../../contract/annotations.ts";
import type { Audience } from "../../../contract/audiences.ts";
import { flagMessages } from "../../../contract/flag-messages.ts";
import { displayName, visitorName } from "../../../contract/names.ts";
import { htmlToPlainText, originalContext, quoteContext } from "../../../contract/plain-text.ts";
import type { Participant, Viewer } from "../../actors.ts";
import type { Executor } from "../../db/client.ts";
import { flagCountOf, flagSummaryOf } from "../../db/flag-summary.ts";
import {
  annotations,
  type PrismRow,
  prisms,
  type ResponseSignals,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { badRequest, conflict, forbidden, notFound } from "../../http-error.ts";
import {
  annotationsVisibleTo,
  canModerateAnnotations,
  canRespondTo,
  canReviewInBulk,
  canSeeAnnotation,
  liveOwner,
  maySeePrism,
  prismsVisibleTo,
} from "../../policy.ts";
import { hashToken, newToken } from "../../security/tokens.ts";
import { reanchor, WorkBudget } from "./anchoring.ts";
import { settleFlags, withUnsettledFlags } from "./flags.ts";
import { isSilenced, landingOf, ownerRuleColumns } from "./landing.ts";

type AnnotationRow = typeof annotations.$inferSelect;

export interface AnnotationView {
  row: AnnotationRow;
  author: Pick<UserRow, "id" | "displayName" | "firstName" | "lastName" | "username"> | null;
  prismOwnerId: number;
}

const author = alias(users, "author");

/** Annotations with their authors and prism owners, and `extra` of what the query joins. */
function selectViews<Extra extends SelectedFields>(db: Executor, extra = {} as Extra) {
  return db
    .select({
      ...extra,
      row: annotations,
      // Drizzle reads a left-joined object as absent when its first column is null: the id,
      // never null for a member, goes first so that a member without a display name is named.
      author: {
        id: author.id,
        displayName: author.displayName,
        firstName: author.firstName,
        lastName: author.lastName,
        username: author.username,
      },
      prismOwnerId: prisms.userId,
    })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .leftJoin(author, eq(author.id, annotations.userId));
}

/** Every annotation of a prism, whatever its status, newest first; with the prism's owner. */
export async function prismAnnotations(
  db: Executor,
  prismId: number,
): Promise<{
  owner: Pick<UserRow, "id" | "username">;
  audience: Audience;
  views: AnnotationView[];
}> {
  const [found] = await db
    .select({ owner: { id: users.id, username: users.username }, audience: prisms.audience })
    .from(prisms)
    .innerJoin(users, liveOwner)
    .where(eq(prisms.id, prismId));
  if (!found) throw notFound("Prism not found");
  const views = await selectViews(db)
    .where(eq(annotations.prismId, prismId))
    .orderBy(desc(annotations.createdAt), desc(annotations.id));
  return { ...found, views };
}

export async function getAnnotation(
  db: Executor,
  id: number,
  viewer: Viewer,
): Promise<AnnotationView> {
  const [view] = await selectViews(db)
    .innerJoin(users, liveOwner)
    .where(and(eq(annotations.id, id), annotationsVisibleTo(viewer), prismsVisibleTo(viewer.user)));
  if (!view) throw notFound("Annotation not found");
  return view;
}

/**
 * The anonymous response a private status link names, with its prism's title and owner; a 404 when
 * the link never was, or the response, its prism or its owner's page is gone, or the one who holds
 * the link may no longer see the prism.
 */
export async function responseByStatusToken(
  db: Executor,
  token: string,
  viewer: Pick<UserRow, "id" | "isAdmin"> | null,
) {
  const [found] = await db
    .select({ row: annotations, prismTitle: prisms.title, owner: users })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .innerJoin(users, liveOwner)
    .where(and(eq(annotations.statusTokenHash, hashToken(token)), prismsVisibleTo(viewer)));
  if (!found) throw notFound("Response not found");
  return found;
}

export function authorName(view: AnnotationView): string | null {
  return view.author ? displayName(view.author) : responderName(view.row);
}

/**
 * Who wrote a response without an account: a fediverse reply's author by their name and handle
 * ("Bob (@bob@example.social)"), else the name an anonymous reader left.
 */
export function responderName(
  row: Pick<AnnotationRow, "annotatorName" | "remoteHandle">,
): string | null {
  if (!row.remoteHandle) return visitorName(row.annotatorName);
  return row.annotatorName ? `${row.annotatorName} (${row.remoteHandle})` : row.remoteHandle;
}

/** What Prism keeps of a reply that came from the fediverse. */
export type RemoteOrigin = Pick<
  typeof annotations.$inferInsert,
  "remoteActorId" | "remoteHandle" | "remoteInbox" | "remoteNoteId" | "remoteNoteUrl"
>;

interface CreatedAnnotation {
  view: AnnotationView;
  prism: PrismRow;
  ownerUsername: string;
  /** The anonymous author's status link token, told this once; null for a member. */
  statusToken: string | null;
}

/**
 * Records a response to a passage, inside the caller's transaction: the quote must be exactly
 * the prism's text at the offsets. `signals`: an anonymous response's person check.
 */
export async function createAnnotation(
  tx: Executor,
  input: AnnotationCreate,
  participant: Participant,
  signals: ResponseSignals | null,
  remote: RemoteOrigin | null = null,
): Promise<CreatedAnnotation> {
  const user = "user" in participant ? participant.user : null;
  const [found] = await tx
    .select({ prism: prisms, ownerUsername: users.username, rules: ownerRuleColumns })
    .from(prisms)
    .innerJoin(users, liveOwner)
    .where(and(eq(prisms.id, input.prismId), prismsVisibleTo(user)));
  if (!found) throw notFound("Prism not found");
  const { prism } = found;
  if (!canRespondTo(user, prism)) {
    throw forbidden(
      prism.responders === "members" ? annotationMessages.membersOnly : annotationMessages.closed,
    );
  }
  if (!user && found.rules.anonymousResponses === "members") {
    throw forbidden(flagMessages.anonymousMembersOnly);
  }
  const text = htmlToPlainText(prism.content);
  const { selectionStart: start, selectionEnd: end } = input;
  if (text.slice(start, end) !== input.selectedText) {
    throw badRequest(annotationMessages.selectionMismatch, {
      selectedText: annotationMessages.selectionMismatch,
    });
  }
  const landing = await landingOf(tx, { participant, prism, input, signals }, found.rules);
  const statusToken = user ? null : newToken(16);
  const context = originalContext(text, start, end);
  const [row] = await tx
    .insert(annotations)
    .values({
      prismId: prism.id,
      selectedText: input.selectedText,
      annotationText: input.annotationText,
      userId: user?.id ?? null,
      annotatorName: user ? null : input.annotatorName || null,
      annotatorEmail: user ? null : input.annotatorEmail || null,
      visitorHash: "visitorHash" in participant ? participant.visitorHash : null,
      status: landing.status,
      selectionStart: start,
      selectionEnd: end,
      ...quoteContext(text, start, end),
      prismTitle: prism.title,
      statusTokenHash: statusToken ? hashToken(statusToken) : null,
      revision: prism.revision,
      contextBefore: context.before,
      contextAfter: context.after,
      signals: landing.signals,
      silenced: user ? await isSilenced(tx, user.id) : false,
      ...(remote ? { source: "fediverse" as const, ...remote } : {}),
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return {
    view: { row, author: user, prismOwnerId: prism.userId },
    prism,
    ownerUsername: found.ownerUsername,
    statusToken,
  };
}

export interface Decision {
  view: AnnotationView;
  ownerUsername: string;
  /** The status before the decision. */
  previous: AnnotationStatus;
}

/**
 * Locks the annotations for a decision, in the order of their ids (so that two decisions on some
 * of the same never wait on each other); each with its prism and the prism's owner. A 404 when
 * one of them is not there.
 */
async function loadForDecisions(tx: Executor, ids: number[]) {
  const found = await tx
    .select({ row: annotations, prism: prisms, ownerUsername: users.username })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(inArray(annotations.id, ids))
    .orderBy(asc(annotations.id))
    .for("update", { of: annotations });
  if (found.length < ids.length) throw notFound("Annotation not found");
  return found;
}

type Loaded = Awaited<ReturnType<typeof loadForDecisions>>[number];

/** Locks the annotation for a decision; with its prism and the prism's owner. */
async function loadForDecision(tx: Executor, id: number): Promise<Loaded> {
  const [found] = await loadForDecisions(tx, [id]);
  if (!found) throw notFound("Annotation not found");
  return found;
}

/** Writes the same changes to each of the locked annotations; each as it is now, and was before. */
async function writeAnnotations(
  tx: Executor,
  found: Loaded[],
  changes: Partial<AnnotationRow>,
): Promise<Decision[]> {
  const ids = found.map(({ row }) => row.id);
  await tx.update(annotations).set(changes).where(inArray(annotations.id, ids));
  const views = new Map(
    (await selectViews(tx).where(inArray(annotations.id, ids))).map((view) => [view.row.id, view]),
  );
  return found.map(({ row, ownerUsername }) => {
    const view = views.get(row.id);
    if (!view) throw notFound("Annotation not found");
    return { view, ownerUsername, previous: row.status };
  });
}

async function writeAnnotation(
  tx: Executor,
  found: Loaded,
  changes: Partial<AnnotationRow>,
): Promise<Decision> {
  const [decision] = await writeAnnotations(tx, [found], changes);
  if (!decision) throw notFound("Annotation not found");
  return decision;
}

function writeStatus(tx: Executor, found: Loaded, status: AnnotationStatus): Promise<Decision> {
  return writeAnnotation(tx, found, { status });
}

/**
 * 404 unless the actor may see the annotation and its prism: what they may not see is answered
 * as what does not exist, never with a 403 that says it does.
 */
async function requireSeen(tx: Executor, actor: UserRow, found: Loaded): Promise<void> {
  const seen =
    canSeeAnnotation({ user: actor, visitorHash: null }, found.row, found.prism) &&
    (await maySeePrism(tx, actor, found.prism));
  if (!seen) throw notFound("Annotation not found");
}

/** Locks an annotation for its owner's reply: only the prism's owner answers the responses to it. */
async function loadForReply(tx: Executor, actor: UserRow, id: number): Promise<Loaded> {
  const found = await loadForDecision(tx, id);
  await requireSeen(tx, actor, found);
  if (actor.id !== found.prism.userId) throw forbidden(annotationMessages.replyOwnerOnly);
  return found;
}

/**
 * The prism's owner writes or rewrites their one reply, inside the caller's transaction. Replying
 * approves a pending response; a rejected one must be approved first. `firstReply`: there was
 * none before.
 */
export async function writeReply(
  tx: Executor,
  actor: UserRow,
  id: number,
  text: string,
): Promise<Decision & { firstReply: boolean }> {
  const found = await loadForReply(tx, actor, id);
  const { row } = found;
  if (row.status === "rejected") throw conflict(annotationMessages.replyRejected);
  const now = new Date();
  const decision = await writeAnnotation(tx, found, {
    status: "approved",
    replyText: text,
    repliedAt: row.repliedAt ?? now,
    replyUpdatedAt: row.replyText === text ? row.replyUpdatedAt : now,
  });
  return { ...decision, firstReply: row.replyText === null };
}

/** The prism's owner takes their reply back, inside the caller's transaction. */
export async function removeReply(tx: Executor, actor: UserRow, id: number): Promise<Decision> {
  return writeAnnotation(tx, await loadForReply(tx, actor, id), {
    replyText: null,
    repliedAt: null,
    replyUpdatedAt: null,
  });
}

/**
 * The prism's owner (or an admin) approves or rejects a pending annotation, once; inside the
 * caller's transaction.
 */
export async function decideAnnotation(
  tx: Executor,
  actor: UserRow,
  id: number,
  status: "approved" | "rejected",
): Promise<Decision> {
  const found = await loadForDecision(tx, id);
  await requireSeen(tx, actor, found);
  if (!canModerateAnnotations(actor, found.prism)) {
    throw forbidden("Only the prism's owner can approve or reject its annotations");
  }
  if (found.row.status !== "pending") throw conflict(annotationMessages.alreadyDecided);
  return writeStatus(tx, found, status);
}

/** What each action of the review queue does: the status it applies to, and the one it sets. */
const reviewActions: Record<
  ReviewAction,
  { from: AnnotationStatus; to: AnnotationStatus; flagged?: true }
> = {
  approve: { from: "pending", to: "approved" },
  reject: { from: "pending", to: "rejected" },
  spam: { from: "pending", to: "spam" },
  "not-spam": { from: "spam", to: "pending" },
  // The Flagged folder's: a published response readers flagged stays, or is taken down.
  keep: { from: "approved", to: "approved", flagged: true },
  "take-down": { from: "approved", to: "rejected", flagged: true },
};

/**
 * The prism's owner decides on many responses at once, inside the caller's transaction: all of
 * them, or (a 404 for one that is not there or not theirs to see, a 403 for one on another's
 * prism, a 409 for one the action does not apply to) none.
 */
export async function decideAnnotations(
  tx: Executor,
  actor: UserRow,
  ids: number[],
  action: ReviewAction,
): Promise<Decision[]> {
  const found = await loadForDecisions(tx, ids);
  const viewer = { user: actor, visitorHash: null };
  // The owner's Spam folder holds responses their page never shows; a silenced member's they
  // never see at all.
  const reviews = ({ row, prism }: (typeof found)[number]) =>
    canSeeAnnotation(viewer, row, prism) || (canReviewInBulk(actor, prism) && !row.silenced);
  const seen = await Promise.all(found.map(({ prism }) => maySeePrism(tx, actor, prism)));
  if (!found.every((one, index) => reviews(one) && seen[index])) {
    throw notFound("Annotation not found");
  }
  if (found.some(({ prism }) => !canReviewInBulk(actor, prism))) {
    throw forbidden(annotationMessages.bulkOwnerOnly);
  }
  const { from, to, flagged } = reviewActions[action];
  const unsettled = flagged ? await withUnsettledFlags(tx, ids) : null;
  if (found.some(({ row }) => row.status !== from || (unsettled && !unsettled.has(row.id)))) {
    throw conflict(annotationMessages.bulkNotPending);
  }
  if (flagged) await settleFlags(tx, ids);
  return writeAnnotations(tx, found, { status: to });
}

/**
 * One page of the owner's review queue: the responses to their prisms in a folder (waiting, spam,
 * or published and flagged by readers, flags the owner has not settled), oldest first, after the
 * response `cursor` names; with each one's prism title and unsettled flags, and the cursor of the
 * next page. A silenced member's responses are in none of them.
 */
export async function reviewQueue(db: Executor, ownerId: number, query: ReviewQuery) {
  const folder = query.status === "flagged" ? isFlagged : eq(annotations.status, query.status);
  const rows = await selectViews(db, {
    prismTitle: prisms.title,
    flags: flagSummaryOf(annotations.id, true),
  })
    .where(
      and(
        eq(prisms.userId, ownerId),
        eq(annotations.silenced, false),
        folder,
        query.cursor === undefined ? undefined : gt(annotations.id, query.cursor),
      ),
    )
    .orderBy(asc(annotations.id))
    .limit(query.limit + 1);
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return {
    items,
    nextCursor: rows.length > query.limit && last ? last.row.id : null,
    counts: await folderCounts(db, ownerId),
  };
}

/** In the Flagged folder: published, with flags the owner has not settled. */
const isFlagged = and(
  eq(annotations.status, "approved"),
  sql`${flagCountOf(annotations.id, true)} > 0`,
);

/** How many responses each of the owner's review folders holds. */
async function folderCounts(db: Executor, ownerId: number) {
  const count = (which: SQL | undefined) => sql<number>`(count(*) filter (where ${which}))::int`;
  const [counts] = await db
    .select({
      pending: count(eq(annotations.status, "pending")),
      spam: count(eq(annotations.status, "spam")),
      flagged: count(isFlagged),
    })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .where(and(eq(prisms.userId, ownerId), eq(annotations.silenced, false)));
  return counts ?? { pending: 0, spam: 0, flagged: 0 };
}

/** How long spam is kept (for its author's status link, and a "Not spam" in time) before it goes. */
export const SPAM_KEPT_DAYS = 30;

/**
 * Deletes the spam written more than SPAM_KEPT_DAYS ago (its notifications, of which it made none
 * but an owner's earlier ones, go with it). Answers, per prism, what its events need.
 */
export async function deleteOldSpam(db: Executor) {
  const deleted = db.$with("deleted").as(
    db
      .delete(annotations)
      .where(
        and(
          eq(annotations.status, "spam"),
          sql`${annotations.createdAt} < now() - make_interval(days => ${SPAM_KEPT_DAYS})`,
        ),
      )
      .returning({ prismId: annotations.prismId, userId: annotations.userId }),
  );
  return db
    .with(deleted)
    .select({
      prismId: deleted.prismId,
      ownerId: prisms.userId,
      username: users.username,
      authors: sql<(number | null)[]>`array_agg(distinct ${deleted.userId})`,
    })
    .from(deleted)
    .innerJoin(prisms, eq(prisms.id, deleted.prismId))
    .innerJoin(users, eq(users.id, prisms.userId))
    .groupBy(deleted.prismId, prisms.userId, users.username);
}

/** Sets any status, from any other (an admin's call); inside the caller's transaction. */
export async function setAnnotationStatus(
  tx: Executor,
  id: number,
  status: AnnotationStatus,
): Promise<Decision> {
  return writeStatus(tx, await loadForDecision(tx, id), status);
}

/**
 * Deletes any annotation (an admin's call), inside the caller's transaction; its notifications go
 * with it (cascade). Returns it as it was, with its prism's owner.
 */
export async function deleteAnnotation(
  tx: Executor,
  id: number,
): Promise<{ row: AnnotationRow; ownerId: number; ownerUsername: string }> {
  const { row, prism, ownerUsername } = await loadForDecision(tx, id);
  await tx.delete(annotations).where(eq(annotations.id, id));
  return { row, ownerId: prism.userId, ownerUsername };
}

/** Other members' prisms that a member annotated, with their owners and heart counts. */
export async function prismsAnnotatedBy(
  tx: Executor,
  userId: number,
): Promise<{ prismId: number; ownerId: number; heartsCount: number }[]> {
  return tx
    .selectDistinct({
      prismId: annotations.prismId,
      ownerId: prisms.userId,
      heartsCount: prisms.heartsCount,
    })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .where(and(eq(annotations.userId, userId), ne(prisms.userId, userId)));
}

/**
 * After a prism's text changed: finds each of its annotations in the new text (see anchoring.ts),
 * within one work budget for the whole save, updating offsets and context or marking it orphaned,
 * in one statement. Runs inside the saving transaction; answers the status and author of each
 * annotation that changed.
 */
export async function reanchorAnnotations(
  tx: Executor,
  prismId: number,
  content: string,
): Promise<{ statuses: AnnotationStatus[]; userId: number | null }[]> {
  const text = htmlToPlainText(content);
  const rows = await tx.select().from(annotations).where(eq(annotations.prismId, prismId));
  const budget = new WorkBudget();
  const changed: { statuses: AnnotationStatus[]; userId: number | null }[] = [];
  const values: SQL[] = [];
  for (const row of rows) {
    const placed = reanchor(
      {
        exact: row.selectedText,
        prefix: row.prefix,
        suffix: row.suffix,
        start: row.selectionStart,
        end: row.selectionEnd,
      },
      text,
      budget,
    );
    const next = placed
      ? { ...placed, orphaned: false }
      : {
          start: row.selectionStart,
          end: row.selectionEnd,
          prefix: row.prefix,
          suffix: row.suffix,
          orphaned: true,
        };
    const same =
      next.orphaned === row.orphaned &&
      next.start === row.selectionStart &&
      next.end === row.selectionEnd &&
      next.prefix === row.prefix &&
      next.suffix === row.suffix;
    if (same) continue;
    changed.push({ statuses: [row.status], userId: row.userId });
    values.push(
      sql`(${row.id}::int, ${next.start}::int, ${next.end}::int, ${next.prefix}::text, ${next.suffix}::text, ${next.orphaned}::boolean)`,
    );
  }
  if (values.length === 0) return changed;
  await tx.execute(sql`
    update ${annotations} set
      selection_start = v.start, selection_end = v.finish, prefix = v.prefix, suffix = v.suffix,
      orphaned = v.orphaned
    from (values ${sql.join(values, sql`, `)}) as v(id, start, finish, prefix, suffix, orphaned)
    where ${annotations.id} = v.id`);
  return changed;
}
