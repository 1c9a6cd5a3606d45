// A member as an ActivityPub actor, read and written on Prism's database: who federates (one
// rule for members, one for prisms), their key pair, their followers, and what their followers
// were last sent, to compare with their prisms when something changed (`plan`).
import { createHash } from "node:crypto";
import { exportJwk, generateCryptoKeyPair } from "@fedify/fedify";
import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { FollowersQuery } from "../../../contract/federation.ts";
import type { Db, Executor } from "../../db/client.ts";
import { sameIgnoringCase } from "../../db/ignoring-case.ts";
import { prepared } from "../../db/prepared.ts";
import {
  federatedPrisms,
  federationActors,
  federationFollowers,
  federationTombstones,
  type PrismRow,
  prisms,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import { blockedDomains, followerOnDomains } from "./domains.ts";

export type ActorRow = typeof federationActors.$inferSelect;
export type FollowerRow = typeof federationFollowers.$inferSelect;
/** A member who federates, and their actor (null before it was first asked for). */
export type FederatedActor = { member: UserRow; actor: ActorRow | null };

/**
 * The prisms of a member that travel to their followers: the public prisms of a listed page. A
 * prism that leaves them (an audience narrowed, a page unlisted) is deleted on followers' servers;
 * everything federation sends and shows follows this.
 */
export function federatingPrisms(userId: number | typeof users.id) {
  return and(
    eq(prisms.userId, userId),
    eq(prisms.audience, "public"),
    sql`${prisms.userId} in (select ${users.id} from ${users} where ${users.listed})`,
  );
}

/** Members who are actors: active, with federation turned on. */
const federating = and(isNull(users.deactivatedAt), eq(users.federated, true));

/** A prism, joined with its owner, that travels: its owner is an actor, and it is public. */
export const prismFederates = and(federating, federatingPrisms(users.id));

/** The member with this id, when they federate. */
export async function federatedMember(db: Executor, userId: number): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), federating));
  return user ?? null;
}

/**
 * The member with this id, when they federate, with their actor (null when it was never asked
 * for): one read.
 */
export async function federatedActor(db: Db, userId: number): Promise<FederatedActor | null> {
  const read = prepared(db, "federated_actor", () =>
    db
      .select({ member: users, actor: federationActors })
      .from(users)
      .leftJoin(federationActors, eq(federationActors.userId, users.id))
      .where(and(eq(users.id, sql.placeholder("userId")), federating))
      .prepare("federated_actor"),
  );
  const [row] = await read.execute({ userId });
  return row ?? null;
}

/** The member with this username (whatever its case), when they federate. */
export async function federatedMemberNamed(db: Db, username: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sameIgnoringCase(users.username, username), federating))
    .limit(1);
  return user ?? null;
}

/** What of a member their actor shows, as a digest: when it changes, followers are told. */
export function profileDigest(member: UserRow): string {
  const shown = [
    member.username,
    member.firstName,
    member.lastName,
    member.displayName,
    member.websiteUrl,
    member.twitterUrl,
    member.linkedinUrl,
    member.profileImageUrl,
    member.approveFollowers,
  ];
  return createHash("sha256").update(JSON.stringify(shown)).digest("base64url");
}

/** The member's actor: its key pair made the first time it is asked for. */
export async function actorOf(db: Executor, user: UserRow) {
  const [found] = await db
    .select()
    .from(federationActors)
    .where(eq(federationActors.userId, user.id));
  if (found) return found;
  const pair = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const inserted = await db
    .insert(federationActors)
    .values({
      userId: user.id,
      username: user.username,
      publicKey: await exportJwk(pair.publicKey),
      privateKey: await exportJwk(pair.privateKey),
      profileDigest: profileDigest(user),
    })
    .onConflictDoNothing()
    .returning({ userId: federationActors.userId });
  // What the member wrote before they federated is in the outbox, not sent again to followers;
  // an actor that was gone is there again.
  if (inserted.length > 0) {
    await markSent(db, user.id, await prismsThatFederate(db, user.id));
    await db.delete(federationTombstones).where(eq(federationTombstones.userId, user.id));
  }
  const [made] = await db
    .select()
    .from(federationActors)
    .where(eq(federationActors.userId, user.id));
  if (!made) throw notFound("Actor not found");
  return made;
}

