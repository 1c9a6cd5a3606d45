// The actor's inbox: a `Follow` is accepted at once (Follow → Accept) and its follower recorded,
// or, when the member approves followers themselves, waits for them; an `Undo` of it forgets the
// follower. A `Flag` is a report for Catalyst (reports.ts). A `Note` replying to a prism arrives as a response (see
// replies.ts), which its author's `Update` edits and `Delete` withdraws; a `Like` of a prism is a
// heart (undone by `Undo`). Fedify has checked the request's HTTP signature (the key
// must belong to the activity's actor, the date be recent, the body match its digest) before any
// listener runs: an unsigned or tampered request is answered 401.
import type { InboxListenerSetters } from "@fedify/fedify";
import {
  Article,
  Create,
  Delete,
  Flag,
  Follow,
  isActor,
  Like,
  Note,
  Undo,
  Update,
} from "@fedify/fedify/vocab";
import { LRUCache } from "lru-cache";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import {
  editReply,
  forgetFollower,
  heartFromFediverse,
  type NetworkWrite,
  receiveReply,
  receiveReport,
  recordFollower,
  withdrawRemoteReply,
} from "../../commands/federation.ts";
import { HttpError } from "../../http-error.ts";
import { refusesUrl } from "../../security/outgoing-fetch.ts";
import {
  type FederationContext,
  followAcceptance,
  type PrismData,
  type PrismFederation,
} from "./objects.ts";
import { replyTextOf, responseOf } from "./replies.ts";
import { reportTarget } from "./reports.ts";
import { federatedMember, prismThatFederates } from "./service.ts";

/** The inbox's listeners, on the actor's own inbox and the shared one. */
export function listenToInbox(
  federation: PrismFederation,
  write: NetworkWrite,
  refuses: (address: string) => boolean,
) {
  const { db } = write;
  const listeners = federation.setInboxListeners("/ap/actors/{identifier}/inbox", "/ap/inbox");
  listenToReplies(listeners, write, refuses);
  listeners
    .on(Flag, async (ctx, flag) => {
      if (!flag.id || !flag.actorId) return;
      const objects = flag.objectIds;
      const target = await reportTarget(ctx, db, objects);
      if (!target) return;
      await receiveReport(write, {
        ...target,
        activityId: flag.id.href,
        reporterActorId: flag.actorId.href,
        reporterDomain: flag.actorId.host,
        objects: objects.slice(0, 20).map((address) => address.href),
        comment: htmlToPlainText(flag.content?.toString() ?? "").trim(),
      });
    })
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== "actor" || !/^\d{1,9}$/.test(target.identifier)) return;
      const member = await federatedMember(db, Number(target.identifier));
      if (!member) return;
      const follower = await follow.getActor(ctx);
      if (!isActor(follower) || !follower.id || !follower.inboxId) return;
      if (follower.id.href !== follow.actorId.href) return;
      // Deliveries go where the follower's server says: never to Prism's own network.
      const sharedInbox = follower.endpoints?.sharedInbox ?? null;
      for (const inbox of [follower.inboxId, ...(sharedInbox ? [sharedInbox] : [])]) {
        if (await refusesUrl(inbox, refuses)) return;
      }
      const recorded = await recordFollower(write, member, {
        actorId: follower.id.href,
        followId: follow.id.href,
        inbox: follower.inboxId.href,
        sharedInbox: sharedInbox?.href ?? null,
        handle: follower.preferredUsername
          ? `@${follower.preferredUsername}@${follower.id.host}`
          : null,
      });
      // A follow that waits for the member is answered when they accept or decline it.
      if (recorded.pending) return;
      const accept = followAcceptance(follow.objectId, follow);
      await ctx.sendActivity({ identifier: target.identifier }, follower, accept);
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (!(object instanceof Like || object instanceof Follow) || !undo.actorId) return;
      if (object.actorId?.href !== undo.actorId.href) return;
      if (object instanceof Like) {
        await heartFrom(ctx, write, object, false);
        return;
      }
      if (!object.objectId) return;
      const target = ctx.parseUri(object.objectId);
      if (target?.type !== "actor" || !/^\d{1,9}$/.test(target.identifier)) return;
      await forgetFollower(write, Number(target.identifier), undo.actorId.href);
    });
}

/** The prism an address names: its `Article`'s id, or its page (`/{username}?prism=`). */
function prismNamed(ctx: FederationContext, target: URL | null): number | null {
  if (!target) return null;
  const parsed = ctx.parseUri(target);
  const id =
    parsed?.type === "object" && parsed.class === Article
      ? parsed.values.id
      : target.origin === ctx.origin
        ? target.searchParams.get("prism")
        : null;
  return id && /^\d{1,9}$/.test(id) ? Number(id) : null;
}

