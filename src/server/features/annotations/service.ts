// Annotations: creating them against a prism's text, who may see them, deciding on them, and
// keeping them anchored when the prism is edited.
import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  type AnnotationCreate,
  type AnnotationStatus,
  annotationMessages,
} from "../../../contract/annotations.ts";
import { htmlToPlainText, quoteContext } from "../../../contract/plain-text.ts";
import type { Db, Executor } from "../../db/client.ts";
import {
  annotations,
  notifications,
  type PrismRow,
  prisms,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../../http-error.ts";
import { canModerateAnnotations } from "../../policy.ts";
import { displayName } from "../hearts/service.ts";
import { markAnnotationNotificationsRead } from "../notifications/service.ts";
import { reanchor } from "./anchoring.ts";

/** Who is looking: a member, or an anonymous browser known by its visitor hash (if it has one). */
export interface Viewer {
  user: UserRow | null;
  visitorHash: string | null;
}

type AnnotationRow = typeof annotations.$inferSelect;

export interface AnnotationView {
  row: AnnotationRow;
  author: Pick<UserRow, "displayName" | "firstName" | "lastName" | "username"> | null;
  prismOwnerId: number;
}

const author = alias(users, "author");

/** Pending and rejected annotations are seen only by the prism's owner, their author and admins. */
function visibleTo(viewer: Viewer): SQL {
  const clauses: (SQL | undefined)[] = [eq(annotations.status, "approved")];
  if (viewer.user) {
    if (viewer.user.isAdmin) return sql`true`;
    clauses.push(eq(prisms.userId, viewer.user.id), eq(annotations.userId, viewer.user.id));
  }
  if (viewer.visitorHash) clauses.push(eq(annotations.visitorHash, viewer.visitorHash));
  return or(...clauses) ?? sql`false`;
}

function selectViews(db: Executor) {
  return db
    .select({
      row: annotations,
      author: {
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

export async function listAnnotations(
  db: Executor,
  prismId: number,
  viewer: Viewer,
): Promise<AnnotationView[]> {
  const [prism] = await db.select({ id: prisms.id }).from(prisms).where(eq(prisms.id, prismId));
  if (!prism) throw notFound("Prism not found");
  return selectViews(db)
    .where(and(eq(annotations.prismId, prismId), visibleTo(viewer)))
    .orderBy(desc(annotations.createdAt), desc(annotations.id));
}

export async function getAnnotation(
  db: Executor,
  id: number,
  viewer: Viewer,
): Promise<AnnotationView> {
  const [view] = await selectViews(db).where(and(eq(annotations.id, id), visibleTo(viewer)));
  if (!view) throw notFound("Annotation not found");
  return view;
}

export function isOwn(row: AnnotationRow, viewer: Viewer): boolean {
  if (row.userId !== null) return viewer.user?.id === row.userId;
  return viewer.visitorHash !== null && row.visitorHash === viewer.visitorHash;
}

export function authorName(view: AnnotationView): string | null {
  return view.author ? displayName(view.author) : (view.row.annotatorName ?? null);
}

export interface CreatedAnnotation {
  view: AnnotationView;
  prism: PrismRow;
  ownerUsername: string;
  /** The owner's notification, when one was created (not for one's own prism). */
  notifiedUserId: number | null;
}

/**
 * Records a response to a passage: the quote must be exactly the prism's text at the offsets.
 * The prism's owner gets one notification for it.
 */
export async function createAnnotation(
  db: Db,
  input: AnnotationCreate,
  actor: { user: UserRow } | { visitorHash: string },
): Promise<CreatedAnnotation> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ prism: prisms, ownerUsername: users.username })
      .from(prisms)
      .innerJoin(users, eq(users.id, prisms.userId))
      .where(eq(prisms.id, input.prismId));
    if (!found) throw notFound("Prism not found");
    const { prism } = found;
    const text = htmlToPlainText(prism.content);
    if (text.slice(input.selectionStart, input.selectionEnd) !== input.selectedText) {
      throw badRequest(annotationMessages.selectionMismatch, {
        selectedText: annotationMessages.selectionMismatch,
      });
    }
    const member = "user" in actor ? actor.user : null;
    const [row] = await tx
      .insert(annotations)
      .values({
        prismId: prism.id,
        selectedText: input.selectedText,
        annotationText: input.annotationText,
        userId: member?.id ?? null,
        annotatorName: member ? null : input.annotatorName || null,
        annotatorEmail: member ? null : input.annotatorEmail || null,
        visitorHash: "visitorHash" in actor ? actor.visitorHash : null,
        selectionStart: input.selectionStart,
        selectionEnd: input.selectionEnd,
        ...quoteContext(text, input.selectionStart, input.selectionEnd),
        prismTitle: prism.title,
      })
      .returning();
    if (!row) throw new Error("insert returned no row");

    const notify = member?.id !== prism.userId;
    if (notify) {
      await tx.insert(notifications).values({
        userId: prism.userId,
        prismId: prism.id,
        type: "annotation",
        annotationId: row.id,
        actorName: member ? displayName(member) : row.annotatorName,
      });
    }
    return {
      view: { row, author: member, prismOwnerId: prism.userId },
      prism,
      ownerUsername: found.ownerUsername,
      notifiedUserId: notify ? prism.userId : null,
    };
  });
}

