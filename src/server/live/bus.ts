// Fans change events out to this process and, through Postgres LISTEN/NOTIFY, to every other
// instance on the same database.
import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { PrismEvent } from "../../contract/events.ts";
import type { Database } from "../db/client.ts";

/** The NOTIFY channel of every instance's events. */
export const CHANNEL = "prism_events";

type Listener = (event: PrismEvent) => void;

/** An event of type `T`, as the TypeScript of the event union spells it. */
type EventOf<T extends PrismEvent["type"]> = Extract<PrismEvent, { type: T }>;

/** An event that a statement builds as JSON (`eventSql`): the only kind a statement announces. */
export type EventSql = SQL & { readonly announces: PrismEvent["type"] };

/**
 * An event of the union as SQL JSON, each field a SQL expression of the statement that announces
 * it: the event is written once, here, typed as the union types it, and both NOTIFY'd
 * (`EventBus.notification`) and returned to this process from the same expression.
 */
export function eventSql<T extends PrismEvent["type"]>(
  type: T,
  fields: { [K in keyof Omit<EventOf<T>, "type">]: SQL },
): EventSql {
  // The type and the field names are the union's own words, so they are written into the
  // statement as literals: no parameter to bind, the same text on every run.
  const literal = (word: string) => sql.raw(`'${word}'`);
  const pairs = Object.entries(fields as Record<string, SQL>).map(
    ([name, value]) => sql`, ${literal(name)}, ${value}`,
  );
  return Object.assign(sql`json_build_object('type', ${literal(type)}${sql.join(pairs)})`, {
    announces: type,
  });
}

export class EventBus {
  private readonly listeners = new Set<Listener>();
  private readonly resyncListeners = new Set<() => void>();
  private listening = false;
  private readonly instanceId = randomUUID();
  private unlisten: (() => Promise<void>) | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly database: Database) {}

  /** Starts listening; while the database cannot be reached it keeps trying in the background. */
  async start(): Promise<void> {
    try {
      this.unlisten = await this.database.listen(
        CHANNEL,
        (payload) => this.receive(payload),
        () => this.listened(),
      );
    } catch {
      if (!this.stopped) this.retry = setTimeout(() => void this.start(), 5000).unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.unlisten?.().catch(() => {});
    this.unlisten = undefined;
  }

  /** The listening connection (re)started: after a loss, events of other instances were missed. */
  private listened() {
    if (this.listening) for (const listener of this.resyncListeners) listener();
    this.listening = true;
  }

  private receive(payload: string) {
    try {
      const { from, event } = JSON.parse(payload) as { from: string; event: PrismEvent };
      if (from !== this.instanceId) this.emit(event);
    } catch {
      // A malformed payload is not ours; ignore it.
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Called when the bus listens again after losing its connection: whatever other instances
   * announced meanwhile was missed, so everything derived from events must start over.
   */
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /** Announces changes that a transaction has committed: here at once, elsewhere by NOTIFY. */
  async publish(...events: PrismEvent[]): Promise<void> {
    for (const event of events) {
      this.emit(event);
      await this.database
        .notify(CHANNEL, JSON.stringify({ from: this.instanceId, event }))
        .catch(() => {});
    }
  }

  /**
   * For a statement that announces its own changes: the NOTIFY of an event it builds as JSON
   * (`eventSql`), delivered to other instances when it commits. Once it has, `announced` tells
   * this process.
   */
  notification(event: EventSql): SQL {
    return sql`pg_notify(${CHANNEL}, json_build_object('from', ${this.instanceId}::text, 'event', ${event})::text)`;
  }

  /** Announces here changes whose committed statement made their NOTIFY (`notification`). */
  announced(...events: PrismEvent[]): void {
    for (const event of events) this.emit(event);
  }

  private emit(event: PrismEvent) {
    for (const listener of this.listeners) listener(event);
  }
}