/** The actor of `userId`, which must be there. */
export async function actorRow(db: Executor, userId: number): Promise<ActorRow> {
  const [actor] = await db
    .select()
    .from(federationActors)
    .where(eq(federationActors.userId, userId));
  if (!actor) throw notFound("Actor not found");
  return actor;
}

/** The member's prisms that federate, newest first (as an outbox lists them). */
export function prismsThatFederate(db: Executor, userId: number): Promise<PrismRow[]> {
  return db
    .select()
    .from(prisms)
    .where(federatingPrisms(userId))
    .orderBy(desc(prisms.updatedAt), desc(prisms.id));
}

/**
 * What the member's actor says of their prisms that federate: the first one's title (by the
 * order of their page) and how many there are; one read of one row, without their content.
 */
export async function federatingSummary(
  db: Executor,
  userId: number,
): Promise<{ firstTitle: string | null; count: number }> {
  const [first] = await db
    .select({ title: prisms.title, count: sql<number>`(count(*) over ())::int` })
    .from(prisms)
    .where(federatingPrisms(userId))
    .orderBy(asc(prisms.index), desc(prisms.updatedAt), desc(prisms.id))
    .limit(1);
  return { firstTitle: first?.title ?? null, count: first?.count ?? 0 };
}

/** A page of the member's prisms that federate, newest first: `limit` of them from `offset`. */
export function prismsThatFederatePage(
  db: Executor,
  userId: number,
  offset: number,
  limit: number,
): Promise<PrismRow[]> {
  return db
    .select()
    .from(prisms)
    .where(federatingPrisms(userId))
    .orderBy(desc(prisms.updatedAt), desc(prisms.id))
    .offset(offset)
    .limit(limit);
}

/** How many of the member's prisms federate. */
export async function federatingPrismCount(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(prisms).where(federatingPrisms(userId));
  return row?.n ?? 0;
}

/**
 * When the actor of `userId` went (a tombstone, or an actor whose member no longer federates and
 * whose `Delete` is about to be sent); null when it is there, or never was.
 */
export async function actorGoneAt(db: Executor, userId: number): Promise<Date | null> {
  const [gone] = await db
    .select({ at: federationTombstones.deletedAt })
    .from(federationTombstones)
    .where(eq(federationTombstones.userId, userId));
  if (gone) return gone.at;
  const [actor] = await db
    .select({ userId: federationActors.userId })
    .from(federationActors)
    .where(eq(federationActors.userId, userId));
  return actor && !(await federatedMember(db, userId)) ? new Date() : null;
}

/** The member whose actor went last under this username (any case); null when none did. */
export async function goneActorNamed(db: Executor, username: string): Promise<number | null> {
  const [gone] = await db
    .select({ userId: federationTombstones.userId })
    .from(federationTombstones)
    .where(sql`lower(${federationTombstones.username}) = lower(${username})`)
    .orderBy(desc(federationTombstones.deletedAt))
    .limit(1);
  return gone?.userId ?? null;
}

/** One prism that federates, with its owner (who federates); null otherwise. */
export async function prismThatFederates(db: Db, prismId: number) {
  const read = prepared(db, "prism_that_federates", () =>
    db
      .select({ prism: prisms, owner: users })
      .from(prisms)
      .innerJoin(users, eq(users.id, prisms.userId))
      .where(and(eq(prisms.id, sql.placeholder("prismId")), prismFederates))
      .prepare("prism_that_federates"),
  );
  const [row] = await read.execute({ prismId });
  return row ?? null;
}

/** A follower as their `Follow` named them. */
export interface NewFollower {
  actorId: string;
  followId: string;
  inbox: string;
  sharedInbox: string | null;
  handle: string | null;
}

