// What every page of a signed-in member polls: their unread count, tagged by the version of their
// notifications and confirmed by the conditional hook only once their session is checked.

import { defineRead } from "../../cache/cached-read.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { unreadCount } from "./service.ts";

export function notificationReads({ db, versions }: Pick<AppDeps, "db" | "versions">) {
  return {
    /** How many of a member's notifications are unread. */
    unreadCount: defineRead({
      for: "member",
      etag: (_, member) => versions.etag(versionKeys.notifications(member.id)),
      read: async (_, member) => ({ value: { count: await unreadCount(db, member) } }),
    }),
  };
}
