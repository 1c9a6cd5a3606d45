// Saving a prism: the new title and text, its annotations anchored again in the new text, and the
// events for its list, its annotations and its hearts. One transaction. Restoring a version of it
// from its history is the same save, of that version's title and text.
import type { PrismEvent } from "../../contract/events.ts";
import type { PrismInput } from "../../contract/prisms.ts";
import { recordAudit } from "../audit.ts";
import type { Db, Executor } from "../db/client.ts";
import type { PrismRow, UserRow } from "../db/schema.ts";
import { reanchorAnnotations } from "../features/annotations/service.ts";
import { getRevision } from "../features/prisms/revisions.ts";
import { prismOwner, updatePrism } from "../features/prisms/service.ts";
import { refreshTopPassage } from "../features/resonance/service.ts";
import type { WithEvents } from "../live/bus.ts";
import { annotationAudience } from "../policy.ts";

async function save(
  tx: Executor,
  owner: UserRow,
  prismId: number,
  input: PrismInput,
): Promise<WithEvents<{ prism: PrismRow }>> {
  const {
    prism: updated,
    changed,
    heartsReset,
    contentChanged,
  } = await updatePrism(tx, owner, prismId, input);
  if (!changed) return { prism: updated, events: [] };
  const { username } = owner;
  const moved = contentChanged ? await reanchorAnnotations(tx, updated.id, updated.content) : [];
  // Its passages moved or lost their words: its top passage with them (its list is refreshed below).
  const prism = contentChanged
    ? { ...updated, topPassage: (await refreshTopPassage(tx, updated.id, username)).topPassage }
    : updated;
  const events: PrismEvent[] = [{ type: "prisms.changed", username }];
  if (moved.length > 0) {
    events.push({
      type: "annotation.changed",
      prismId: prism.id,
      username,
      audience: annotationAudience(owner.id, moved),
    });
  }
  if (heartsReset) {
    events.push({ type: "heart.changed", prismId: prism.id, heartsCount: 0, username });
  }
  return { prism, events };
}

export async function savePrism(
  db: Db,
  owner: UserRow,
  prismId: number,
  input: PrismInput,
): Promise<WithEvents<{ prism: PrismRow }>> {
  return db.transaction((tx) => save(tx, owner, prismId, input));
}

/**
 * Makes an earlier version of a prism its current one, saved as a new version (restoring the
 * current one changes nothing). Who may not read the history gets 404. It is the owner's save of
 * that version; an admin may make it for them (a moderator putting back what a member's page said
 * before), and the audit log records it.
 */
export async function restoreRevision(
  db: Db,
  actor: UserRow,
  prismId: number,
  number: number,
): Promise<WithEvents<{ prism: PrismRow }>> {
  return db.transaction(async (tx) => {
    const { title, content } = await getRevision(tx, actor, prismId, number);
    const owner = await prismOwner(tx, prismId);
    const saved = await save(tx, owner, prismId, { title, content });
    if (owner.id !== actor.id && saved.events.length > 0) {
      await recordAudit(tx, actor, {
        action: "prism.restore",
        targetType: "prism",
        targetId: prismId,
        target: saved.prism.title,
        before: { revision: saved.prism.revision - 1 },
        after: { revision: saved.prism.revision, restored: number },
      });
    }
    return saved;
  });
}
