// Hearting a prism: the heart flipped and counted, the owner told of a new heart from someone
// else (once per actor and prism), and the events for the count and the notification. One
// transaction.
import type { PrismEvent } from "../../contract/events.ts";
import type { HeartStatus } from "../../contract/prisms.ts";
import type { Db } from "../db/client.ts";
import { countHeart, flipHeart } from "../features/hearts/service.ts";
import { notifyHeart } from "../features/notifications/service.ts";
import type { WithEvents } from "../live/bus.ts";
import type { Participant } from "../plugins/visitor.ts";

export async function heartPrism(
  db: Db,
  prismId: number,
  participant: Participant,
): Promise<WithEvents<{ status: HeartStatus }>> {
  return db.transaction(async (tx) => {
    const flipped = await flipHeart(tx, prismId, participant);
    const notified =
      flipped.hearted &&
      (await notifyHeart(tx, { recipientId: flipped.ownerId, prismId, participant }));
    // Last: from here to the commit, every other heart on this prism waits.
    const heartsCount = await countHeart(tx, prismId, flipped.hearted);
    const events: PrismEvent[] = [
      { type: "heart.changed", prismId, heartsCount, username: flipped.ownerUsername },
    ];
    if (notified) events.push({ type: "notification.created", userId: flipped.ownerId });
    return { status: { hearted: flipped.hearted, heartsCount }, events };
  });
}
