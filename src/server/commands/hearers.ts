// Who may hear of what a transaction changed: a change to a prism only some may see (its
// audience) reaches only them, whatever else narrowed it (pending annotations reach fewer still).
import type { PrismEvent } from "../../contract/events.ts";
import type { Executor } from "../db/client.ts";
import { hearersOfPrisms } from "../policy.ts";

type Hearers = number[] | null | undefined;

/** Both: only those that each admits. */
function both(a: Hearers, b: Hearers): Hearers {
  if (a === undefined || a === null) return b ?? undefined;
  if (b === undefined || b === null) return a;
  return a.filter((id) => b.includes(id));
}

/** Either: those that any admits (anyone when one admits anyone). */
function either(all: Hearers[]): Hearers {
  if (all.some((hearers) => hearers === undefined || hearers === null)) return undefined;
  return [...new Set(all.flatMap((hearers) => hearers ?? []))];
}

function prismsOf(event: PrismEvent): number[] {
  switch (event.type) {
    case "prisms.changed":
      return event.audience === undefined ? (event.prismIds ?? []) : [];
    case "heart.changed":
    case "annotation.changed":
      return [event.prismId];
    default:
      return [];
  }
}

/**
 * The events, each narrowed to who may see the prisms it concerns, as they stand at the end of
 * the transaction. A change of audience names its hearers itself (those before and after).
 */
export async function narrowToPrisms(tx: Executor, events: PrismEvent[]): Promise<PrismEvent[]> {
  const ids = [...new Set(events.flatMap(prismsOf))];
  if (ids.length === 0) return events;
  const hearers = await hearersOfPrisms(tx, ids);
  return events.map((event) => {
    switch (event.type) {
      case "prisms.changed": {
        if (event.audience !== undefined || !event.prismIds) return event;
        const audience = either(event.prismIds.map((id) => hearers.get(id)));
        return audience === undefined ? event : { ...event, audience };
      }
      case "heart.changed":
      case "annotation.changed": {
        const audience = both(event.audience, hearers.get(event.prismId));
        return audience === undefined ? event : { ...event, audience };
      }
      default:
        return event;
    }
  });
}
