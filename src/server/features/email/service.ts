// E-mail notifications: which of a member's notifications are mailed (new responses to review,
// replies to theirs), claiming them so that each is mailed at most once, the member's setting and
// their unsubscribe token. Claims are recorded in the transaction that makes them; the message
// goes out after it commits, so a message that fails is lost rather than sent twice.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { EmailNotifications } from "../../../contract/user.ts";
import { type Db, type Executor, rowsOf } from "../../db/client.ts";
import { annotations, notifications, prisms, users } from "../../db/schema.ts";
import { emailSetting } from "../users/service.ts";

/** The notifications that may be e-mailed: a response to review, an owner's reply to yours. */
export const MAILED_TYPES = ["annotation", "reply"] as const;

/** A daily digest goes to a member at most once in this time. */
export const DIGEST_EVERY_MS = 24 * 60 * 60 * 1000;

/** An arbitrary, fixed key: whoever holds it in a transaction is the one sending digests. */
const DIGEST_LOCK = 0x707269736d;

/** What one notification says in an e-mail. */
export interface MailedNotification {
  type: (typeof MAILED_TYPES)[number];
  actorName: string | null;
  prismTitle: string;
  prismOwnerUsername: string;
  selectedText: string;
  annotationText: string;
  replyText: string | null;
}

/** One message to write: a member and what it tells them. */
export interface Outgoing {
  recipient: { id: number; email: string; firstName: string };
  setting: Exclude<EmailNotifications, "never">;
  notifications: MailedNotification[];
}

const sign = (secret: string, userId: number) =>
  createHmac("sha256", secret).update(`email-unsubscribe:${userId}`).digest("base64url");

/** The member's unsubscribe token: their id and its HMAC with the app's secret (nothing stored). */
export function unsubscribeToken(secret: string, userId: number): string {
  return `${userId}.${sign(secret, userId)}`;
}

/** The member a token belongs to, when it is one of ours. */
function memberOfToken(secret: string, token: string): number | undefined {
  const match = /^([1-9]\d{0,9})\.([\w-]{43})$/.exec(token);
  if (!match) return undefined;
  const userId = Number(match[1]);
  const given = Buffer.from(match[2] ?? "");
  const expected = Buffer.from(sign(secret, userId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : undefined;
}

/** Turns e-mail notifications off for the token's member; false when no member has that token. */
export async function unsubscribe(db: Executor, secret: string, token: string): Promise<boolean> {
  const userId = memberOfToken(secret, token);
  if (userId === undefined) return false;
  const updated = await db
    .update(users)
    .set(emailSetting("never"))
    .where(and(eq(users.id, userId), isNull(users.deactivatedAt)))
    .returning({ id: users.id });
  return updated.length > 0;
}

/**
 * The statement that claims: it marks mailed what is waiting for the members `recipients` selects
 * and returns its ids. Only notifications with an annotation are mailed, which the index of what
 * is waiting (`notifications_unmailed_idx`) holds alone.
 */
export function claimStatement(
  tx: Executor,
  now: Date,
  setting: Outgoing["setting"],
  recipients: SQL,
) {
  return tx
    .update(notifications)
    .set({ mailedAt: now })
    .where(
      and(
        isNull(notifications.mailedAt),
        isNotNull(notifications.annotationId),
        inArray(notifications.type, [...MAILED_TYPES]),
        eq(notifications.read, false),
        // A response approved at once (members pre-approved) has nothing to review.
        sql`(${notifications.type} <> 'annotation' or exists (select 1 from ${annotations}
          where ${annotations.id} = ${notifications.annotationId} and ${annotations.status} = 'pending'))`,
        sql`exists (select 1 from ${users} where ${users.id} = ${notifications.userId}
          and ${users.deactivatedAt} is null and ${notifications.createdAt} >= ${users.mailSince}
          and ${users.emailNotifications} = ${setting} and ${recipients})`,
      ),
    )
    .returning({ id: notifications.id });
}

/**
 * Marks mailed, as of `now`, the unread notifications not yet mailed of the members `recipients`
 * selects (a condition on `users`), and reads what the messages say. Unread: what the member
 * already saw or decided on in Prism needs no e-mail; nor does a response that is not pending.
 */
async function claim(
  tx: Executor,
  now: Date,
  setting: Outgoing["setting"],
  recipients: SQL,
): Promise<Outgoing[]> {
  const claimed = await claimStatement(tx, now, setting, recipients);
  if (claimed.length === 0) return [];
  const owners = alias(users, "owners");
  const rows = await tx
    .select({
      recipient: { id: users.id, email: users.email, firstName: users.firstName },
      type: notifications.type,
      actorName: notifications.actorName,
      prismTitle: prisms.title,
      prismOwnerUsername: owners.username,
      selectedText: annotations.selectedText,
      annotationText: annotations.annotationText,
      replyText: annotations.replyText,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .innerJoin(prisms, eq(prisms.id, notifications.prismId))
    .innerJoin(owners, eq(owners.id, prisms.userId))
    .innerJoin(annotations, eq(annotations.id, notifications.annotationId))
    .where(
      inArray(
        notifications.id,
        claimed.map((row) => row.id),
      ),
    )
    .orderBy(notifications.userId, notifications.createdAt, notifications.id);
  const byRecipient = new Map<number, Outgoing>();
  for (const { recipient, ...notification } of rows) {
    const outgoing = byRecipient.get(recipient.id) ?? { recipient, setting, notifications: [] };
    outgoing.notifications.push(notification as MailedNotification);
    byRecipient.set(recipient.id, outgoing);
  }
  return [...byRecipient.values()];
}

/** Claims what is waiting for a member who wants each notification at once. */
export async function claimImmediate(db: Db, userId: number, now: Date): Promise<Outgoing[]> {
  return db.transaction((tx) => claim(tx, now, "immediately", sql`${users.id} = ${userId}`));
}

/**
 * Claims the daily digests due at `now`: for every member on "daily" whose last digest is at least
 * a day old, everything waiting. One process at a time does it (an advisory lock held by the
 * transaction); another finds the lock taken and claims nothing this time.
 */
export async function claimDigests(db: Db, now: Date): Promise<Outgoing[]> {
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${DIGEST_LOCK}) as locked`),
    );
    if (!lock?.locked) return [];
    const dueBefore = new Date(now.getTime() - DIGEST_EVERY_MS).toISOString();
    const due = await claim(
      tx,
      now,
      "daily",
      sql`(${users.lastDigestAt} is null or ${users.lastDigestAt} <= ${dueBefore}::timestamptz)`,
    );
    if (due.length > 0) {
      await tx
        .update(users)
        .set({ lastDigestAt: now })
        .where(
          inArray(
            users.id,
            due.map((outgoing) => outgoing.recipient.id),
          ),
        );
    }
    return due;
  });
}
