// What every command is given, and the one way it writes: a transaction whose events are
// announced once it has committed, so that no page's cache outlives a change it missed.
import type { PrismEvent } from "../../contract/events.ts";
import type { Db, Executor } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import type { EventBus } from "../live/bus.ts";

/** The database, the event bus, and who acts (a member, or for some commands any visitor). */
export interface WriteContext<Actor = UserRow> {
  db: Db;
  bus: EventBus;
  actor: Actor;
}

/** Records events that announce what the transaction changed, for after its commit. */
export type Recorder = (...events: PrismEvent[]) => void;

/** A route's write contexts: the plugin's database and bus, acting as `actor`. */
export const writer =
  ({ db, bus }: { db: Db; bus: EventBus }) =>
  <Actor>(actor: Actor): WriteContext<Actor> => ({ db, bus, actor });

/**
 * Runs `work` in one transaction and, once it has committed, announces the events it recorded;
 * a transaction that fails announces nothing.
 */
export async function commit<T>(
  { db, bus }: WriteContext<unknown>,
  work: (tx: Executor, record: Recorder) => Promise<T>,
): Promise<T> {
  const events: PrismEvent[] = [];
  const result = await db.transaction((tx) => work(tx, (...recorded) => events.push(...recorded)));
  await bus.publish(...events);
  return result;
}
