// A member's prisms: create, save, restore, move, delete, choose who responds, and an admin's
// deletion of anyone's. Each is one transaction whose events follow its commit: the owner's list,
// and what else the change reaches (annotations anchored again, hearts, notifications).
import type { MoveDirection, PrismInput } from "../../contract/prisms.ts";
import type { Responders } from "../../contract/responders.ts";
import { recordAudit } from "../audit.ts";
import type { Executor } from "../db/client.ts";
import type { PrismRow, UserRow } from "../db/schema.ts";
import { reanchorAnnotations } from "../features/annotations/service.ts";
import { notifyTeammatesOfPrism, recipientsOn } from "../features/notifications/service.ts";
import { getRevision } from "../features/prisms/revisions.ts";
import {
  createPrism as addPrism,
  deleteAnyPrism,
  prismOwner,
  deletePrism as removeOwnPrism,
  movePrism as swapPrism,
  updatePrism,
  setResponders as writeResponders,
} from "../features/prisms/service.ts";
import { refreshTopPassage } from "../features/resonance/service.ts";
import { annotationAudience, hearersOfAudiences, hearersOfPrisms } from "../policy.ts";
import { commit, type Recorder, type WriteContext } from "./write.ts";

/**
 * Works out the prism's top passage again after its responses changed; when it moved, its owner's
 * list shows it.
 */
export async function refreshTop(
  tx: Executor,
  record: Recorder,
  prismId: number,
  username: string,
): Promise<PrismRow["topPassage"]> {
  const { topPassage, moved } = await refreshTopPassage(tx, prismId);
  if (moved) record({ type: "prisms.changed", username, prismIds: [prismId] });
  return topPassage;
}

/** A change of one prism on the member's own page: their list shows it. */
function changeOwnPrism(
  write: WriteContext,
  change: (tx: Executor, owner: UserRow, record: Recorder) => Promise<PrismRow>,
): Promise<PrismRow> {
  return commit(write, async (tx, record) => {
    const prism = await change(tx, write.actor, record);
    record({ type: "prisms.changed", username: write.actor.username, prismIds: [prism.id] });
    return prism;
  });
}

/** The author's teammates who asked to be told of their prisms hear of this one. */
async function tellTeammates(
  tx: Executor,
  record: Recorder,
  author: UserRow,
  prism: PrismRow,
): Promise<void> {
  const told = await notifyTeammatesOfPrism(tx, author, prism);
  record(...told.map((userId) => ({ type: "notification.created" as const, userId })));
}

/** Adds a prism at the end of the member's page; their teammates who asked hear of it. */
export function createPrism(write: WriteContext, input: PrismInput): Promise<PrismRow> {
  return changeOwnPrism(write, async (tx, owner, record) => {
    const prism = await addPrism(tx, owner, input);
    await tellTeammates(tx, record, owner, prism);
    return prism;
  });
}

/**
 * Saves the owner's prism, inside the caller's transaction; `changed` is false when it already
 * said that, and then nothing was written or recorded.
 */
async function save(
  tx: Executor,
  record: Recorder,
  owner: UserRow,
  prismId: number,
  input: PrismInput,
): Promise<{ prism: PrismRow; changed: boolean }> {
  const {
    prism: updated,
    changed,
    audienceBefore,
    heartsReset,
    contentChanged,
  } = await updatePrism(tx, owner, prismId, input);
  const { username } = owner;
  if (audienceBefore) {
    // Those who saw it before hear that it went, those who see it now that it came.
    const audience = await hearersOfAudiences(tx, owner.id, [audienceBefore, updated.audience]);
    record({ type: "prisms.changed", username, prismIds: [prismId], audience });
    record(
      ...(await recipientsOn(tx, prismId)).map((userId) => ({
        type: "notifications.changed" as const,
        userId,
      })),
    );
  }
  if (changed || audienceBefore) await tellTeammates(tx, record, owner, updated);
  if (!changed) return { prism: updated, changed };
  record({ type: "prisms.changed", username, prismIds: [prismId] });
  const moved = contentChanged ? await reanchorAnnotations(tx, updated.id, updated.content) : [];
  // Its passages moved or lost their words: its top passage with them (its list is announced).
  const prism = contentChanged
    ? { ...updated, topPassage: (await refreshTopPassage(tx, updated.id)).topPassage }
    : updated;
  if (moved.length > 0) {
    record({
      type: "annotation.changed",
      prismId,
      username,
      audience: annotationAudience(owner.id, moved),
    });
  }
  if (heartsReset) record({ type: "heart.changed", prismId, heartsCount: 0, username });
  return { prism, changed };
}

