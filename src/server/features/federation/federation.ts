// Prism's Fedify federation: where the actor, its outbox and followers, each prism as an Article,
// WebFinger and NodeInfo are answered, and the inbox (inbox.ts) listens. Fedify keeps what it
// needs (keys and documents it fetched, activities it handled, deliveries waiting) in Prism's own
// database (kv-store.ts, message-queue.ts).
import {
  createExponentialBackoffPolicy,
  createFederation,
  SendActivityError,
} from "@fedify/fedify";
import { Article, Note, Tombstone } from "@fedify/fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { count } from "drizzle-orm";
import { recordDeliveryFailure } from "../../commands/domains.ts";
import type { NetworkWrite } from "../../commands/federation.ts";
import type { Db } from "../../db/client.ts";
import { federatedPrisms, federationActors } from "../../db/schema.ts";
import { restoreNatives } from "../../natives.ts";
import { addressPolicy } from "../../security/outgoing-fetch.ts";
import { ActorKeys } from "./actor-keys.ts";
import { domainOf } from "./domains.ts";
import { listenToInbox } from "./inbox.ts";
import type { InboxBudget } from "./inbox-guard.ts";
import { DbKvStore } from "./kv-store.ts";
import { DbMessageQueue, QUEUE_TIMING, type QueueTiming } from "./message-queue.ts";
import {
  articleOf,
  type FederationContext,
  identifierOf,
  type PrismData,
  type PrismFederation,
  personOf,
  prismActivity,
  replyNoteOf,
} from "./objects.ts";
import { sentReply } from "./replies.ts";
import {
  actorGoneAt,
  federatedActor,
  federatedMember,
  federatedMemberNamed,
  federatingPrismCount,
  federatingSummary,
  followerCount,
  goneActorNamed,
  prismsThatFederatePage,
  prismThatFederates,
} from "./service.ts";

// Fedify is loaded: the built-ins its jsonld replaced go back (natives.ts).
restoreNatives();

export interface FederationSettings {
  /**
   * Whether Fedify may fetch from and deliver to private, loopback and link-local addresses:
   * only the tests' servers, all on this machine, need it; never in production.
   */
  allowPrivateAddress?: boolean;
  /** How the delivery queue polls and leases, other than the defaults (tests poll faster). */
  queueTiming?: QueueTiming;
  /** The wait before a failed delivery's first retry, other than 30 s (tests wait less). */
  firstRetryDelay?: { milliseconds: number } | { seconds: number };
  /** Activities each domain may send every 10 minutes, other than INBOX_BUDGET (tests take less). */
  inboxBudget?: InboxBudget;
}

/** The addresses deliveries never go to: private ones, unless the settings allow them. */
export const refusedAddresses = (settings: FederationSettings) =>
  addressPolicy(!(settings.allowPrivateAddress ?? false));

/** How many times a delivery is tried before it is given up, with back-off between tries. */
const DELIVERY_ATTEMPTS = 10;

/** How many activities a page of the outbox holds. */
export const OUTBOX_PAGE_SIZE = 20;

const isIdentifier = (identifier: string) => /^\d{1,9}$/.test(identifier);

/** The member an actor URI's identifier names, when they federate. */
function memberOf(db: Db, identifier: string) {
  return isIdentifier(identifier) ? federatedMember(db, Number(identifier)) : null;
}

/**
 * The member an actor URI's identifier names, when they federate, with their actor: one read,
 * once a request (`data`).
 */
function actorNamedBy(db: Db, data: PrismData, identifier: string) {
  if (!isIdentifier(identifier)) return null;
  const userId = Number(identifier);
  const read = data?.actors.get(userId) ?? federatedActor(db, userId);
  data?.actors.set(userId, read);
  return read;
}

/** An actor that was there and is gone, as a `Tombstone`; null for one that never was. */
async function goneActor(ctx: FederationContext, db: Db, identifier: string) {
  const goneAt = isIdentifier(identifier) ? await actorGoneAt(db, Number(identifier)) : null;
  return goneAt
    ? new Tombstone({
        id: ctx.getActorUri(identifier),
        deleted: Temporal.Instant.fromEpochMilliseconds(
          goneAt.getTime(),
        ) as unknown as globalThis.Temporal.Instant,
      })
    : null;
}

/**
 * The actor, how a handle finds it, and its key pair. An actor that was there and is gone (its
 * member turned federation off, was deactivated or deleted their account) is a `Tombstone`, which
 * Fedify answers 410 Gone, at its address and through WebFinger; one that never was, 404. The
 * member and their actor are read together, their key pair imported once per process (`keys`).
 */
function dispatchActors(federation: PrismFederation, db: Db, keys: ActorKeys) {
  federation
    .setActorDispatcher("/ap/actors/{identifier}", async (ctx, identifier) => {
      const found = await actorNamedBy(db, ctx.data, identifier);
      if (!found) return goneActor(ctx, db, identifier);
      const { member } = found;
      const { firstTitle, count } = await federatingSummary(db, member.id);
      const actor = await keys.actorOf(db, member, found.actor);
      const { publicKey } = await keys.pairOf(actor);
      return personOf(ctx, member, publicKey, firstTitle, count);
    })
    .mapHandle(async (_ctx, username) => {
      const member = await federatedMemberNamed(db, username);
      const id = member ? member.id : await goneActorNamed(db, username);
      return id === null ? null : identifierOf(id);
    })
    .setKeyPairsDispatcher(async (ctx, identifier) => {
      const found = await actorNamedBy(db, ctx.data, identifier);
      if (!found) return [];
      return [await keys.pairOf(await keys.actorOf(db, found.member, found.actor))];
    });
}

