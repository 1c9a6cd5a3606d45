// One notification in words: "{actor} liked your Prism "{title}"", and when.
import type { Notification } from "../../../contract/notifications.ts";
import { RelativeTime } from "../../lib/format.tsx";

/** "liked your Prism" or "added an annotation to your Prism", after the actor's name. */
function notificationVerb(notification: Notification): string {
  return notification.type === "annotation"
    ? "added an annotation to your Prism"
    : "liked your Prism";
}

export function NotificationText({ notification }: { notification: Notification }) {
  return (
    <>
      {/* Names and titles are isolated: their own direction never turns the words around them. */}
      <span>
        <bdi className="font-medium">{notification.actorName?.trim() || "Someone"}</bdi>{" "}
        {notificationVerb(notification)}{" "}
        <span className="font-medium">
          "<bdi>{notification.prismTitle}</bdi>"
        </span>
      </span>
      <RelativeTime iso={notification.createdAt} className="block text-xs text-muted-foreground" />
    </>
  );
}
