// A member's notifications: telling a prism's owner what others did, the list (with each prism's
// title and owner, and the status of the annotation it is about, in one query), the unread
// count, and the recipient's own changes. Every read and change is scoped to the recipient.
import { and, desc, eq, getTableColumns, ne, or, sql } from "drizzle-orm";
import type { PrismEvent } from "../../../contract/events.ts";
import { displayName, visitorName } from "../../../contract/names.ts";
import type { PageQuery } from "../../../contract/paging.ts";
import type { Db, Executor } from "../../db/client.ts";
import { annotations, notifications, prisms, type UserRow, users } from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import type { WithEvents } from "../../live/bus.ts";
import { memberKey, type Participant, participantKey } from "../../plugins/visitor.ts";
import type { HeartActor } from "../hearts/service.ts";

const { actorKey: _actorKey, ...shownColumns } = getTableColumns(notifications);

/**
 * A line of the list: a notification (a group of hearts: the newest) joined with what the page
 * shows of its prism; never the actor's key.
 */
export type NotificationView = Awaited<ReturnType<typeof listNotifications>>[number];

const notFoundMessage = "Notification not found";

/** Nobody is notified of what they did themselves. */
const isRecipient = (participant: Participant, recipientId: number) =>
  "user" in participant && participant.user.id === recipientId;

interface About {
  recipientId: number;
  prismId: number;
  participant: Participant;
}

/**
 * How a heart notification names and remembers its actor. A heart's toggle tells the owner of a
 * new heart from anyone but the owner, once per actor and prism (`toggleHeart`).
 */
export function heartActor(participant: Participant): HeartActor {
  return {
    key: participantKey(participant),
    name: "user" in participant ? displayName(participant.user) : null,
  };
}

/** Tells a prism's owner of a response to a passage; true when a notification was made. */
export async function notifyAnnotation(
  tx: Executor,
  about: About & { annotationId: number; annotatorName: string | null },
): Promise<boolean> {
  const { recipientId, prismId, participant } = about;
  if (isRecipient(participant, recipientId)) return false;
  await tx.insert(notifications).values({
    userId: recipientId,
    prismId,
    type: "annotation",
    annotationId: about.annotationId,
    actorName:
      "user" in participant ? displayName(participant.user) : visitorName(about.annotatorName),
  });
  return true;
}

/**
 * Tells the member who wrote a response what became of it: approved, rejected or answered by
 * `actor` (the prism's owner, or an admin deciding for them). Anonymous authors follow theirs by
 * their status link instead. A reply is news once per response: after the author was told of one,
 * a reply written again (taken back first) tells them nothing; the caller holds the response's
 * lock, so two replies at once still tell them once. Returns the event for the author's open
 * pages, if one was made.
 */
export async function notifyAuthor(
  tx: Executor,
  about: {
    annotation: { id: number; prismId: number; userId: number | null };
    actor: UserRow;
    type: "approved" | "rejected" | "reply";
  },
): Promise<PrismEvent[]> {
  const { annotation, actor, type } = about;
  if (annotation.userId === null || annotation.userId === actor.id) return [];
  if (type === "reply") {
    const [told] = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, annotation.userId),
          eq(notifications.annotationId, annotation.id),
          eq(notifications.type, "reply"),
        ),
      )
      .limit(1);
    if (told) return [];
  }
  await tx.insert(notifications).values({
    userId: annotation.userId,
    prismId: annotation.prismId,
    type,
    annotationId: annotation.id,
    actorName: displayName(actor),
    actorKey: memberKey(actor.id),
  });
  return [
    type === "reply"
      ? { type: "notification.created", userId: annotation.userId, mail: true }
      : { type: "notification.created", userId: annotation.userId },
  ];
}

/**
 * What makes one line of the list: every heart on one prism is one line ("Maya Okafor and 12
 * others liked your Prism"), each other notification a line of its own. Heart groups are keyed
 * by the negated prism id, so they never meet a notification's id.
 */
const lineKey = sql`case when ${notifications.type} = 'heart' then -${notifications.prismId} else ${notifications.id} end`;
const newestFirst = sql`${notifications.createdAt} desc, ${notifications.id} desc`;

