// Hearting a prism: the heart flipped and counted, the owner told of a new heart from someone
// else (once per actor and prism), and the events for the count and the notification. One
// statement, its own transaction, which also makes the events' NOTIFY (so it does not `commit`).
import type { HeartStatus } from "../../contract/prisms.ts";
import type { Participant } from "../actors.ts";
import { toggleHeart } from "../features/hearts/service.ts";
import { notifyOfHeart } from "../features/notifications/service.ts";
import type { WriteContext } from "./write.ts";

/** Toggles the heart and announces it: to other instances as it commits, then to this one. */
export async function heartPrism(
  { db, bus, actor }: WriteContext<Participant>,
  prismId: number,
): Promise<HeartStatus> {
  const names = bus.statement("heart.changed", "notification.created");
  const { hearted, heartsCount, events } = await toggleHeart(
    db,
    prismId,
    actor,
    names,
    notifyOfHeart(actor),
  );
  bus.announced(names, ...events);
  return { hearted, heartsCount };
}
