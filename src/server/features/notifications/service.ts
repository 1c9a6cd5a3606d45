// A member's notifications: telling a prism's owner what others did, the list (with each prism's
// title and owner, and the status of the annotation it is about, in one query), the unread
// count, and the recipient's own changes. Every read and change is scoped to the recipient.
import { and, desc, eq, getTableColumns, inArray, ne, not, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { displayName } from "../../../contract/names.ts";
import type { PageQuery } from "../../../contract/paging.ts";
import { type Participant, participantKey, userKey } from "../../actors.ts";
import { type Executor, rowsOf } from "../../db/client.ts";
import { param } from "../../db/prepared.ts";
import {
  annotations,
  notifications,
  prisms,
  teamMembers,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import { prismsVisibleTo } from "../../policy.ts";

const {
  actorKey: _actorKey,
  lineHead: _lineHead,
  actors: _actors,
  ...shownColumns
} = getTableColumns(notifications);

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
 * The part of the heart's one statement (`toggleHeart`) that tells a prism's owner of a new heart
 * from anyone but the owner, once per actor and prism (the notifications' unique index), naming
 * and remembering the actor. It reads the statement's relations `prism` (the prism's id and
 * owner's user_id) and `added` (a row when the heart is new: the hearting member's user_id, null
 * for a visitor), and returns a row when it told. Its SQL is the same for every heart, so that
 * the statement is written once; the actor comes in its values.
 */
const heartNotice = sql`insert into ${notifications} (user_id, prism_id, type, actor_name, actor_key)
    select prism.user_id, prism.id, 'heart', ${param("actorName", "text")}, ${param("actorKey", "text")}
    from prism, added
    where prism.user_id is distinct from added.user_id
    on conflict do nothing
    returning 1`;

/** The owner's notification of a heart from `participant`: `heartNotice` and its values. */
export function notifyOfHeart(participant: Participant): {
  insert: SQL;
  values: { actorName: string | null; actorKey: string };
} {
  return {
    insert: heartNotice,
    values: {
      actorName: "user" in participant ? displayName(participant.user) : null,
      actorKey: participantKey(participant),
    },
  };
}

/** Tells a prism's owner of a response to a passage; true when a notification was made. */
export async function notifyAnnotation(
  tx: Executor,
  about: About & { annotationId: number; responderName: string | null },
): Promise<boolean> {
  const { recipientId, prismId, participant } = about;
  if (isRecipient(participant, recipientId)) return false;
  await tx.insert(notifications).values({
    userId: recipientId,
    prismId,
    type: "annotation",
    annotationId: about.annotationId,
    actorName: "user" in participant ? displayName(participant.user) : about.responderName,
  });
  return true;
}

/**
 * Tells the members who wrote responses what became of them: approved, rejected or answered by
 * `actor` (the prism's owner, or an admin deciding for them), one notification each. Anonymous
 * authors follow theirs by their status link instead, and nobody is told of what they did
 * themselves. A reply is news once per response: after the author was told of one, a reply
 * written again (taken back first) tells them nothing; the caller holds the responses' locks, so
 * two replies at once still tell them once. Returns the members told.
 */
export async function notifyAuthors(
  tx: Executor,
  about: {
    annotations: { id: number; prismId: number; userId: number | null }[];
    actor: UserRow;
    type: "approved" | "rejected" | "reply";
  },
): Promise<number[]> {
  const { actor, type } = about;
  let told = about.annotations.flatMap((annotation) =>
    annotation.userId === null || annotation.userId === actor.id
      ? []
      : [{ ...annotation, userId: annotation.userId }],
  );
  if (type === "reply" && told.length > 0) {
    const replied = await tx
      .select({ annotationId: notifications.annotationId })
      .from(notifications)
      .where(
        and(
          inArray(
            notifications.annotationId,
            told.map((annotation) => annotation.id),
          ),
          eq(notifications.type, "reply"),
        ),
      );
    const before = new Set(replied.map((row) => row.annotationId));
    told = told.filter((annotation) => !before.has(annotation.id));
  }
  if (told.length === 0) return [];
  await tx.insert(notifications).values(
    told.map((annotation) => ({
      userId: annotation.userId,
      prismId: annotation.prismId,
      type,
      annotationId: annotation.id,
      actorName: displayName(actor),
      actorKey: userKey(actor.id),
    })),
  );
  return [...new Set(told.map((annotation) => annotation.userId))];
}

/**
 * Tells the author's teammates who asked for it (Profile Settings) of their new or edited prism,
 * when it is one they may read (public or for the author's teams; a private one tells nobody).
 * A teammate has one unread line per prism: an edit while it waits moves it up and stacks
 * nothing. Returns the members told.
 */
export async function notifyTeammatesOfPrism(
  tx: Executor,
  author: UserRow,
  prism: { id: number; audience: "public" | "team" | "private" },
): Promise<number[]> {
  if (prism.audience === "private") return [];
  // An edit takes the prism's row first, so two edits of one prism tell its teammates in turn.
  const rows = rowsOf<{ user_id: number }>(
    await tx.execute(sql`with told as (
        select distinct theirs.user_id from ${teamMembers} mine
        join ${teamMembers} theirs on theirs.team_id = mine.team_id
        join ${users} teammate on teammate.id = theirs.user_id
        where mine.user_id = ${author.id} and theirs.user_id <> ${author.id}
          and teammate.notify_team_prisms and teammate.deactivated_at is null),
      moved as (
        update ${notifications} line set created_at = now(), actor_name = ${displayName(author)}
        from told where line.user_id = told.user_id and line.prism_id = ${prism.id}
          and line.type = 'team.prism' and not line.read
        returning line.user_id),
      added as (
        insert into ${notifications} (user_id, prism_id, type, actor_name, actor_key)
        select user_id, ${prism.id}::int, 'team.prism', ${displayName(author)}::text,
          ${userKey(author.id)}::text
        from told where user_id not in (select user_id from moved)
        returning user_id)
      select user_id from moved union all select user_id from added`),
  );
  return rows.map((row) => row.user_id);
}

const hearts = alias(notifications, "hearts");

/** A prism's hearts, in `table` (the notifications, or an alias of them). */
const heartsOf = (table: typeof notifications | typeof hearts, prismId: number | SQL) =>
  and(eq(table.prismId, prismId), eq(table.type, "heart"));

/**
 * The members other than `userId` told of a response of theirs: their lists change when the
 * author is silenced or heard again.
 */
export async function toldOfResponsesBy(tx: Executor, userId: number): Promise<number[]> {
  const rows = await tx
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .innerJoin(annotations, eq(annotations.id, notifications.annotationId))
    .where(and(eq(annotations.userId, userId), ne(notifications.userId, userId)));
  return rows.map((row) => row.userId);
}

/** The members told of something on this prism: their lists change when who may see it does. */
export async function recipientsOn(tx: Executor, prismId: number): Promise<number[]> {
  const rows = await tx
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(eq(notifications.prismId, prismId));
  return rows.map((row) => row.userId);
}

/**
 * The recipient's lines: each is its head (a notification, or the newest of a prism's hearts,
 * which counts them and holds the line's read state; see `lineHead`), with what the page shows of
 * its prism and the three newest names of a group of hearts. A line costs the same however many
 * hearts it stands for.
 */
function selectLines(db: Executor, which: SQL | undefined) {
  return db
    .select({
      ...shownColumns,
      actors: sql<
        (string | null)[]
      >`coalesce(${notifications.actors}, jsonb_build_array(${notifications.actorName}))`,
      prismTitle: prisms.title,
      prismOwnerUsername: users.username,
      annotationStatus: annotations.status,
      selectedText: annotations.selectedText,
      annotationText: annotations.annotationText,
      replyText: annotations.replyText,
    })
    .from(notifications)
    .innerJoin(prisms, eq(prisms.id, notifications.prismId))
    .innerJoin(users, eq(users.id, prisms.userId))
    .leftJoin(annotations, eq(annotations.id, notifications.annotationId))
    .where(which);
}

const silencedResponses = alias(annotations, "silenced_responses");

/**
 * Whether a notification is about a response of a silenced member's (`annotations.silenced`),
 * told to someone else: what it told is hidden, not deleted, so that it is back, read or not,
 * when its author is heard again. The author's own (a decision, a reply) stay theirs.
 */
const aboutSilencedResponse = (recipientId: number) =>
  sql`exists (select 1 from ${annotations} as ${silencedResponses}
    where ${silencedResponses.id} = ${notifications.annotationId}
      and ${silencedResponses.silenced} and ${silencedResponses.userId} is distinct from ${recipientId})`;

/**
 * Of the recipient's notifications, those about prisms they may see: one about a prism that left
 * their sight (a teammate's prism made a draft) is absent until it comes back; and none about a
 * silenced member's response, admins' included (as their review queue holds none).
 */
const aboutVisiblePrisms = (recipient: Recipient) =>
  and(
    eq(notifications.userId, recipient.id),
    prismsVisibleTo(recipient),
    not(aboutSilencedResponse(recipient.id)),
  );

type Recipient = Pick<UserRow, "id" | "isAdmin">;

/** The recipient's notification lines, newest first (ties broken by id), one page at a time. */
export function listNotifications(db: Executor, recipient: Recipient, page: PageQuery) {
  return selectLines(db, and(aboutVisiblePrisms(recipient), notifications.lineHead))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many lines of the recipient's list are unread (a group of hearts counts once). */
export async function unreadCount(db: Executor, recipient: Recipient): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(notifications)
    .innerJoin(prisms, eq(prisms.id, notifications.prismId))
    .where(
      and(aboutVisiblePrisms(recipient), eq(notifications.read, false), notifications.lineHead),
    );
  return row?.count ?? 0;
}

/**
 * The notification of the recipient's that a page names, or 404 when it is not theirs (found by
 * its id alone, which no statistics can lead astray).
 */
async function lineOf(tx: Executor, userId: number, notificationId: number) {
  const [line] = await tx
    .select({
      id: notifications.id,
      userId: notifications.userId,
      type: notifications.type,
      prismId: notifications.prismId,
    })
    .from(notifications)
    .where(eq(notifications.id, notificationId));
  if (line?.userId !== userId) throw notFound(notFoundMessage);
  return line;
}

type Line = Awaited<ReturnType<typeof lineOf>>;

/**
 * Every notification a line stands for: the hearts of its prism (its head and the rest, each
 * found by its own index), or itself.
 */
const wholeLine = (line: Line) =>
  line.type === "heart"
    ? or(
        and(heartsOf(notifications, line.prismId), notifications.lineHead),
        and(heartsOf(notifications, line.prismId), not(notifications.lineHead)),
      )
    : eq(notifications.id, line.id);

/**
 * The head of a line: a heart's group may have a newer head than the one the page shows (found in
 * one step, by its own index), any other notification is its own.
 */
const headOf = (line: Line) =>
  eq(
    notifications.id,
    line.type === "heart"
      ? sql`(select ${hearts.id} from ${notifications} as ${hearts}
          where ${and(heartsOf(hearts, line.prismId), hearts.lineHead)})`
      : line.id,
  );

/**
 * Marks one of the recipient's lines read (a group of hearts: its head, which holds the line's
 * state); someone else's is a 404, like a missing one. `marked`: it was unread.
 */
export async function markNotificationRead(
  tx: Executor,
  userId: number,
  notificationId: number,
): Promise<{ notification: NotificationView; marked: boolean }> {
  const line = headOf(await lineOf(tx, userId, notificationId));
  const marked = await tx
    .update(notifications)
    .set({ read: true })
    .where(and(line, eq(notifications.read, false)))
    .returning({ id: notifications.id });
  const [notification] = await selectLines(tx, line);
  if (!notification) throw notFound(notFoundMessage);
  return { notification, marked: marked.length > 0 };
}

/** Marks all of the recipient's unread lines read; returns how many changed. */
export async function markAllNotificationsRead(db: Executor, userId: number): Promise<number> {
  const marked = await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  return marked.length;
}

/** Deletes one of the recipient's lines (a group of hearts: all of them); someone else's is a 404 and stays. */
export async function deleteNotification(
  db: Executor,
  userId: number,
  notificationId: number,
): Promise<void> {
  await db.delete(notifications).where(wholeLine(await lineOf(db, userId, notificationId)));
}

/**
 * Marks read every notification asking for a decision on the annotations, inside the transaction
 * that decides them (what their authors were told of them stays unread for them). Returns the
 * recipients whose notifications changed.
 */
export async function markAnnotationNotificationsRead(
  tx: Executor,
  annotationIds: number[],
): Promise<number[]> {
  const marked = await tx
    .update(notifications)
    .set({ read: true })
    .where(
      and(
        inArray(notifications.annotationId, annotationIds),
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
        or(eq(notifications.actorKey, userKey(userId)), eq(annotations.userId, userId)),
      ),
    );
  await tx.delete(notifications).where(eq(notifications.actorKey, userKey(userId)));
  return lost.map((row) => row.userId);
}