export interface Decision {
  view: AnnotationView;
  ownerUsername: string;
}

async function loadForDecision(tx: Executor, id: number) {
  const [found] = await tx
    .select({ row: annotations, prism: prisms, ownerUsername: users.username })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(eq(annotations.id, id))
    .for("update", { of: annotations });
  if (!found) throw notFound("Annotation not found");
  return found;
}

async function writeStatus(tx: Executor, id: number, status: AnnotationStatus) {
  const [row] = await tx
    .update(annotations)
    .set({ status })
    .where(eq(annotations.id, id))
    .returning();
  if (!row) throw notFound("Annotation not found");
  // Deciding on an annotation settles its notification.
  await markAnnotationNotificationsRead(tx, id);
  const [view] = await selectViews(tx).where(eq(annotations.id, id));
  if (!view) throw notFound("Annotation not found");
  return view;
}

/** The prism's owner (or an admin) approves or rejects a pending annotation, once. */
export async function decideAnnotation(
  db: Db,
  actor: UserRow | null,
  id: number,
  status: "approved" | "rejected",
): Promise<Decision> {
  if (!actor) throw unauthorized();
  return db.transaction(async (tx) => {
    const found = await loadForDecision(tx, id);
    const visible =
      found.row.status === "approved" ||
      canModerateAnnotations(actor, found.prism) ||
      found.row.userId === actor.id;
    if (!visible) throw notFound("Annotation not found");
    if (!canModerateAnnotations(actor, found.prism)) {
      throw forbidden("Only the prism's owner can approve or reject its annotations");
    }
    if (found.row.status !== "pending") throw conflict(annotationMessages.alreadyDecided);
    return { view: await writeStatus(tx, id, status), ownerUsername: found.ownerUsername };
  });
}

/** An admin sets any status, from any other. */
export async function setStatusAsAdmin(
  db: Db,
  actor: UserRow | null,
  id: number,
  status: AnnotationStatus,
) {
  if (!actor) throw unauthorized();
  if (!actor.isAdmin) throw forbidden("Only admins can do that");
  return db.transaction(async (tx) => {
    const found = await loadForDecision(tx, id);
    return { view: await writeStatus(tx, id, status), ownerUsername: found.ownerUsername };
  });
}

/**
 * After a prism's text changed: finds each of its annotations in the new text (see anchoring.ts),
 * updating offsets and context, or marking it orphaned. Runs inside the saving transaction.
 */
export async function reanchorAnnotations(
  tx: Executor,
  prismId: number,
  content: string,
): Promise<number> {
  const text = htmlToPlainText(content);
  const rows = await tx.select().from(annotations).where(eq(annotations.prismId, prismId));
  let changed = 0;
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
    );
    const next = placed
      ? {
          selectionStart: placed.start,
          selectionEnd: placed.end,
          prefix: placed.prefix,
          suffix: placed.suffix,
          orphaned: false,
        }
      : { orphaned: true };
    const same =
      placed !== null &&
      !row.orphaned &&
      placed.start === row.selectionStart &&
      placed.end === row.selectionEnd &&
      placed.prefix === row.prefix &&
      placed.suffix === row.suffix;
    if (same || (placed === null && row.orphaned)) continue;
    await tx.update(annotations).set(next).where(eq(annotations.id, row.id));
    changed += 1;
  }
  return changed;
}
