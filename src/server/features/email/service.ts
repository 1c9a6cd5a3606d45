// E-mail notifications: which of a member's notifications are mailed (new responses to review,
// replies to theirs, and in the daily digest teammates' prisms), claiming them so that each is mailed once, the member's setting and their
// unsubscribe token. A claim is recorded in the transaction that makes it, and the message goes
// out after it commits: once the mail server accepted it, what it told of is marked mailed; when
// the server refused it, the claim is given back, so that a later run sends it. A process that
// stops with a message under way leaves its claim, which is void after CLAIM_LEASE_MS.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { EmailNotifications } from "../../../contract/user.ts";
import { type Db, type Executor, rowsOf } from "../../db/client.ts";
import { annotations, notifications, prisms, users } from "../../db/schema.ts";
import { memberSeesPrism } from "../../policy.ts";
import { emailSetting } from "../users/service.ts";

/**
 * The notifications that may be e-mailed: a response to review, an owner's reply to yours; and,
 * in the daily digest alone, a teammate's new or edited prism.
 */
export const MAILED_TYPES = ["annotation", "reply", "team.prism"] as const;

/** The notifications one message tells of at most (the rest are summed up in one line). */
export const DIGEST_ITEMS_MAX = 50;

/** A daily digest goes to a member at most once in this time. */
export const DIGEST_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim keeps a notification from other processes: far longer than a message takes
 * with its retries; past it the claim of a process that stopped is void.
 */
export const CLAIM_LEASE_MS = 60 * 60 * 1000;

/** An arbitrary, fixed key: whoever holds it in a transaction is the one sending digests. */
const DIGEST_LOCK = 0x707269736d;

/** What one notification says in an e-mail. */
export type MailedNotification =
  | {
      type: "annotation" | "reply";
      actorName: string | null;
      prismId: number;
      prismTitle: string;
      prismOwnerUsername: string;
      annotationId: number;
      selectedText: string;
      annotationText: string;
      replyText: string | null;
    }
  | {
      type: "team.prism";
      actorName: string | null;
      prismId: number;
      prismTitle: string;
      prismOwnerUsername: string;
    };

/** One message to write: a member and what it tells them. */
export interface Outgoing {
  recipient: { id: number; email: string; firstName: string };
  setting: Exclude<EmailNotifications, "never">;
  /** The oldest of what was claimed, at most DIGEST_ITEMS_MAX. */
  notifications: MailedNotification[];
  /** How many notifications were claimed for the message (what it shows, and the rest). */
  total: number;
  /** The claim: the notifications it holds, as of when. */
  claim: { ids: number[]; at: Date };
  /** The member's last digest before this one (restored when this one was refused for now). */
  lastDigestAt: Date | null;
}

/**
 * What an unsubscribe token names: a member (their e-mail notifications), or an anonymous response
 * (`r` and its id: the messages to the address its author left).
 */
type Subscriber = { userId: number } | { annotationId: number };

const subjectOf = (subscriber: Subscriber) =>
  "userId" in subscriber ? `${subscriber.userId}` : `r${subscriber.annotationId}`;

const sign = (secret: string, subject: string) =>
  createHmac("sha256", secret).update(`email-unsubscribe:${subject}`).digest("base64url");

/** A subscriber's token: who they are and its HMAC with the app's secret (nothing stored). */
function tokenOf(secret: string, subscriber: Subscriber): string {
  const subject = subjectOf(subscriber);
  return `${subject}.${sign(secret, subject)}`;
}

/** The member's unsubscribe token. */
export function unsubscribeToken(secret: string, userId: number): string {
  return tokenOf(secret, { userId });
}

/** The unsubscribe token of the address an anonymous response's author left. */
export function authorUnsubscribeToken(secret: string, annotationId: number): string {
  return tokenOf(secret, { annotationId });
}

/** The subscriber a token belongs to, when it is one of ours. */
function subscriberOf(secret: string, token: string): Subscriber | undefined {
  const match = /^(r?)([1-9]\d{0,9})\.([\w-]{43})$/.exec(token);
  if (!match) return undefined;
  const id = Number(match[2]);
  const subscriber = match[1] ? { annotationId: id } : { userId: id };
  const given = Buffer.from(match[3] ?? "");
  const expected = Buffer.from(sign(secret, subjectOf(subscriber)));
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? subscriber
    : undefined;
}

