// Deleting a member's account: their hearts taken out of others' counts, the notifications they
// caused forgotten, the member and everything that is theirs removed, and the events for every
// page that changed. One transaction.
import type { PrismEvent } from "../../contract/events.ts";
import type { Db } from "../db/client.ts";
import { prismsAnnotatedBy } from "../features/annotations/service.ts";
import { uncountHeartsOf } from "../features/hearts/service.ts";
import { forgetNotificationsBy } from "../features/notifications/service.ts";
import { refreshTopPassage } from "../features/resonance/service.ts";
import { deleteUser, usernamesOf } from "../features/users/service.ts";
import type { WithEvents } from "../live/bus.ts";

/**
 * Their prisms go (with those prisms' hearts, annotations and notifications, by cascade), as do
 * their hearts on other prisms (the counts corrected first), their annotations elsewhere, their
 * notifications and sessions.
 */
export async function deleteAccount(db: Db, userId: number): Promise<WithEvents> {
  return db.transaction(async (tx) => {
    const recounted = await uncountHeartsOf(tx, userId);
    const annotated = await prismsAnnotatedBy(tx, userId);
    const notifiedUserIds = await forgetNotificationsBy(tx, userId);
    const { username } = await deleteUser(tx, userId);

    // Other members' prisms whose hearts or annotations changed (the member's own went with them).
    const touched = new Map<number, { heartsCount: number; ownerId: number }>();
    for (const row of [...annotated, ...recounted]) {
      if (row.ownerId !== userId) touched.set(row.prismId, row);
    }
    const ownerNames = await usernamesOf(tx, [
      ...new Set([...touched.values()].map((row) => row.ownerId)),
    ]);
    const events: PrismEvent[] = [
      { type: "sessions.ended", userId },
      { type: "prisms.changed", username },
      { type: "profile.changed", username },
    ];
    for (const [prismId, { heartsCount, ownerId }] of touched) {
      const owner = ownerNames.get(ownerId) ?? "";
      events.push(
        { type: "heart.changed", prismId, heartsCount, username: owner },
        { type: "annotation.changed", prismId, username: owner },
        // Their responses no longer count toward its top passage.
        ...(await refreshTopPassage(tx, prismId, owner)).events,
      );
    }
    for (const id of notifiedUserIds) events.push({ type: "notifications.changed", userId: id });
    return { events };
  });
}
