// A member's actor on the fediverse: followers who come and go through its inbox, the owner
// removing one, and working out what their followers are to be sent after a change (each change
// sent once, however many processes heard of it); replies to prisms that arrive, are edited and
// withdrawn by their authors, the owner's answers to them to be sent, and remote actors' hearts;
// reports other servers send, and an admin dismissing one.
import type { AnnotationCreate, AnnotationStatus } from "../../contract/annotations.ts";
import { recordAudit } from "../audit.ts";
import type { Executor } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import { deleteAnnotation, type RemoteOrigin } from "../features/annotations/service.ts";
import {
  editRemoteReply,
  noteArrived,
  type ReplyNote,
  remoteReply,
  unsentReplies,
} from "../features/federation/replies.ts";
import { addReport, dismissReport, type NewReport } from "../features/federation/reports.ts";
import {
  acceptFollower as acceptOwnFollower,
  actorOf,
  addFollower,
  type FollowerRow,
  type NewFollower,
  type Plan,
  plan,
  removeFollowerActor,
  removeFollower as removeOwnFollower,
} from "../features/federation/service.ts";
import { hasHearted } from "../features/hearts/service.ts";
import { annotationAudience } from "../policy.ts";
import { landResponse } from "./annotations.ts";
import { heartPrism } from "./hearts.ts";
import { refreshTop } from "./prisms.ts";
import { commit, type Recorder, type WriteContext } from "./write.ts";

/** What the inbox and the sender write with: on nobody's behalf but the network's. */
export type NetworkWrite = WriteContext<null>;

/**
 * A follow the inbox received: accepted at once, or waiting for the member when they approve
 * followers themselves (a follower they accepted before stays accepted); the follower as kept.
 */
export function recordFollower(
  write: NetworkWrite,
  member: UserRow,
  follower: NewFollower,
): Promise<FollowerRow> {
  return commit(write, async (tx) => {
    await actorOf(tx, member);
    return addFollower(tx, member.id, follower, member.approveFollowers);
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
  fediverse: {
    rejectFollow: (userId: number, follower: FollowerRow) => Promise<void>;
    acceptFollow: (userId: number, follower: FollowerRow) => Promise<void>;
  };
};

/**
 * The owner accepts a follow that waited for them; once that has committed, the follower's
 * server is told (an `Accept` of their follow, queued), and deliveries reach them from then on.
 */
export async function acceptFollower(write: FederatingWrite, id: number): Promise<FollowerRow> {
  const accepted = await commit(write, (tx) => acceptOwnFollower(tx, write.actor.id, id));
  await write.fediverse.acceptFollow(write.actor.id, accepted);
  return accepted;
}

/**
 * The owner removes one of their followers, or declines a follow that waited for them; once that
 * has committed, the follower's server is told (a `Reject` of their follow, queued), so that they
 * no longer show as following.
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

/**
 * A reply from the fediverse arrives as a response, as one without an account would: scored,
 * pending (or spam), its owner told; refused (a 403) where the prism or its owner takes no such
 * response. Its author is known by their actor, as a browser by its visitor hash.
 */
export function receiveReply(
  write: NetworkWrite,
  input: AnnotationCreate,
  remote: RemoteOrigin & { remoteActorId: string; remoteNoteId: string },
) {
  const participant = remoteParticipant(remote.remoteActorId);
  return commit(write, async (tx, record) => {
    if (await noteArrived(tx, remote.remoteNoteId)) return null;
    return landResponse(tx, record, {
      input,
      participant,
      signals: { typingMs: 0, proofAgeMs: 0, fediverse: true },
      remote,
    });
  });
}

/** Who a remote actor is as a participant: known by their actor, as a browser by its hash. */
const remoteParticipant = (actorId: string) => ({ visitorHash: `fediverse:${actorId}` });

/**
 * A remote actor's `Like` of a prism is their heart (`liked`), one however often they like it;
 * its `Undo` takes it back.
 */
export async function heartFromFediverse(
  write: NetworkWrite,
  prismId: number,
  actorId: string,
  liked: boolean,
): Promise<void> {
  const participant = remoteParticipant(actorId);
  if ((await hasHearted(write.db, prismId, participant)) === liked) return;
  await heartPrism({ ...write, actor: participant }, prismId);
}

/** The prism's annotations changed: those who may see them, and its top passage, follow. */
async function announce(
  tx: Executor,
  record: Recorder,
  change: {
    prismId: number;
    owner: { id: number; username: string };
    statuses: AnnotationStatus[];
  },
) {
  const { statuses } = change;
  record(
    {
      type: "annotation.changed",
      prismId: change.prismId,
      username: change.owner.username,
      audience: annotationAudience(change.owner.id, [{ statuses, userId: null }]),
    },
    { type: "notifications.changed", userId: change.owner.id },
  );
  if (statuses.includes("approved"))
    await refreshTop(tx, record, change.prismId, change.owner.username);
}

/** Its author edited their reply (an `Update` of their note); anyone else's edit does nothing. */
export function editReply(write: NetworkWrite, noteId: string, actorId: string, text: string) {
  return commit(write, async (tx, record) => {
    const found = await remoteReply(tx, noteId, actorId);
    if (!found || found.text === text) return false;
    const { row, owner } = await editRemoteReply(tx, found.id, text, found.status);
    await announce(tx, record, {
      prismId: row.prismId,
      owner,
      statuses: [found.status, row.status],
    });
    return true;
  });
}

/** Its author deleted their reply (a `Delete` of their note): the response goes with it. */
export function withdrawRemoteReply(write: NetworkWrite, noteId: string, actorId: string) {
  return commit(write, async (tx, record) => {
    const found = await remoteReply(tx, noteId, actorId);
    if (!found) return false;
    const { row, ownerId, ownerUsername } = await deleteAnnotation(tx, found.id);
    const owner = { id: ownerId, username: ownerUsername };
    await announce(tx, record, { prismId: row.prismId, owner, statuses: [row.status] });
    return true;
  });
}

/** A report another server sent (a `Flag`), kept for Catalyst; whether it is new. */
export function receiveReport(write: NetworkWrite, report: NewReport): Promise<boolean> {
  return commit(write, (tx) => addReport(tx, report));
}

/** An admin dismisses a report from another server; audited. */
export function dismissFederationReport(write: WriteContext, id: number): Promise<void> {
  return commit(write, async (tx) => {
    const { report, username } = await dismissReport(tx, id);
    await recordAudit(tx, write.actor, {
      action: "report.dismiss",
      targetType: "report",
      targetId: report.id,
      target: `Report from ${report.reporterDomain} about @${username}`,
      before: {
        comment: report.comment,
        prismId: report.prismId,
        annotationId: report.annotationId,
      },
    });
  });
}

/** The owner's replies on a prism's fediverse replies still to be sent, recorded as sent. */
export function claimReplyNotes(write: NetworkWrite, prismId: number): Promise<ReplyNote[]> {
  return commit(write, (tx) => unsentReplies(tx, prismId));
}
