// Resonance: the views a page's beacon reports. Nothing personal is kept: see resonance/views.ts.
import type { Participant } from "../actors.ts";
import { utcDay } from "../features/resonance/service.ts";
import { countViews as countViewsOf, daySalt } from "../features/resonance/views.ts";
import { commit, type WriteContext } from "./write.ts";

/**
 * Counts the prisms a page just showed `write.actor` as viewed on the day of `now`: each once a
 * day per visitor, at most a few times a day per address (`address`, a key of the client's), never
 * the owner's own. Answers how many were counted.
 */
export async function countViews(
  write: WriteContext<Participant>,
  address: string,
  prismIds: number[],
  now = new Date(),
): Promise<number> {
  const day = utcDay(now);
  const salt = await daySalt(write.db, day);
  return commit(write, (tx) => countViewsOf(tx, write.actor, { address, prismIds, day, salt }));
}