/**
 * A `Like` of a prism that federates is a heart from its actor (`liked`), or, undone, no longer
 * (`Undo` of it).
 */
async function heartFrom(ctx: FederationContext, write: NetworkWrite, like: Like, liked: boolean) {
  if (!like.actorId) return;
  const prismId = prismNamed(ctx, like.objectId);
  if (prismId === null || !(await prismThatFederates(write.db, prismId))) return;
  await heartFromFediverse(write, prismId, like.actorId.href, liked);
}

/** A reply a prism (or its owner) does not take is dropped, as Mastodon drops what it refuses. */
async function unlessRefused(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof HttpError && error.statusCode < 500)) throw error;
  }
}

/**
 * Replies to prisms: a `Create` of a `Note` arrives, its author's `Update` and `Delete` follow;
 * and `Like`s of prisms.
 */
function listenToReplies(
  listeners: InboxListenerSetters<PrismData>,
  write: NetworkWrite,
  refuses: (address: string) => boolean,
) {
  const authors = new Authors();
  listeners
    .on(Create, async (ctx, create) => {
      const note = await create.getObject(ctx);
      if (!(note instanceof Note) || !note.id || !create.actorId) return;
      const noteId = note.id;
      if (note.attributionId?.href !== create.actorId.href) return;
      const prismId = prismNamed(ctx, note.replyTargetId);
      const found = prismId === null ? null : await prismThatFederates(write.db, prismId);
      if (!found) return;
      const author = await authors.of(create, ctx);
      // The owner's answer goes to the author's inbox: never one on Prism's own network.
      if (!author || (await refusesUrl(author.inbox, refuses))) return;
      const input = responseOf(found.prism, note.content?.toString() ?? "", author.name);
      if (!input) return;
      // Where the note is shown, linked from the response: a web page, or nothing.
      const url = [note.url instanceof URL ? note.url : note.url?.href, note.id].find(
        (address) => address?.protocol === "https:" || address?.protocol === "http:",
      );
      await unlessRefused(() =>
        receiveReply(write, input, {
          remoteActorId: author.id,
          remoteHandle: author.handle,
          remoteInbox: author.inbox.href,
          remoteNoteId: noteId.href,
          remoteNoteUrl: url?.href ?? null,
        }),
      );
    })
    .on(Update, async (ctx, update) => {
      const note = await update.getObject(ctx);
      if (!(note instanceof Note) || !note.id || !update.actorId) return;
      if (note.attributionId?.href !== update.actorId.href) return;
      const text = replyTextOf(note.content?.toString() ?? "");
      if (text.length > 0) await editReply(write, note.id.href, update.actorId.href, text);
    })
    .on(Like, async (ctx, like) => {
      await heartFrom(ctx, write, like, true);
    })
    .on(Delete, async (_ctx, deletion) => {
      if (!deletion.objectId || !deletion.actorId) return;
      await withdrawRemoteReply(write, deletion.objectId.href, deletion.actorId.href);
    });
}

/** What a reply needs of its author. */
interface Author {
  id: string;
  name: string | null;
  inbox: URL;
  /** `@name@host`, or the actor's address when they give no name. */
  handle: string;
}

/**
 * Authors of replies, as their servers last described them, for five minutes (as long as Fedify
 * keeps a fetched document): a conversation's or a crowd's next replies fetch no actor again,
 * and two of one author's replies handled at once fetch them once.
 */
class Authors {
  private readonly known = new LRUCache<string, Promise<Author | null>>({
    max: 10_000,
    ttl: 5 * 60_000,
  });

  of(create: Create, ctx: FederationContext): Promise<Author | null> {
    const id = create.actorId?.href;
    if (id === undefined) return Promise.resolve(null);
    let author = this.known.get(id);
    if (author === undefined) {
      author = authorOf(create, ctx);
      this.known.set(id, author);
      // A failed fetch is tried again by the next reply.
      author.then(
        (found) => found ?? this.known.delete(id),
        () => this.known.delete(id),
      );
    }
    return author;
  }
}

async function authorOf(create: Create, ctx: FederationContext): Promise<Author | null> {
  const actorId = create.actorId;
  const author = await create.getActor(ctx);
  if (!actorId || !isActor(author) || author.id?.href !== actorId.href || !author.inboxId) {
    return null;
  }
  return {
    id: actorId.href,
    name: author.name?.toString() ?? null,
    inbox: author.inboxId,
    handle: author.preferredUsername
      ? `@${author.preferredUsername}@${actorId.host}`
      : actorId.href,
  };
}
