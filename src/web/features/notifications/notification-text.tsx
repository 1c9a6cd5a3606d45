// One notification in words: "{actor} liked your Prism "{title}"", and when.
import type { Notification } from "../../../contract/notifications.ts";
import { relativeTime } from "../../lib/format.ts";

/** "liked your Prism" or "added an annotation to your Prism", after the actor's name. */
function notificationVerb(notification: Notification): string {
  return notification.type === "annotation"
    ? "added an annotation to your Prism"
    : "liked your Prism";
}

export function NotificationText({ notification }: { notification: Notification }) {
  return (
    <>
      <span>
        <span className="font-medium">{notification.actorName?.trim() || "Someone"}</span>{" "}
        {notificationVerb(notification)}{" "}
        <span className="font-medium">"{notification.prismTitle}"</span>
      </span>
      <time dateTime={notification.createdAt} className="block text-xs text-muted-foreground">
        {relativeTime(notification.createdAt)}
      </time>
    </>
  );
}
