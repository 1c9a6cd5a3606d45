// A member's own notifications: reading one or all, and deleting one. Each is one transaction;
// when something changed, the member's open pages hear of it after the commit.

import type { UserRow } from "../db/schema.ts";
import type { NotificationView } from "../features/notifications/service.ts";
import {
  markAllNotificationsRead as markAllRead,
  markNotificationRead as markRead,
  deleteNotification as removeNotification,
} from "../features/notifications/service.ts";
import { commit, type Recorder, type WriteContext } from "./write.ts";

/** The recipient: only their id matters. */
type Recipient = WriteContext<Pick<UserRow, "id">>;

/** The member's notifications changed (other than by a new one). */
const changed = (record: Recorder, write: Recipient) =>
  record({ type: "notifications.changed", userId: write.actor.id });

/** Marks one of the member's lines read; someone else's is a 404, like a missing one. */
export function markNotificationRead(
  write: Recipient,
  notificationId: number,
): Promise<NotificationView> {
  return commit(write, async (tx, record) => {
    const { notification, marked } = await markRead(tx, write.actor.id, notificationId);
    if (marked) changed(record, write);
    return notification;
  });
}

/** Marks all of the member's unread lines read; answers how many changed. */
export function markAllNotificationsRead(write: Recipient): Promise<number> {
  return commit(write, async (tx, record) => {
    const count = await markAllRead(tx, write.actor.id);
    if (count > 0) changed(record, write);
    return count;
  });
}

/** Deletes one of the member's lines (a group of hearts: all of them). */
export function deleteNotification(write: Recipient, notificationId: number): Promise<void> {
  return commit(write, async (tx, record) => {
    await removeNotification(tx, write.actor.id, notificationId);
    changed(record, write);
  });
}
