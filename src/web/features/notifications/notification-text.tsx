import type { Notification } from "../../../contract/notifications.ts";
import { relativeTime } from "../../lib/format.ts";
import { notificationVerb } from "./notification-queries.ts";

/** "{actor} liked your Prism "{title}"" and when. */
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
