// A member's notifications: the list (with each prism's title and owner, in one query), the unread
// count, and the recipient's own changes. Every query is scoped to the recipient.
import { and, desc, eq } from "drizzle-orm";
import type { PageQuery } from "../../../contract/paging.ts";
import type { Db, Executor } from "../../db/client.ts";
import { notifications, prisms, users } from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";

/** A notification row joined with what the page shows of its prism; never the actor's key. */
export interface NotificationView {
  id: number;
  userId: number;
  prismId: number;
  type: "heart" | "annotation";
  actorName: string | null;
  read: boolean;
  createdAt: Date;
  annotationId: number | null;
  prismTitle: string;
  prismOwnerUsername: string;
}

const notFoundMessage = "Notification not found";

function selectViews(db: Executor) {
  return db
    .select({
      id: notifications.id,
      userId: notifications.userId,
      prismId: notifications.prismId,
      type: notifications.type,
      actorName: notifications.actorName,
      read: notifications.read,
      createdAt: notifications.createdAt,
      annotationId: notifications.annotationId,
      prismTitle: prisms.title,
      prismOwnerUsername: users.username,
    })
    .from(notifications)
    .innerJoin(prisms, eq(prisms.id, notifications.prismId))
    .innerJoin(users, eq(users.id, prisms.userId));
}

/** The recipient's notifications, newest first (ties broken by id), one page at a time. */
export async function listNotifications(
  db: Executor,
  userId: number,
  { limit, offset }: PageQuery,
): Promise<NotificationView[]> {
  return selectViews(db)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
    .offset(offset);
}

export async function unreadCount(db: Executor, userId: number): Promise<number> {
  return db.$count(
    notifications,
    and(eq(notifications.userId, userId), eq(notifications.read, false)),
  );
}

export interface NotificationRead {
  notification: NotificationView;
  /** False when it was already read: nothing changed, nothing to announce. */
  changed: boolean;
}

/** Marks one of the recipient's notifications read; someone else's is a 404, like a missing one. */
export async function markNotificationRead(
  db: Db,
  userId: number,
  notificationId: number,
): Promise<NotificationRead> {
  return db.transaction(async (tx) => {
    const own = and(eq(notifications.id, notificationId), eq(notifications.userId, userId));
    const [current] = await tx
      .select({ read: notifications.read })
      .from(notifications)
      .where(own)
      .for("update");
    if (!current) throw notFound(notFoundMessage);
    if (!current.read) await tx.update(notifications).set({ read: true }).where(own);
    const [notification] = await selectViews(tx).where(eq(notifications.id, notificationId));
    if (!notification) throw notFound(notFoundMessage);
    return { notification, changed: !current.read };
  });
}

/** Marks all of the recipient's unread notifications read; returns how many changed. */
export async function markAllNotificationsRead(db: Executor, userId: number): Promise<number> {
  const changed = await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  return changed.length;
}

/** Deletes one of the recipient's notifications; someone else's is a 404 and stays. */
export async function deleteNotification(
  db: Executor,
  userId: number,
  notificationId: number,
): Promise<void> {
  const deleted = await db
    .delete(notifications)
    .where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (deleted.length === 0) throw notFound(notFoundMessage);
}

/**
 * Marks read every notification about an annotation, for use inside the transaction that decides
 * it. Returns the recipients whose notifications changed: the caller announces
 * `notifications.changed` for each after the transaction commits.
 */
export async function markAnnotationNotificationsRead(
  tx: Executor,
  annotationId: number,
): Promise<number[]> {
  const changed = await tx
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.annotationId, annotationId), eq(notifications.read, false)))
    .returning({ userId: notifications.userId });
  return [...new Set(changed.map((row) => row.userId))];
}