/** The recipient's lines, each as its newest notification with the group's count, names and state. */
function selectLines(db: Executor, userId: number) {
  const lines = db.$with("lines").as(
    db
      .select({
        id: notifications.id,
        actorCount: sql<number>`count(*) over (partition by ${lineKey})`
          .mapWith(Number)
          .as("actor_count"),
        // As JSON: a text array's null would come back from the driver as the word NULL.
        actors: sql<(string | null)[]>`to_jsonb((array_agg(${notifications.actorName}) over (
            partition by ${lineKey} order by ${newestFirst}
            rows between unbounded preceding and unbounded following))[1:3])`.as("actors"),
        allRead: sql<boolean>`bool_and(${notifications.read}) over (partition by ${lineKey})`.as(
          "all_read",
        ),
        rank: sql<number>`row_number() over (partition by ${lineKey} order by ${newestFirst})`.as(
          "line_rank",
        ),
      })
      .from(notifications)
      .where(eq(notifications.userId, userId)),
  );
  const { read: _read, ...columns } = shownColumns;
  return db
    .with(lines)
    .select({
      ...columns,
      read: lines.allRead,
      actorCount: lines.actorCount,
      actors: lines.actors,
      prismTitle: prisms.title,
      prismOwnerUsername: users.username,
      annotationStatus: annotations.status,
    })
    .from(notifications)
    .innerJoin(lines, and(eq(lines.id, notifications.id), eq(lines.rank, 1)))
    .innerJoin(prisms, eq(prisms.id, notifications.prismId))
    .innerJoin(users, eq(users.id, prisms.userId))
    .leftJoin(annotations, eq(annotations.id, notifications.annotationId));
}

/** The recipient's notification lines, newest first (ties broken by id), one page at a time. */
export async function listNotifications(db: Executor, userId: number, page: PageQuery) {
  return selectLines(db, userId)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many lines of the recipient's list are unread (a group of hearts counts once). */
export async function unreadCount(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(distinct ${lineKey})`.mapWith(Number) })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false)));
  return row?.count ?? 0;
}

/** The notifications a line stands for: the hearts of its prism, or itself. */
async function lineOf(tx: Executor, userId: number, notificationId: number) {
  const [line] = await tx
    .select({ type: notifications.type, prismId: notifications.prismId })
    .from(notifications)
    .where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)));
  if (!line) throw notFound(notFoundMessage);
  return line.type === "heart"
    ? and(
        eq(notifications.userId, userId),
        eq(notifications.type, "heart"),
        eq(notifications.prismId, line.prismId),
      )
    : eq(notifications.id, notificationId);
}

/** Announces that the member's notifications changed (other than by a new one). */
const notificationsChanged = (userId: number): PrismEvent[] => [
  { type: "notifications.changed", userId },
];

/**
 * Marks one of the recipient's lines read (a group of hearts: all of them); someone else's is a
 * 404, like a missing one.
 */
export async function markNotificationRead(
  db: Db,
  userId: number,
  notificationId: number,
): Promise<WithEvents<{ notification: NotificationView }>> {
  return db.transaction(async (tx) => {
    const line = await lineOf(tx, userId, notificationId);
    const marked = await tx
      .update(notifications)
      .set({ read: true })
      .where(and(line, eq(notifications.read, false)))
      .returning({ id: notifications.id });
    const [notification] = await selectLines(tx, userId).where(
      sql`${notifications.id} in (select ${notifications.id} from ${notifications} where ${line})`,
    );
    if (!notification) throw notFound(notFoundMessage);
    return { notification, events: marked.length > 0 ? notificationsChanged(userId) : [] };
  });
}

/** Marks all of the recipient's unread notifications read; `count` is how many changed. */
export async function markAllNotificationsRead(
  db: Executor,
  userId: number,
): Promise<WithEvents<{ count: number }>> {
  const marked = await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  return { count: marked.length, events: marked.length > 0 ? notificationsChanged(userId) : [] };
}

/** Deletes one of the recipient's lines (a group of hearts: all of them); someone else's is a 404 and stays. */
export async function deleteNotification(
  db: Executor,
  userId: number,
  notificationId: number,
): Promise<WithEvents> {
  await db.delete(notifications).where(await lineOf(db, userId, notificationId));
  return { events: notificationsChanged(userId) };
}

/**
 * Marks read every notification asking for a decision on an annotation, inside the transaction
 * that decides it (what its author was told of it stays unread for them). Returns the recipients
 * whose notifications changed.
 */
export async function markAnnotationNotificationsRead(
  tx: Executor,
  annotationId: number,
): Promise<number[]> {
  const marked = await tx
    .update(notifications)
    .set({ read: true })
    .where(
      and(
        eq(notifications.annotationId, annotationId),
        eq(notifications.type, "annotation"),
        eq(notifications.read, false),
      ),
    )
    .returning({ userId: notifications.userId });
  return [...new Set(marked.map((row) => row.userId))];
}

/**
 * Before a member is deleted: removes the notifications their hearts made. Returns the other
 * members who lose notifications, these or (by cascade) those about the member's annotations.
 */
export async function forgetNotificationsBy(tx: Executor, userId: number): Promise<number[]> {
  const lost = await tx
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .leftJoin(annotations, eq(annotations.id, notifications.annotationId))
    .where(
      and(
        ne(notifications.userId, userId),
        or(eq(notifications.actorKey, memberKey(userId)), eq(annotations.userId, userId)),
      ),
    );
  await tx.delete(notifications).where(eq(notifications.actorKey, memberKey(userId)));
  return lost.map((row) => row.userId);
}
