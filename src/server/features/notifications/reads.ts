// What every page of a signed-in member polls: their unread count, tagged by the version of their
// notifications and confirmed by the conditional hook only once their session is checked.
import type { NotificationCount } from "../../../contract/notifications.ts";
import type { AppDeps } from "../../deps.ts";
import type { Answer } from "../../live/memo.ts";
import { versionKeys } from "../../live/versions.ts";
import { unreadCount } from "./service.ts";

export function notificationReads({ db, versions }: Pick<AppDeps, "db" | "versions">) {
  return {
    /** The tag of a member's unread count. */
    unreadCountEtag: (userId: number) => versions.etag(versionKeys.notifications(userId)),

    /** How many of a member's notifications are unread. */
    async unreadCount(userId: number): Promise<Answer<NotificationCount>> {
      return { value: { count: await unreadCount(db, userId) } };
    },
  };
}