/** Saves a prism's new title and text: its annotations are anchored again in the new text. */
export function savePrism(
  write: WriteContext,
  prismId: number,
  input: PrismInput,
): Promise<PrismRow> {
  return commit(
    write,
    async (tx, record) => (await save(tx, record, write.actor, prismId, input)).prism,
  );
}

/**
 * Makes an earlier version of a prism its current one, saved as a new version (restoring the
 * current one changes nothing). Who may not read the history gets 404. It is the owner's save of
 * that version; an admin may make it for them (a moderator putting back what a member's page said
 * before), and the audit log records it.
 */
export function restoreRevision(
  write: WriteContext,
  prismId: number,
  number: number,
): Promise<PrismRow> {
  const { actor } = write;
  return commit(write, async (tx, record) => {
    const { title, content } = await getRevision(tx, actor, prismId, number);
    const owner = await prismOwner(tx, prismId);
    const { prism, changed } = await save(tx, record, owner, prismId, { title, content });
    if (owner.id !== actor.id && changed) {
      await recordAudit(tx, actor, {
        action: "prism.restore",
        targetType: "prism",
        targetId: prismId,
        target: prism.title,
        before: { revision: prism.revision - 1 },
        after: { revision: prism.revision, restored: number },
      });
    }
    return prism;
  });
}

/** Swaps a prism with its neighbour above or below: those who see either hear of it. */
export function movePrism(
  write: WriteContext,
  prismId: number,
  direction: MoveDirection,
): Promise<PrismRow> {
  return commit(write, async (tx, record) => {
    const { moved, neighbour } = await swapPrism(tx, write.actor, prismId, direction);
    const prismIds = [moved.id, neighbour.id];
    record({ type: "prisms.changed", username: write.actor.username, prismIds });
    return moved;
  });
}

/** The owner chooses who may respond to a prism; annotations already made stay. */
export function setResponders(
  write: WriteContext,
  prismId: number,
  responders: Responders,
): Promise<PrismRow> {
  return changeOwnPrism(write, (tx, owner) => writeResponders(tx, owner, prismId, responders));
}

/**
 * Records what a prism's deletion changed: its owner's list (heard by those who could see it),
 * and their notifications with it.
 */
const deleted = (
  record: Recorder,
  owner: Pick<UserRow, "id" | "username">,
  prismId: number,
  audience: number[] | null | undefined,
) =>
  record(
    {
      type: "prisms.changed",
      username: owner.username,
      prismIds: [prismId],
      ...(audience ? { audience } : {}),
    },
    { type: "notifications.changed", userId: owner.id },
  );

/** Who may hear of a change to this prism, asked before it goes. */
const hearersBefore = async (tx: Executor, prismId: number) =>
  (await hearersOfPrisms(tx, [prismId])).get(prismId);

/** Deletes one of the member's own prisms, with its hearts, annotations and notifications. */
export function deletePrism(write: WriteContext, prismId: number): Promise<void> {
  return commit(write, async (tx, record) => {
    const audience = await hearersBefore(tx, prismId);
    await removeOwnPrism(tx, write.actor, prismId);
    deleted(record, write.actor, prismId, audience);
  });
}

/**
 * An admin deletes anyone's prism: the same deletion and events as the owner's own, and the audit
 * log's line for it.
 */
export function deletePrismAsAdmin(write: WriteContext, prismId: number): Promise<void> {
  return commit(write, async (tx, record) => {
    const audience = await hearersBefore(tx, prismId);
    const { prism, owner } = await deleteAnyPrism(tx, prismId);
    deleted(record, owner, prismId, audience);
    await recordAudit(tx, write.actor, {
      action: "prism.delete",
      targetType: "prism",
      targetId: prism.id,
      target: prism.title,
      before: { title: prism.title, author: owner.username, hearts: prism.heartsCount },
    });
  });
}
