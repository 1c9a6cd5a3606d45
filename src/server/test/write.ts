// A command's write context for tests, on a real event bus, with the events it announced.
import type { PrismEvent } from "../../contract/events.ts";
import type { WriteContext } from "../commands/write.ts";
import type { Database } from "../db/client.ts";
import { EventBus } from "../live/bus.ts";

/** A write context acting as `actor`; `events` fills as the commands run on it announce. */
export function writeAs<Actor>(
  database: Database,
  actor: Actor,
): WriteContext<Actor> & { events: PrismEvent[] } {
  const bus = new EventBus(database);
  const events: PrismEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return { db: database.db, bus, actor, events };
}

/**
 * Runs a command as `actor`, as its route would: what it answered (as `result`, or under `key`),
 * and the events it announced.
 */
export async function run<Actor, T, K extends string = "result">(
  database: Database,
  actor: Actor,
  command: (write: WriteContext<Actor>) => Promise<T>,
  key?: K,
): Promise<{ [P in K]: T } & { events: PrismEvent[] }> {
  const write = writeAs(database, actor);
  const result = await command(write);
  return { [key ?? "result"]: result, events: write.events } as { [P in K]: T } & {
    events: PrismEvent[];
  };
}
