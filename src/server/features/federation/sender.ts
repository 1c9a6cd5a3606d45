// Sends a member's followers what changed, once its transaction has committed: every command
// that changes what a member's page shows announces it (`prisms.changed`, `profile.changed`),
// and the sender, hearing that, works out what the followers have not been sent yet (`plan`,
// recorded as sent in one transaction, so that of all the processes that hear an event one
// sends each change) and puts the activities in the delivery queue. When a prism's responses
// change, the owner's replies to fediverse replies not yet sent go to their authors (`Note`s).
import type { SenderKeyPair } from "@fedify/fedify";
import { importJwk } from "@fedify/fedify";
import {
  type Activity,
  PUBLIC_COLLECTION,
  type Recipient,
  Reject,
  Update,
} from "@fedify/fedify/vocab";
import type { PrismEvent } from "../../../contract/events.ts";
import { claimReplyNotes, type NetworkWrite, planDeliveries } from "../../commands/federation.ts";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { refusesUrl } from "../../security/outgoing-fetch.ts";
import { blockedDomains, followerOnDomains, onDomains } from "./domains.ts";
import type { PrismFederation } from "./objects.ts";
import {
  actorDeletion,
  type FederationContext,
  followAcceptance,
  followOf,
  identifierOf,
  personOf,
  prismActivity,
  prismDeletion,
  replyActivity,
} from "./objects.ts";
import type { ReplyNote } from "./replies.ts";
import {
  type ActorRow,
  actorRow,
  type FollowerRow,
  federatingSummary,
  type Plan,
} from "./service.ts";

interface Log {
  error: (details: object, message: string) => void;
}

const recipientOf = (follower: FollowerRow): Recipient => ({
  id: new URL(follower.actorId),
  inboxId: new URL(follower.inbox),
  endpoints: follower.sharedInbox ? { sharedInbox: new URL(follower.sharedInbox) } : null,
});

/** The actor's key, as its document names it: it signs even after the actor has gone. */
async function keysOf(ctx: FederationContext, actor: ActorRow): Promise<SenderKeyPair[]> {
  const actorUri = ctx.getActorUri(identifierOf(actor.userId));
  return [
    {
      keyId: new URL(`${actorUri.href}#main-key`),
      privateKey: await importJwk(actor.privateKey, "private"),
    },
  ];
}

/** Tells a follower whose follow waited that the owner accepted it: an `Accept` of their follow. */
export const acceptance = (actorUri: URL, follower: FollowerRow) =>
  followAcceptance(actorUri, followOf(actorUri, follower));

/** Tells a follower the owner removed them: a `Reject` of their follow, as Mastodon sends. */
export const rejection = (actorUri: URL, follower: FollowerRow) =>
  new Reject({
    id: new URL(`${actorUri.href}#reject-${follower.id}-${Date.now()}`),
    actor: actorUri,
    object: followOf(actorUri, follower),
  });

/**
 * Sends one follower of `userId`'s actor what `about` says of their follow (`acceptance`,
 * `rejection`), signed with the actor's key, unless they can no longer be reached.
 */
export async function sendToFollower(
  ctx: FederationContext,
  db: Db,
  refuses: (address: string) => boolean,
  to: { userId: number; follower: FollowerRow },
  about: (actorUri: URL, follower: FollowerRow) => Activity,
): Promise<void> {
  const { userId, follower } = to;
  if ((await reachable(db, [follower], refuses)).length === 0) return;
  const keys = await keysOf(ctx, await actorRow(db, userId));
  const actorUri = ctx.getActorUri(identifierOf(userId));
  await ctx.sendActivity(keys, recipientOf(follower), about(actorUri, follower));
}

/** The member's actor as it is now, in an `Update` of it. */
async function personUpdate(ctx: FederationContext, db: Db, member: UserRow): Promise<Update> {
  const identifier = identifierOf(member.id);
  const { firstTitle, count } = await federatingSummary(db, member.id);
  const [key] = await ctx.getActorKeyPairs(identifier);
  const person = personOf(ctx, member, key?.publicKey ?? null, firstTitle, count);
  return new Update({
    id: new URL(`${person.id?.href}#update-${Date.now()}`),
    actor: person.id,
    to: PUBLIC_COLLECTION,
    object: person,
  });
}

/**
 * The followers whose inboxes are still not on Prism's own network, nor on a domain an admin
 * blocked.
 */
async function reachable(db: Db, followers: FollowerRow[], refuses: (address: string) => boolean) {
  const blocked = await blockedDomains(db);
  const found: FollowerRow[] = [];
  for (const follower of followers) {
    if (followerOnDomains(follower, blocked)) continue;
    const inboxes = [follower.inbox, ...(follower.sharedInbox ? [follower.sharedInbox] : [])];
    const refused = await Promise.all(inboxes.map((inbox) => refusesUrl(new URL(inbox), refuses)));
    if (!refused.includes(true)) found.push(follower);
  }
  return found;
}