/**
 * Records a follower of the member's actor, waiting for the member to accept them when `pending`
 * (following again refreshes what is known of them, and keeps a follower accepted); the row.
 */
export async function addFollower(
  db: Executor,
  userId: number,
  follower: NewFollower,
  pending: boolean,
): Promise<FollowerRow> {
  const [row] = await db
    .insert(federationFollowers)
    .values({ userId, ...follower, pending })
    .onConflictDoUpdate({
      target: [federationFollowers.userId, federationFollowers.actorId],
      set: follower,
    })
    .returning();
  if (!row) throw notFound("Follower not found");
  return row;
}

/** The owner accepts a follow that waits for them; 404 when none of theirs waits by that id. */
export async function acceptFollower(db: Executor, userId: number, id: number) {
  const [accepted] = await db
    .update(federationFollowers)
    .set({ pending: false })
    .where(
      and(
        eq(federationFollowers.userId, userId),
        eq(federationFollowers.id, id),
        eq(federationFollowers.pending, true),
      ),
    )
    .returning();
  if (!accepted) throw notFound("Follow request not found");
  return accepted;
}

/** Every follow waiting for the member, accepted (they no longer approve followers themselves). */
function acceptAllWaiting(db: Executor, userId: number): Promise<FollowerRow[]> {
  return db
    .update(federationFollowers)
    .set({ pending: false })
    .where(and(eq(federationFollowers.userId, userId), eq(federationFollowers.pending, true)))
    .returning();
}

/** Forgets a follower who undid their follow; whether they were one. */
export async function removeFollowerActor(db: Executor, userId: number, actorId: string) {
  const removed = await db
    .delete(federationFollowers)
    .where(and(eq(federationFollowers.userId, userId), eq(federationFollowers.actorId, actorId)))
    .returning({ id: federationFollowers.id });
  return removed.length > 0;
}

/** The owner removes one of their followers; 404 when it is not theirs. */
export async function removeFollower(db: Executor, userId: number, id: number) {
  const [removed] = await db
    .delete(federationFollowers)
    .where(and(eq(federationFollowers.userId, userId), eq(federationFollowers.id, id)))
    .returning();
  if (!removed) throw notFound("Follower not found");
  return removed;
}

/** The member's accepted followers (those deliveries go to), first followers first. */
export function followersOf(db: Executor, userId: number): Promise<FollowerRow[]> {
  return db
    .select()
    .from(federationFollowers)
    .where(and(eq(federationFollowers.userId, userId), eq(federationFollowers.pending, false)))
    .orderBy(asc(federationFollowers.createdAt), asc(federationFollowers.id));
}

/**
 * A member's own followers (none when they never federated): those waiting for them, those
 * accepted, or all, waiting ones first; first followers first.
 */
export function followersOfMember(
  db: Db,
  member: UserRow,
  { status }: FollowersQuery,
): Promise<FollowerRow[]> {
  const ofStatus =
    status === undefined ? undefined : eq(federationFollowers.pending, status === "pending");
  return db
    .select()
    .from(federationFollowers)
    .where(and(eq(federationFollowers.userId, member.id), ofStatus))
    .orderBy(
      desc(federationFollowers.pending),
      asc(federationFollowers.createdAt),
      asc(federationFollowers.id),
    );
}

/** How many followers the member's actor has: accepted ones only. */
export async function followerCount(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(federationFollowers)
    .where(and(eq(federationFollowers.userId, userId), eq(federationFollowers.pending, false)));
  return row?.n ?? 0;
}

/** Records these prisms as sent to the member's followers, as they are now. */
async function markSent(tx: Executor, userId: number, sent: PrismRow[]) {
  for (const prism of sent) {
    const values = { prismId: prism.id, userId, sentAt: new Date(), version: prism.updatedAt };
    await tx
      .insert(federatedPrisms)
      .values(values)
      .onConflictDoUpdate({ target: federatedPrisms.prismId, set: values });
  }
}

