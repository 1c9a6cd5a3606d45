// A member's notifications without HTTP: every change scoped to the recipient, and announced only
// when something changed (an open tray refetches on each event).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as commands from "../../commands/notifications.ts";
import { notifications } from "../../db/schema.ts";
import { buildNotification, buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { run } from "../../test/write.ts";
import { listNotifications, unreadCount } from "./service.ts";

const t = setupTestDatabase();

/** The writes as their routes make them (commands/notifications.ts), with their events. */
const markNotificationRead = (userId: number, id: number) =>
  run(
    t.database,
    { id: userId },
    (write) => commands.markNotificationRead(write, id),
    "notification",
  );
const markAllNotificationsRead = (userId: number) =>
  run(t.database, { id: userId }, (write) => commands.markAllNotificationsRead(write), "count");
const deleteNotification = (userId: number, id: number) =>
  run(t.database, { id: userId }, (write) => commands.deleteNotification(write, id));

/** A member with a prism, and a way to give them notifications about it. */
async function recipient() {
  const user = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: user.id });
  const notify = (extra: Partial<typeof notifications.$inferInsert> = {}) =>
    buildNotification(t.database, { userId: user.id, prismId: prism.id, ...extra });
  return { user, notify };
}

async function rowOf(id: number) {
  const [row] = await t.database.db.select().from(notifications).where(eq(notifications.id, id));
  return row;
}

const changed = (userId: number) => [{ type: "notifications.changed", userId }];

describe("notifications", () => {
  it("marks one read, announcing it the first time only; someone else's is a 404 and stays unread", async () => {
    const { user, notify } = await recipient();
    const other = await recipient();
    const note = await notify();
    const first = await markNotificationRead(user.id, note.id);
    expect(first.notification).toMatchObject({ id: note.id, read: true });
    expect(first.notification).not.toHaveProperty("actorKey");
    expect(first.events).toEqual(changed(user.id));
    expect((await markNotificationRead(user.id, note.id)).events).toEqual([]);

    const theirs = await other.notify();
    await expect(markNotificationRead(user.id, theirs.id)).rejects.toMatchObject({
      statusCode: 404,
      message: "Notification not found",
    });
    expect(await rowOf(theirs.id)).toEqual(theirs);
  });

  it("marks all of the recipient's unread ones read, counting and announcing only a change", async () => {
    const { user, notify } = await recipient();
    const other = await recipient();
    // Lines of their own (a prism's hearts would be one line).
    const line = { type: "annotation" as const, actorKey: null };
    await notify(line);
    await notify(line);
    await notify({ ...line, read: true });
    const theirs = await other.notify();
    expect(await markAllNotificationsRead(user.id)).toEqual({
      count: 2,
      events: changed(user.id),
    });
    expect(await unreadCount(t.database.db, user)).toBe(0);
    expect(await rowOf(theirs.id)).toMatchObject({ read: false });
    expect(await markAllNotificationsRead(user.id)).toEqual({
      count: 0,
      events: [],
    });
  });

  it("deletes the recipient's own only, announcing it", async () => {
    const { user, notify } = await recipient();
    const other = await recipient();
    const mine = await notify();
    const theirs = await other.notify();
    await expect(deleteNotification(user.id, theirs.id)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await rowOf(theirs.id)).toEqual(theirs);
    expect((await deleteNotification(user.id, mine.id)).events).toEqual(changed(user.id));
    expect(await listNotifications(t.database.db, user, { limit: 10, offset: 0 })).toEqual([]);
  });
});