/** Queues one plan's activities to the actor's followers. */
async function deliver(
  ctx: FederationContext,
  db: Db,
  plan: Plan,
  refuses: (address: string) => boolean,
): Promise<void> {
  const followers = await reachable(db, plan.followers, refuses);
  if (followers.length === 0) return;
  const keys = await keysOf(ctx, plan.actor);
  const acceptedNow = new Set(plan.accepted.map((follower) => follower.id));
  const actorUri = ctx.getActorUri(identifierOf(plan.actor.userId));
  for (const follower of followers.filter(({ id }) => acceptedNow.has(id)))
    await ctx.sendActivity(keys, recipientOf(follower), acceptance(actorUri, follower));
  const recipients = followers.map(recipientOf);
  const send = (activity: Parameters<FederationContext["sendActivity"]>[2]) =>
    ctx.sendActivity(keys, recipients, activity, { preferSharedInbox: true });
  const { member } = plan;
  if (!member) {
    await send(actorDeletion(ctx, plan.actor.userId));
    return;
  }
  if (plan.profileChanged) await send(await personUpdate(ctx, db, member));
  for (const prism of plan.created) await send(prismActivity(ctx, member, prism, "create"));
  for (const prism of plan.updated) await send(prismActivity(ctx, member, prism, "update"));
  for (const prismId of plan.deleted) await send(prismDeletion(ctx, member.id, prismId));
}

/** Sends the owner's reply to the author of the fediverse reply it answers. */
async function sendReplyNote(
  ctx: FederationContext,
  db: Db,
  { annotation, owner, sentBefore }: ReplyNote,
  refuses: (address: string) => boolean,
): Promise<void> {
  const { remoteActorId, remoteInbox } = annotation;
  if (!remoteActorId || !remoteInbox || (await refusesUrl(new URL(remoteInbox), refuses))) return;
  const blocked = await blockedDomains(db);
  if ([remoteActorId, remoteInbox].some((address) => onDomains(address, blocked))) return;
  const keys = await keysOf(ctx, await actorRow(db, owner.id));
  const recipient = { id: new URL(remoteActorId), inboxId: new URL(remoteInbox) };
  const activity = replyActivity(ctx, owner, annotation, sentBefore ? "update" : "create");
  await ctx.sendActivity(keys, recipient, activity);
}

/** The usernames whose followers may have something new to be sent. */
function memberOfEvent(event: PrismEvent): string | null {
  return event.type === "prisms.changed" || event.type === "profile.changed"
    ? event.username
    : null;
}

/** Sends one piece of what the sender found: a plan of deliveries, or an owner's reply. */
type Send<T> = (
  ctx: FederationContext,
  db: Db,
  item: T,
  refuses: (address: string) => boolean,
) => Promise<void>;
const changesFailed = "federation: could not send a member's changes";
const replyFailed = "federation: could not send an owner's reply";

/**
 * Starts sending: each member whose page changed is planned and delivered in turn, one at a
 * time in this process. Returns what stops it, and what waits for the work begun so far.
 */
export function startSender(
  federation: PrismFederation,
  write: NetworkWrite,
  origin: string,
  log: Log,
  refuses: (address: string) => boolean,
) {
  let queue: Promise<void> = Promise.resolve();
  const ctx = federation.createContext(new URL(origin), undefined);
  // Each piece of work sends, in turn, what it finds to send; a failure is logged and goes no
  // further, so that the queue carries on with the next piece.
  const sendAll = async <T>(found: Promise<T[]>, send: Send<T>, about: object, failure: string) => {
    try {
      for (const item of await found) await send(ctx, write.db, item, refuses);
    } catch (error) {
      log.error({ err: error, ...about }, failure);
    }
  };
  const run = (username: string) =>
    sendAll(planDeliveries(write, username), deliver, { username }, changesFailed);
  const answer = (prismId: number) =>
    sendAll(claimReplyNotes(write, prismId), sendReplyNote, { prismId }, replyFailed);
  const unsubscribe = write.bus.subscribe((event) => {
    const username = memberOfEvent(event);
    if (username !== null) queue = queue.then(() => run(username));
    // Only a change anyone may hear of concerns an approved response: an answer to send. A reply
    // that lands pending, or a decision on one that stays unapproved, is not looked at.
    if (event.type === "annotation.changed" && !event.audience) {
      const { prismId } = event;
      queue = queue.then(() => answer(prismId));
    }
  });
  return { stop: unsubscribe, idle: () => queue };
}