/** What a member's followers are to be sent, worked out from what changed since last time. */
export interface Plan {
  actor: ActorRow;
  /** The member as they federate now; null: the actor is gone (its `Delete` is to be sent). */
  member: UserRow | null;
  followers: FollowerRow[];
  created: PrismRow[];
  updated: PrismRow[];
  deleted: number[];
  /** The member's profile changed since followers last saw it. */
  profileChanged: boolean;
  /** Follows that waited and are accepted now (the member no longer approves them): `Accept`s. */
  accepted: FollowerRow[];
}

/** The actors of this username or of the member who has it now, locked for the transaction. */
async function lockedActors(tx: Executor, username: string): Promise<ActorRow[]> {
  const owner = tx
    .select({ id: users.id })
    .from(users)
    .where(sameIgnoringCase(users.username, username));
  return tx
    .select()
    .from(federationActors)
    .where(
      sql`lower(${federationActors.username}) = lower(${username}) or ${inArray(federationActors.userId, owner)}`,
    )
    .for("update");
}

/** Compares the member's prisms with what was sent, and records them as sent now. */
async function diffPrisms(tx: Executor, actor: ActorRow, member: UserRow) {
  const current = await prismsThatFederate(tx, member.id);
  const sent = await tx
    .select()
    .from(federatedPrisms)
    .where(eq(federatedPrisms.userId, actor.userId));
  const sentById = new Map(sent.map((row) => [row.prismId, row]));
  const created = current.filter((prism) => !sentById.has(prism.id));
  const updated = current.filter((prism) => {
    const row = sentById.get(prism.id);
    return row !== undefined && row.version.getTime() !== prism.updatedAt.getTime();
  });
  const currentIds = new Set(current.map((prism) => prism.id));
  const deleted = sent.filter((row) => !currentIds.has(row.prismId)).map((row) => row.prismId);
  if (deleted.length > 0) {
    await tx.delete(federatedPrisms).where(inArray(federatedPrisms.prismId, deleted));
  }
  await markSent(tx, member.id, [...created, ...updated]);
  return { created, updated, deleted };
}

/**
 * What the followers of `username`'s actor (or of the member who has that username now) are to
 * be sent since they were last sent anything, recorded as sent in the same transaction: the
 * prisms made, saved or gone, or, when the member no longer federates (federation turned off,
 * the account deactivated or deleted), the actor's own deletion, its keys and followers
 * forgotten. Concurrent plans of the same actor wait for each other, so each change is sent once.
 */
export async function plan(tx: Executor, username: string): Promise<Plan[]> {
  const plans: Plan[] = [];
  // A follower on a domain blocked as the plan is made is sent none of it, even once the domain
  // is opened again before the sending is done.
  const blocked = await blockedDomains(tx);
  for (const actor of await lockedActors(tx, username)) {
    const member = await federatedMember(tx, actor.userId);
    const accepted =
      member && !member.approveFollowers ? await acceptAllWaiting(tx, actor.userId) : [];
    const followers = (await followersOf(tx, actor.userId)).filter(
      (follower) => !followerOnDomains(follower, blocked),
    );
    if (!member) {
      await tx.delete(federationActors).where(eq(federationActors.userId, actor.userId));
      // Its address answers 410 Gone from now on, so that servers that ask drop it.
      const tombstone = { username: actor.username, deletedAt: new Date() };
      await tx
        .insert(federationTombstones)
        .values({ userId: actor.userId, ...tombstone })
        .onConflictDoUpdate({ target: federationTombstones.userId, set: tombstone });
      const nothing = { created: [], updated: [], deleted: [], profileChanged: false, accepted };
      plans.push({ actor, member, followers, ...nothing });
      continue;
    }
    const digest = profileDigest(member);
    const profileChanged = digest !== actor.profileDigest;
    if (profileChanged || member.username !== actor.username) {
      await tx
        .update(federationActors)
        .set({ username: member.username, profileDigest: digest })
        .where(eq(federationActors.userId, actor.userId));
    }
    const prisms = await diffPrisms(tx, actor, member);
    plans.push({ actor, member, followers, profileChanged, accepted, ...prisms });
  }
  return plans;
}
