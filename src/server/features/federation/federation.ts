// Prism's Fedify federation: where the actor, its outbox and followers, each prism as an Article,
// WebFinger and NodeInfo are answered, and the inbox (inbox.ts) listens. Fedify keeps what it
// needs (keys and documents it fetched, activities it handled, deliveries waiting) in Prism's own
// database (kv-store.ts, message-queue.ts).
import { createExponentialBackoffPolicy, createFederation, importJwk } from "@fedify/fedify";
import { Article, Note } from "@fedify/fedify/vocab";
import { count } from "drizzle-orm";
import type { NetworkWrite } from "../../commands/federation.ts";
import type { Db } from "../../db/client.ts";
import { federatedPrisms, federationActors } from "../../db/schema.ts";
import { addressPolicy } from "../../security/outgoing-fetch.ts";
import { listenToInbox } from "./inbox.ts";
import { DbKvStore } from "./kv-store.ts";
import { DbMessageQueue, QUEUE_TIMING, type QueueTiming } from "./message-queue.ts";
import {
  articleOf,
  identifierOf,
  type PrismFederation,
  personOf,
  prismActivity,
  replyNoteOf,
} from "./objects.ts";
import { sentReply } from "./replies.ts";
import {
  actorOf,
  federatedMember,
  federatedMemberNamed,
  followerCount,
  prismsThatFederate,
  prismThatFederates,
} from "./service.ts";

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
}

/** The addresses deliveries never go to: private ones, unless the settings allow them. */
export const refusedAddresses = (settings: FederationSettings) =>
  addressPolicy(!(settings.allowPrivateAddress ?? false));

/** How many times a delivery is tried before it is given up, with back-off between tries. */
const DELIVERY_ATTEMPTS = 10;

/** The member an actor URI's identifier names, when they federate. */
function memberOf(db: Db, identifier: string) {
  return /^\d{1,9}$/.test(identifier) ? federatedMember(db, Number(identifier)) : null;
}

/** The actor, how a handle finds it, and its key pair. */
function dispatchActors(federation: PrismFederation, db: Db) {
  federation
    .setActorDispatcher("/ap/actors/{identifier}", async (ctx, identifier) => {
      const member = await memberOf(db, identifier);
      if (!member) return null;
      const prisms = await prismsThatFederate(db, member.id);
      const first = [...prisms].sort((a, b) => a.index - b.index)[0];
      const keys = await ctx.getActorKeyPairs(identifier);
      return personOf(ctx, member, keys, first?.title ?? null, prisms.length);
    })
    .mapHandle(async (_ctx, username) => {
      const member = await federatedMemberNamed(db, username);
      return member ? identifierOf(member.id) : null;
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const member = await memberOf(db, identifier);
      if (!member) return [];
      const actor = await actorOf(db, member);
      return [
        {
          publicKey: await importJwk(actor.publicKey, "public"),
          privateKey: await importJwk(actor.privateKey, "private"),
        },
      ];
    });
}

/** The outbox (every prism that federates, newest first), followers (their number only), Articles. */
function dispatchCollections(federation: PrismFederation, db: Db) {
  federation
    .setOutboxDispatcher("/ap/actors/{identifier}/outbox", async (ctx, identifier) => {
      const member = await memberOf(db, identifier);
      if (!member) return null;
      const prisms = await prismsThatFederate(db, member.id);
      return { items: prisms.map((prism) => prismActivity(ctx, member, prism, "create")) };
    })
    .setCounter(async (_ctx, identifier) => {
      const member = await memberOf(db, identifier);
      return member ? (await prismsThatFederate(db, member.id)).length : null;
    });
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
    if (!/^\d{1,9}$/.test(id)) return null;
    const found = await prismThatFederates(db, Number(id));
    return found ? articleOf(ctx, found.owner, found.prism) : null;
  });
  // The owner's reply to a fediverse reply, once sent: only while the response stays approved.
  federation.setObjectDispatcher(Note, "/ap/replies/{id}", async (ctx, { id }) => {
    if (!/^\d{1,9}$/.test(id)) return null;
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

/** Prism's federation on its database; its queue is started by the caller. */
export function createPrismFederation(
  write: NetworkWrite,
  origin: string,
  version: string,
  settings: FederationSettings = {},
): PrismFederation {
  const { db } = write;
  const federation = createFederation<void>({
    kv: new DbKvStore(db),
    queue: new DbMessageQueue(db, settings.queueTiming ?? QUEUE_TIMING),
    manuallyStartQueue: true,
    origin,
    allowPrivateAddress: settings.allowPrivateAddress ?? false,
    userAgent: { software: `Prism/${version}`, url: new URL(origin) },
    signatureTimeWindow: { hours: 1 },
    outboxRetryPolicy: createExponentialBackoffPolicy({
      maxAttempts: DELIVERY_ATTEMPTS,
      initialDelay: settings.firstRetryDelay ?? { seconds: 30 },
      maxDelay: { hours: 12 },
    }),
  });
  dispatchActors(federation, db);
  dispatchCollections(federation, db);
  dispatchNodeInfo(federation, db, version);
  listenToInbox(federation, write, refusedAddresses(settings));
  return federation;
}
