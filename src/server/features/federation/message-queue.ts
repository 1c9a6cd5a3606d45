// Fedify's message queue on Prism's database (one table, `federation_queue`): deliveries to other
// servers and the work of inbound activities, with Fedify's retries (each a new message, delayed
// by its back-off). Any number of processes may listen: each message is taken by one of them with
// `FOR UPDATE SKIP LOCKED`, for a lease; it is deleted once handled (in the statement that takes
// the next one), and a process that stopped halfway leaves it to be taken again when the lease is
// over. On PGlite (one process) the same
// statements hold. Messages with an ordering key are not kept in order (Fedify then only orders
// nothing; Prism asks for no ordering).
import type {
  MessageQueue,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from "@fedify/fedify";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { federationQueue } from "../../db/schema.ts";

export interface QueueTiming {
  /** How long a listener waits before looking again when nothing was ready. */
  pollMs: number;
  /** How long a taken message is left to its taker before another may take it. */
  leaseMs: number;
}

export const QUEUE_TIMING: QueueTiming = { pollMs: 1000, leaseMs: 5 * 60_000 };

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as unknown;

const availableAt = (options?: MessageQueueEnqueueOptions) =>
  new Date(Date.now() + (options?.delay ? options.delay.total("millisecond") : 0));

/**
 * Lets the event loop run: requests waiting, timers due. On PGlite a query settles without
 * waiting on the network, so a listener that went on from one message to the next at once would
 * hold the loop until the queue was empty, every read waiting behind it.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits `ms`, or less when `signal` aborts or `wake` is called. */
function pause(ms: number, signal: AbortSignal | undefined, wakers: Set<() => void>) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      wakers.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    wakers.add(done);
  });
}

export class DbMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly timing: QueueTiming = QUEUE_TIMING,
  ) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions) {
    if (messages.length === 0) return;
    const at = availableAt(options);
    await this.db
      .insert(federationQueue)
      .values(messages.map((message) => ({ message: asJson(message), availableAt: at })));
    if (!options?.delay) for (const wake of [...this.wakers]) wake();
  }

  /**
   * The next ready message nobody holds, now held by this listener for a lease; the message
   * `handled` (the one before, if any) deleted in the same statement.
   */
  private async take(
    handled: number | null,
  ): Promise<{ id: number; message: unknown } | undefined> {
    const lease = sql.raw(`interval '${Math.ceil(this.timing.leaseMs)} milliseconds'`);
    // The message handled is still held by this listener: the update never takes it again.
    const deleting =
      handled === null
        ? sql``
        : sql`with handled as (delete from ${federationQueue} where id = ${handled}) `;
    const result = await this.db.execute(sql`${deleting}
      update ${federationQueue} set locked_until = now() + ${lease}
      where id = (
        select id from ${federationQueue}
        where available_at <= now() and (locked_until is null or locked_until < now())
        order by available_at, id
        limit 1
        for update skip locked
      )
      returning id, message`);
    return rowsOf<{ id: number; message: unknown }>(result)[0];
  }

  /** Deletes a message handled, when no next one is to be taken. */
  private async forget(handled: number | null) {
    if (handled === null) return;
    await this.db
      .delete(federationQueue)
      .where(eq(federationQueue.id, handled))
      .catch(() => {});
  }

  /** The next message (`take`); when that fails, the message handled is deleted on its own. */
  private async next(handled: number | null) {
    try {
      return await this.take(handled);
    } catch {
      await this.forget(handled);
      return undefined;
    }
  }

  async listen(
    handler: (message: unknown) => Promise<void> | void,
    options?: MessageQueueListenOptions,
  ): Promise<void> {
    const signal = options?.signal;
    let handled: number | null = null;
    while (!signal?.aborted) {
      const taken = await this.next(handled);
      handled = null;
      if (!taken) {
        await pause(this.timing.pollMs, signal, this.wakers);
        continue;
      }
      // Fedify retries what failed by enqueueing it again (`nativeRetrial` is false): a message
      // whose handler threw is done with here too.
      await Promise.resolve()
        .then(() => handler(taken.message))
        .catch(() => {});
      handled = taken.id;
      await yieldToEventLoop();
    }
    await this.forget(handled);
  }

  async getDepth() {
    const [row] = await this.db
      .select({
        queued: sql<number>`count(*)::int`,
        ready: sql<number>`(count(*) filter (where ${federationQueue.availableAt} <= now()))::int`,
      })
      .from(federationQueue);
    const queued = row?.queued ?? 0;
    const ready = row?.ready ?? 0;
    return { queued, ready, delayed: queued - ready };
  }
}
