// An admin deletes anyone's prism or annotation: the same deletion, counts and events as the
// owner's own, and the audit log's line for it. One transaction each.
import { annotationLabel, recordAudit } from "../audit.ts";
import type { Db } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import { deleteAnnotation } from "../features/annotations/service.ts";
import { deleteAnyPrism } from "../features/prisms/service.ts";
import { refreshTopPassage } from "../features/resonance/service.ts";
import type { WithEvents } from "../live/bus.ts";

export async function deletePrismAsAdmin(
  db: Db,
  actor: UserRow,
  prismId: number,
): Promise<WithEvents> {
  return db.transaction(async (tx) => {
    const { prism, owner, events } = await deleteAnyPrism(tx, prismId);
    await recordAudit(tx, actor, {
      action: "prism.delete",
      targetType: "prism",
      targetId: prism.id,
      target: prism.title,
      before: { title: prism.title, author: owner.username, hearts: prism.heartsCount },
    });
    return { events };
  });
}

export async function deleteAnnotationAsAdmin(
  db: Db,
  actor: UserRow,
  annotationId: number,
): Promise<WithEvents> {
  return db.transaction(async (tx) => {
    const { row, ownerUsername, events } = await deleteAnnotation(tx, annotationId);
    if (row.status === "approved") {
      events.push(...(await refreshTopPassage(tx, row.prismId, ownerUsername)).events);
    }
    await recordAudit(tx, actor, {
      action: "annotation.delete",
      targetType: "annotation",
      targetId: row.id,
      target: annotationLabel(row),
      before: { text: row.annotationText, passage: row.selectedText, status: row.status },
    });
    return { events };
  });
}
