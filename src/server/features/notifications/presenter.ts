// The one way a notification leaves the server: its public fields, never the actor's key.
import { excerpt } from "../../../contract/excerpt.ts";
import { type Notification, notificationExcerpt } from "../../../contract/notifications.ts";
import { oneLine } from "../../../contract/text.ts";
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
    ...quoted(notification),
  };
}

/** The start of a text that may hold several lines, on one line; null for none. */
const start = (text: string | null, max: number) =>
  text === null ? null : excerpt(oneLine(text).trim(), max);

/** What a notification quotes of its response: as its e-mail does (see email/messages.ts). */
function quoted({ type, selectedText, annotationText, replyText }: NotificationView) {
  const [quote, passage] =
    type === "heart" || type === "team.prism"
      ? [null, null]
      : type === "reply"
        ? [replyText, annotationText]
        : [annotationText, selectedText];
  return {
    quote: start(quote, notificationExcerpt.quote),
    passage: start(passage, notificationExcerpt.passage),
  };
}