/**
 * Turns e-mail notifications off for the token's member, or forgets the address an anonymous
 * author left; false when the token names nobody.
 */
export async function unsubscribe(db: Executor, secret: string, token: string): Promise<boolean> {
  const subscriber = subscriberOf(secret, token);
  if (subscriber === undefined) return false;
  const updated =
    "userId" in subscriber
      ? await db
          .update(users)
          .set(emailSetting("never"))
          .where(and(eq(users.id, subscriber.userId), isNull(users.deactivatedAt)))
          .returning({ id: users.id })
      : await db
          .update(annotations)
          .set({ annotatorEmail: null })
          .where(and(eq(annotations.id, subscriber.annotationId), isNull(annotations.userId)))
          .returning({ id: annotations.id });
  return updated.length > 0;
}

/**
 * The statement that claims: it claims what is waiting, unclaimed, for the members `recipients`
 * selects and returns it. Only notifications with an annotation are mailed, which the index of
 * what is waiting (`notifications_unmailed_idx`) holds alone.
 */
/**
 * What any notification waiting to be mailed is: unread, neither mailed nor claimed (but for a
 * void claim), about a prism its member may see, made since they receive mail, and of a member
 * `recipients` selects with this setting.
 */
function waitingToBeMailed(now: Date, setting: Outgoing["setting"], recipients: SQL) {
  const voidBefore = new Date(now.getTime() - CLAIM_LEASE_MS).toISOString();
  return and(
    isNull(notifications.mailedAt),
    sql`(${notifications.mailClaimedAt} is null or ${notifications.mailClaimedAt} <= ${voidBefore}::timestamptz)`,
    eq(notifications.read, false),
    // Nothing about a prism the member may not see (a teammate's, made a draft since).
    memberSeesPrism(sql`${notifications.userId}`, sql`${notifications.prismId}`),
    sql`exists (select 1 from ${users} where ${users.id} = ${notifications.userId}
      and ${users.deactivatedAt} is null and ${notifications.createdAt} >= ${users.mailSince}
      and ${users.emailNotifications} = ${setting} and ${recipients})`,
  );
}

const claimedColumns = {
  id: notifications.id,
  userId: notifications.userId,
  createdAt: notifications.createdAt,
};

export function claimStatement(
  tx: Executor,
  now: Date,
  setting: Outgoing["setting"],
  recipients: SQL,
) {
  return tx
    .update(notifications)
    .set({ mailClaimedAt: now })
    .where(
      and(
        isNotNull(notifications.annotationId),
        inArray(notifications.type, ["annotation", "reply"]),
        // A response approved at once (members pre-approved) has nothing to review, and a
        // silenced member's tells nobody.
        sql`(${notifications.type} <> 'annotation' or exists (select 1 from ${annotations}
          where ${annotations.id} = ${notifications.annotationId} and ${annotations.status} = 'pending'
            and not ${annotations.silenced}))`,
        waitingToBeMailed(now, setting, recipients),
      ),
    )
    .returning(claimedColumns);
}

/**
 * Claims the teammates' prisms waiting for the daily digests of the members `recipients` selects:
 * found among each member's lines (`notifications_lines_idx`), not among every notification.
 */
function claimTeamPrisms(tx: Executor, now: Date, recipients: SQL) {
  return tx
    .update(notifications)
    .set({ mailClaimedAt: now })
    .where(
      and(
        sql`${notifications.userId} in (select ${users.id} from ${users}
          where ${users.emailNotifications} = 'daily' and ${recipients})`,
        eq(notifications.lineHead, true),
        eq(notifications.type, "team.prism"),
        waitingToBeMailed(now, "daily", recipients),
      ),
    )
    .returning(claimedColumns);
}

/** The ids as one parameter (a member may have thousands waiting). */
const anyOf = (ids: number[]) => sql`any(string_to_array(${ids.join(",")}, ',')::integer[])`;