/**
 * The outbox: every prism that federates, newest first, in pages of OUTBOX_PAGE_SIZE (a page's
 * cursor is the offset of its first item); the collection itself says how many and links its
 * first and last pages.
 */
function dispatchOutbox(federation: PrismFederation, db: Db) {
  const offsetOf = (cursor: string) =>
    cursor === "" ? 0 : /^\d{1,6}$/.test(cursor) ? Number(cursor) : null;
  federation
    .setOutboxDispatcher("/ap/actors/{identifier}/outbox", async (ctx, identifier, cursor) => {
      const member = await memberOf(db, identifier);
      const offset = cursor === null ? 0 : offsetOf(cursor);
      if (!member || offset === null) return null;
      const page = await prismsThatFederatePage(db, member.id, offset, OUTBOX_PAGE_SIZE + 1);
      const items = page
        .slice(0, OUTBOX_PAGE_SIZE)
        .map((prism) => prismActivity(ctx, member, prism, "create"));
      return {
        items,
        nextCursor: page.length > OUTBOX_PAGE_SIZE ? String(offset + OUTBOX_PAGE_SIZE) : null,
        prevCursor: offset > 0 ? String(Math.max(0, offset - OUTBOX_PAGE_SIZE)) : null,
      };
    })
    .setCounter(async (_ctx, identifier) => {
      const member = await memberOf(db, identifier);
      return member ? federatingPrismCount(db, member.id) : null;
    })
    .setFirstCursor(() => "0")
    .setLastCursor(async (_ctx, identifier) => {
      const member = await memberOf(db, identifier);
      if (!member) return null;
      const total = await federatingPrismCount(db, member.id);
      return String(Math.max(0, Math.ceil(total / OUTBOX_PAGE_SIZE) - 1) * OUTBOX_PAGE_SIZE);
    });
}

/** Followers (their number only), Articles, and the owner's answers to replies. */
function dispatchCollections(federation: PrismFederation, db: Db) {
  dispatchOutbox(federation, db);
  // Who follows a member is theirs to know: the collection says only how many do.
  federation
    .setFollowersDispatcher("/ap/actors/{identifier}/followers", async (_ctx, identifier) =>
      (await memberOf(db, identifier)) ? { items: [] } : null,
    )
    .setCounter(async (_ctx, identifier) => {
      const member = await memberOf(db, identifier);
      return member ? followerCount(db, member.id) : null;
    });
  federation.setObjectDispatcher(Article, "/ap/prisms/{id}", async (ctx, { id }) => {
    if (!isIdentifier(id)) return null;
    const found = await prismThatFederates(db, Number(id));
    return found ? articleOf(ctx, found.owner, found.prism) : null;
  });
  // The owner's reply to a fediverse reply, once sent: only while the response stays approved.
  federation.setObjectDispatcher(Note, "/ap/replies/{id}", async (ctx, { id }) => {
    if (!isIdentifier(id)) return null;
    const reply = await sentReply(db, Number(id));
    const found = reply && (await prismThatFederates(db, reply.prismId));
    return found ? replyNoteOf(ctx, found.owner, reply) : null;
  });
}

/** NodeInfo: Prism, over ActivityPub, with how many members and prisms federate. */
function dispatchNodeInfo(federation: PrismFederation, db: Db, version: string) {
  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async () => {
    const [actors] = await db.select({ n: count() }).from(federationActors);
    const [posts] = await db.select({ n: count() }).from(federatedPrisms);
    return {
      software: { name: "prism", version },
      protocols: ["activitypub"],
      openRegistrations: true,
      usage: { users: { total: actors?.n ?? 0 }, localPosts: posts?.n ?? 0, localComments: 0 },
    };
  });
}

/** The inbox a failed delivery was for: the error names it, whether answered or not reached. */
function failedInbox(error: Error): URL | null {
  if (error instanceof SendActivityError) return error.inbox;
  const { url } = error as { url?: unknown };
  return url instanceof URL ? url : null;
}

/** A delivery that failed, counted against its domain (Catalyst's Federation tab shows it). */
function noteFailure(write: NetworkWrite, error: Error) {
  const inbox = failedInbox(error);
  const domain = inbox && domainOf(inbox);
  if (!domain) return;
  const reason =
    error instanceof SendActivityError
      ? `Answered ${error.statusCode}`
      : `Not reached: ${error.message}`;
  return recordDeliveryFailure(write, domain, reason).catch(() => {});
}

/** Prism's federation on its database; its queue is started by the caller. */
export function createPrismFederation(
  write: NetworkWrite,
  origin: string,
  version: string,
  settings: FederationSettings = {},
): PrismFederation {
  const { db } = write;
  const federation = createFederation<PrismData>({
    kv: new DbKvStore(db),
    queue: new DbMessageQueue(db, settings.queueTiming ?? QUEUE_TIMING),
    manuallyStartQueue: true,
    origin,
    allowPrivateAddress: settings.allowPrivateAddress ?? false,
    userAgent: { software: `Prism/${version}`, url: new URL(origin) },
    signatureTimeWindow: { hours: 1 },
    onOutboxError: (error) => noteFailure(write, error),
    outboxRetryPolicy: createExponentialBackoffPolicy({
      maxAttempts: DELIVERY_ATTEMPTS,
      initialDelay: settings.firstRetryDelay ?? { seconds: 30 },
      maxDelay: { hours: 12 },
    }),
  });
  dispatchActors(federation, db, new ActorKeys());
  dispatchCollections(federation, db);
  dispatchNodeInfo(federation, db, version);
  listenToInbox(federation, write, refusedAddresses(settings));
  return federation;
}
