// One line of notifications in words: "{actor} liked your Prism "{title}"", "{actor} and 12 others
// liked your Prism "{title}"", the first words of a response and of its passage, and when.
import type { Notification } from "../../../contract/notifications.ts";
import { RelativeTime } from "../../lib/format.tsx";

/** What the actor did, after their name: to the recipient's prism, or to their response. */
const verbs: Record<Notification["type"], string> = {
  heart: "liked your Prism",
  annotation: "added an annotation to your Prism",
  approved: "approved your response to",
  rejected: "did not approve your response to",
  reply: "replied to your response to",
  "team.prism": "wrote or edited the Prism",
};

/** "1 other", "12 others": the rest of a group of hearts after its newest actor. */
function others(count: number): string {
  return `${count.toLocaleString("en")} ${count === 1 ? "other" : "others"}`;
}

export function NotificationText({ notification }: { notification: Notification }) {
  return (
    <>
      {/* Names and titles are isolated: their own direction never turns the words around them. */}
      <span>
        <bdi className="font-medium">{notification.actorName?.trim() || "Someone"}</bdi>
        {notification.actorCount > 1 ? ` and ${others(notification.actorCount - 1)}` : null}{" "}
        {verbs[notification.type]}{" "}
        <span className="font-medium">
          "<bdi>{notification.prismTitle}</bdi>"
        </span>
      </span>
      {/* What was written, so that a decision needs no second page. */}
      {notification.quote !== null ? (
        <span className="mt-1 line-clamp-3 block">
          “<bdi>{notification.quote}</bdi>”
        </span>
      ) : null}
      {notification.passage !== null ? (
        <span className="line-clamp-2 block text-xs text-muted-foreground">
          on “<bdi>{notification.passage}</bdi>”
        </span>
      ) : null}
      <RelativeTime iso={notification.createdAt} className="block text-xs text-muted-foreground" />
    </>
  );
}
