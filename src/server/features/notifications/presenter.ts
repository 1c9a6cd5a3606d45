// The one way a notification leaves the server: its public fields, never the actor's key.
import type { Notification } from "../../../contract/notifications.ts";
import type { NotificationView } from "./service.ts";

export function presentNotification(notification: NotificationView): Notification {
  return {
    id: notification.id,
    userId: notification.userId,
    prismId: notification.prismId,
    type: notification.type,
    actorName: notification.actorName,
    actorCount: notification.actorCount,
    actors: notification.actors,
    read: notification.read,
    createdAt: notification.createdAt.toISOString(),
    annotationId: notification.annotationId,
    annotationStatus: notification.annotationStatus,
    prismTitle: notification.prismTitle,
    prismOwnerUsername: notification.prismOwnerUsername,
  };
}
