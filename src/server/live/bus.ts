// Fans change events out to this process and, through Postgres LISTEN/NOTIFY, to every other
// instance on the same database.
import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { PrismEvent } from "../../contract/events.ts";
import type { Database } from "../db/client.ts";
import { param } from "../db/prepared.ts";

/** The NOTIFY channel of every instance's events. */
export const CHANNEL = "prism_events";

/** Hears an event, with its name (`EventBus` names each one as it is announced). */
type Listener = (event: PrismEvent, id: string) => void;

/**
 * How long a request that names an event its page has heard waits for this process to hear it
 * too (`whenHeard`), from when it was announced. NOTIFY reaches every instance within
 * milliseconds; a listener that lost its connection resyncs, and its caches start over anyway.
 */
export const HEARD_WAIT_MS = 2000;

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
  // A field the statement writes as null is left out, as the union's optional fields are.
  return Object.assign(
    sql`json_strip_nulls(json_build_object('type', ${literal(type)}${sql.join(pairs)}))`,
    {
      announces: type,
    },
  );
}

/** A statement's sender (`from`) and its events' names, by type: the values of its NOTIFYs. */
export type StatementNames = { from: string } & { [T in PrismEvent["type"]]?: string };

/**
 * The NOTIFY of an event a statement builds (`eventSql`), delivered to other instances when it
 * commits; the sender and the event's name are the statement's values `from` and the event's
 * type (`EventBus.statement`), so the statement's text is the same on every run.
 */
export function notificationSql(event: EventSql): SQL {
  return sql`pg_notify(${CHANNEL}, json_build_object('from', ${param("from", "text")}, 'id', ${param(event.announces, "text")}, 'event', ${event})::text)`;
}

export class EventBus {
  private readonly listeners = new Set<Listener>();
  private readonly resyncListeners = new Set<() => void>();
  private listening = false;
  private readonly instanceId = randomUUID();
  /** Events this process announced, counted to name the next one. */
  private announcedCount = 0;
  /** Other instances' events lately heard, by name. */
  private readonly heardIds = new LRUCache<string, true>({ max: 10_000 });
  /** Requests waiting to hear an event, by its name. */
  private readonly waiting = new Map<string, Set<() => void>>();
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
      const { from, id, event } = JSON.parse(payload) as Message;
      // An instance of an earlier version names none: its events are heard without a name.
      if (from !== this.instanceId) this.emit(event, typeof id === "string" ? id : "");
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
      const id = this.name();
      this.emit(event, id);
      const message: Message = { from: this.instanceId, id, event };
      await this.database.notify(CHANNEL, JSON.stringify(message)).catch(() => {});
    }
  }

  /**
   * For a statement that announces its own changes (`notificationSql`): the values of its
   * NOTIFYs, this instance and a name for each type of event it announces, each once.
   */
  statement(...types: PrismEvent["type"][]): StatementNames {
    const names: StatementNames = { from: this.instanceId };
    for (const type of types) names[type] = this.name();
    return names;
  }

  /** Tells this process of the events a statement announced, once it committed, by their names. */
  announced(names: StatementNames, ...events: PrismEvent[]): void {
    for (const event of events) this.emit(event, names[event.type] ?? this.name());
  }

  /**
   * Resolves once this process has heard the event named `id` (pages send the name of the last
   * event their stream brought, see contract/events.ts): at once when it has, or when the event
   * is older than `HEARD_WAIT_MS` or not an event's name; else when it hears it, or when
   * `HEARD_WAIT_MS` have passed since it was announced. What this process then answers from
   * memory (versions, kept answers) is at least as new as what the page was told.
   */
  whenHeard(id: string): Promise<void> | undefined {
    if (this.heardIds.has(id)) return undefined;
    const [from, , at] = id.split("/");
    const wait = Math.min(Number(at) + HEARD_WAIT_MS - Date.now(), HEARD_WAIT_MS);
    if (from === this.instanceId || !(wait > 0)) return undefined;
    return new Promise<void>((resolve) => {
      const waiters = this.waiting.get(id) ?? new Set();
      this.waiting.set(id, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, wait);
      waiters.add(done);
    });
  }

  /** A name for an event this process announces, unique among every instance's: `from/n/ms`. */
  private name(): string {
    this.announcedCount += 1;
    return `${this.instanceId}/${this.announcedCount}/${Date.now()}`;
  }

  private emit(event: PrismEvent, id: string) {
    if (id) this.heardIds.set(id, true);
    for (const listener of this.listeners) listener(event, id);
    const waiters = this.waiting.get(id);
    if (waiters) for (const done of [...waiters]) done();
  }
}

/** What an instance NOTIFYs: who announced the event, its name, and the event. */
interface Message {
  from: string;
  id: string;
  event: PrismEvent;
}
