// Hearting a prism: the heart flipped and counted, the owner told of a new heart from someone
// else (once per actor and prism), and the events for the count and the notification. One
// statement, one transaction, which also makes the events' NOTIFY.
import type { PrismEvent } from "../../contract/events.ts";
import type { HeartStatus } from "../../contract/prisms.ts";
import type { Participant } from "../actors.ts";
import type { Db } from "../db/client.ts";
import { toggleHeart } from "../features/hearts/service.ts";
import { heartActor } from "../features/notifications/service.ts";
import type { EventBus } from "../live/bus.ts";

/** Toggles the heart and announces it: to other instances as it commits, then to this one. */
export async function heartPrism(
  db: Db,
  bus: Pick<EventBus, "notification" | "announced">,
  prismId: number,
  participant: Participant,
): Promise<HeartStatus> {
  const toggled = await toggleHeart(db, prismId, participant, heartActor(participant), (event) =>
    bus.notification(event),
  );
  const events: PrismEvent[] = [
    {
      type: "heart.changed",
      prismId,
      heartsCount: toggled.heartsCount,
      username: toggled.ownerUsername,
    },
  ];
  if (toggled.notified) events.push({ type: "notification.created", userId: toggled.ownerId });
  bus.announced(...events);
  return { hearted: toggled.hearted, heartsCount: toggled.heartsCount };
}