/**
 * Claims, as of `now`, the unread notifications not yet mailed of the members `recipients`
 * selects (a condition on `users`), and reads what the messages say: each member's oldest
 * DIGEST_ITEMS_MAX. Unread: what the member already saw or decided on in Prism needs no e-mail;
 * nor does a response that is not pending.
 */
async function claim(
  tx: Executor,
  now: Date,
  setting: Outgoing["setting"],
  recipients: SQL,
): Promise<Outgoing[]> {
  const claimed = [
    ...(await claimStatement(tx, now, setting, recipients)),
    ...(setting === "daily" ? await claimTeamPrisms(tx, now, recipients) : []),
  ];
  if (claimed.length === 0) return [];
  const held = new Map<number, typeof claimed>();
  for (const row of claimed) {
    const rows = held.get(row.userId) ?? [];
    rows.push(row);
    held.set(row.userId, rows);
  }
  const shown = [...held.values()].flatMap((rows) =>
    rows
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
      .slice(0, DIGEST_ITEMS_MAX)
      .map((row) => row.id),
  );
  const owners = alias(users, "owners");
  const rows = await tx
    .select({
      recipient: { id: users.id, email: users.email, firstName: users.firstName },
      lastDigestAt: users.lastDigestAt,
      type: notifications.type,
      actorName: notifications.actorName,
      prismId: prisms.id,
      prismTitle: prisms.title,
      prismOwnerUsername: owners.username,
      annotationId: annotations.id,
      selectedText: annotations.selectedText,
      annotationText: annotations.annotationText,
      replyText: annotations.replyText,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .innerJoin(prisms, eq(prisms.id, notifications.prismId))
    .innerJoin(owners, eq(owners.id, prisms.userId))
    .leftJoin(annotations, eq(annotations.id, notifications.annotationId))
    .where(sql`${notifications.id} = ${anyOf(shown)}`)
    .orderBy(notifications.userId, notifications.createdAt, notifications.id);
  const byRecipient = new Map<number, Outgoing>();
  for (const { recipient, lastDigestAt, ...notification } of rows) {
    const ids = held.get(recipient.id)?.map((row) => row.id) ?? [];
    const outgoing = byRecipient.get(recipient.id) ?? {
      recipient,
      setting,
      notifications: [],
      total: ids.length,
      claim: { ids, at: now },
      lastDigestAt,
    };
    outgoing.notifications.push(notification as MailedNotification);
    byRecipient.set(recipient.id, outgoing);
  }
  return [...byRecipient.values()];
}

/**
 * Claims what is waiting for a member who wants each notification at once: `userId`, or every
 * such member (what a message the server refused left waiting).
 */
export async function claimImmediate(
  db: Db,
  userId: number | null,
  now: Date,
): Promise<Outgoing[]> {
  return db.transaction((tx) =>
    claim(tx, now, "immediately", userId === null ? sql`true` : sql`${users.id} = ${userId}`),
  );
}

/** The mail server accepted the message: what it told of is mailed. */
export async function markMailed(db: Db, outgoing: Outgoing, now: Date): Promise<void> {
  await db
    .update(notifications)
    .set({ mailedAt: now })
    .where(sql`${notifications.id} = ${anyOf(outgoing.claim.ids)}`);
}

/**
 * The mail server refused the message: its claim is given back, so that a later run sends what it
 * told of. A digest refused for now (`transient`) is due again at once; one refused for good
 * (the address, say) waits for the next day's.
 */
export async function releaseClaim(db: Db, outgoing: Outgoing, transient: boolean): Promise<void> {
  const { claim: held, recipient } = outgoing;
  await db.transaction(async (tx) => {
    await tx
      .update(notifications)
      .set({ mailClaimedAt: null })
      .where(
        and(
          sql`${notifications.id} = ${anyOf(held.ids)}`,
          eq(notifications.mailClaimedAt, held.at),
          isNull(notifications.mailedAt),
        ),
      );
    if (outgoing.setting === "daily" && transient) {
      await tx
        .update(users)
        .set({ lastDigestAt: outgoing.lastDigestAt })
        .where(and(eq(users.id, recipient.id), eq(users.lastDigestAt, held.at)));
    }
  });
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
