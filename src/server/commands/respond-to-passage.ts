// Responding to a passage of a prism: the annotation recorded, the prism's owner told (unless
// it is their own), and the events for the annotations and the notification. One transaction.
import type { AnnotationCreate } from "../../contract/annotations.ts";
import type { PrismEvent } from "../../contract/events.ts";
import type { Participant } from "../actors.ts";
import type { Db } from "../db/client.ts";
import { type AnnotationView, createAnnotation } from "../features/annotations/service.ts";
import { notifyAnnotation } from "../features/notifications/service.ts";
import { refreshTopPassage } from "../features/resonance/service.ts";
import type { WithEvents } from "../live/bus.ts";
import { annotationAudience } from "../policy.ts";

export async function respondToPassage(
  db: Db,
  input: AnnotationCreate,
  participant: Participant,
): Promise<WithEvents<{ view: AnnotationView; statusToken: string | null }>> {
  return db.transaction(async (tx) => {
    const { view, prism, ownerUsername, statusToken } = await createAnnotation(
      tx,
      input,
      participant,
    );
    const notified = await notifyAnnotation(tx, {
      recipientId: prism.userId,
      prismId: prism.id,
      participant,
      annotationId: view.row.id,
      annotatorName: view.row.annotatorName,
    });
    const events: PrismEvent[] = [
      {
        type: "annotation.changed",
        prismId: prism.id,
        username: ownerUsername,
        // A new annotation is pending: only those who may see it hear of it.
        audience: annotationAudience(prism.userId, [
          { statuses: [view.row.status], userId: view.row.userId },
        ]),
      },
    ];
    if (notified) events.push({ type: "notification.created", userId: prism.userId, mail: true });
    // Approved at once (the owner pre-approves members): it may make a top passage.
    if (view.row.status === "approved") {
      events.push(...(await refreshTopPassage(tx, prism.id, ownerUsername)).events);
    }
    return { view, statusToken, events };
  });
}
