// A member's actor on the fediverse: followers who come and go through its inbox, the owner
// removing one, and working out what their followers are to be sent after a change (each change
// sent once, however many processes heard of it).
import type { UserRow } from "../db/schema.ts";
import {
  actorOf,
  addFollower,
  type FollowerRow,
  type NewFollower,
  type Plan,
  plan,
  removeFollowerActor,
  removeFollower as removeOwnFollower,
} from "../features/federation/service.ts";
import { commit, type WriteContext } from "./write.ts";

/** What the inbox and the sender write with: on nobody's behalf but the network's. */
export type NetworkWrite = WriteContext<null>;

/** A follower the inbox accepted. */
export function recordFollower(
  write: NetworkWrite,
  member: UserRow,
  follower: NewFollower,
): Promise<void> {
  return commit(write, async (tx) => {
    await actorOf(tx, member);
    await addFollower(tx, member.id, follower);
  });
}

/** A follower who undid their follow. */
export function forgetFollower(
  write: NetworkWrite,
  userId: number,
  actorId: string,
): Promise<boolean> {
  return commit(write, (tx) => removeFollowerActor(tx, userId, actorId));
}

/** A write that tells other servers, once it has committed. */
export type FederatingWrite = WriteContext & {
  fediverse: { rejectFollow: (userId: number, follower: FollowerRow) => Promise<void> };
};

/**
 * The owner removes one of their followers; once that has committed, the follower's server is
 * told (a `Reject` of their follow, queued), so that they no longer show as following.
 */
export async function removeFollower(write: FederatingWrite, id: number): Promise<FollowerRow> {
  const removed = await commit(write, (tx) => removeOwnFollower(tx, write.actor.id, id));
  await write.fediverse.rejectFollow(write.actor.id, removed);
  return removed;
}

/** What the followers of `username`'s actor are to be sent now, recorded as sent. */
export function planDeliveries(write: NetworkWrite, username: string): Promise<Plan[]> {
  return commit(write, (tx) => plan(tx, username));
}
