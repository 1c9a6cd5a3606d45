// The actor's inbox: a `Follow` is accepted at once (Follow → Accept) and its follower recorded;
// an `Undo` of it forgets the follower. Fedify has checked the request's HTTP signature (the key
// must belong to the activity's actor, the date be recent, the body match its digest) before any
// listener runs: an unsigned or tampered request is answered 401.
import { Accept, Follow, isActor, Undo } from "@fedify/fedify/vocab";
import { forgetFollower, type NetworkWrite, recordFollower } from "../../commands/federation.ts";
import { refusesUrl } from "../../security/outgoing-fetch.ts";
import type { PrismFederation } from "./objects.ts";
import { federatedMember } from "./service.ts";

/** The inbox's listeners, on the actor's own inbox and the shared one. */
export function listenToInbox(
  federation: PrismFederation,
  write: NetworkWrite,
  refuses: (address: string) => boolean,
) {
  const { db } = write;
  federation
    .setInboxListeners("/ap/actors/{identifier}/inbox", "/ap/inbox")
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
      await recordFollower(write, member, {
        actorId: follower.id.href,
        followId: follow.id.href,
        inbox: follower.inboxId.href,
        sharedInbox: sharedInbox?.href ?? null,
        handle: follower.preferredUsername
          ? `@${follower.preferredUsername}@${follower.id.host}`
          : null,
      });
      const accept = new Accept({
        id: new URL(`${follow.objectId.href}#accept-${encodeURIComponent(follow.id.href)}`),
        actor: follow.objectId,
        object: follow,
      });
      await ctx.sendActivity({ identifier: target.identifier }, follower, accept);
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (!(object instanceof Follow) || !undo.actorId || !object.objectId) return;
      if (object.actorId?.href !== undo.actorId.href) return;
      const target = ctx.parseUri(object.objectId);
      if (target?.type !== "actor" || !/^\d{1,9}$/.test(target.identifier)) return;
      await forgetFollower(write, Number(target.identifier), undo.actorId.href);
    });
}
