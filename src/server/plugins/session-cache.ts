// The member behind a session, kept in memory for the signed-in reads that follow, so that a read
// answered from memory does not wait on the database to learn who asks (on the embedded
// database, which runs one query at a time, that wait was most of a signed-in read).
//
// An entry is kept only while its session needs no touch (at most a minute after the database
// last saw it), and forgotten:
// - at once, in this process, when an event says the member's sessions ended or their role
//   changed, and when a member's own write (any request but GET or HEAD) answers;
// - in every process, when any change to the member or to one of their sessions commits,
//   whichever statement made it: triggers on `users` and `sessions` NOTIFY `prism_sessions`
//   with the member's id (migration 0011);
// - all of them, whenever the listening connection starts again (what it missed is unknown).
// Without a listening connection nothing is kept. A lookup that a forget overtook does not keep
// what it read, which may be what the forget was about.
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { LRUCache } from "lru-cache";
import type { Database } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import type { EventBus } from "../live/bus.ts";
import { cacheHits, cacheMisses } from "../metrics.ts";
import {
  type ResolvedSession,
  SESSION_MAX_DAYS,
  TOUCH_AFTER_MS,
} from "../security/session-store.ts";

const CHANNEL = "prism_sessions";
const DAY_MS = 24 * 60 * 60 * 1000;

/** The app's session cache (`app.sessionCache`), listening from now until the app closes. */
export async function startSessionCache(
  app: FastifyInstance,
  database: Database,
  bus: EventBus,
): Promise<SessionCache> {
  const cache = new SessionCache(database, bus);
  await cache.start();
  app.decorate("sessionCache", cache);
  app.addHook("onClose", () => cache.stop());
  return cache;
}

export class SessionCache {
  /** By the SHA-256 of the session's token, as the database keeps it. */
  private readonly entries: LRUCache<string, ResolvedSession>;
  /** The token hashes kept for each member. */
  private readonly ofUser = new Map<number, Set<string>>();
  /** Moves on with every forget: a lookup keeps what it read only if none came in meanwhile. */
  private epoch = 0;
  private listening = false;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly unsubscribe: () => void;
  /** Markers sent by `caughtUp`, and what each resolves when heard. */
  private readonly markers = new Map<string, () => void>();

  constructor(
    private readonly database: Pick<Database, "listen" | "notify">,
    bus: Pick<EventBus, "subscribe">,
    max = 10_000,
  ) {
    this.entries = new LRUCache({
      max,
      dispose: (session, tokenHash) => {
        const kept = this.ofUser.get(session.user.id);
        kept?.delete(tokenHash);
        if (kept?.size === 0) this.ofUser.delete(session.user.id);
      },
    });
    this.unsubscribe = bus.subscribe((event) => {
      switch (event.type) {
        case "sessions.ended":
        case "roles.changed":
          this.forgetUser(event.userId);
          break;
      }
    });
  }

  /** Starts listening; while the database cannot be reached it keeps trying, keeping nothing. */
  async start(): Promise<void> {
    try {
      this.unlisten = await this.database.listen(
        CHANNEL,
        (payload) => this.heard(payload),
        () => {
          this.forgetAll();
          this.listening = true;
        },
      );
    } catch {
      if (!this.stopped) this.retry = setTimeout(() => void this.start(), 5000).unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    clearTimeout(this.retry);
    this.unsubscribe();
    await this.unlisten?.().catch(() => {});
    this.forgetAll();
  }

  /**
   * The session behind a token hash: from memory while it needs no touch, else from `lookup`
   * (which touches it), kept for the next read when nothing was forgotten meanwhile.
   */
  async resolve(
    tokenHash: string,
    lookup: () => Promise<ResolvedSession | null>,
  ): Promise<UserRow | null> {
    const kept = this.listening ? this.entries.get(tokenHash) : undefined;
    if (kept && isFresh(kept, Date.now())) {
      cacheHits.inc("sessions");
      return kept.user;
    }
    cacheMisses.inc("sessions");
    const epoch = this.epoch;
    const session = await lookup();
    if (session && this.listening && epoch === this.epoch) this.keep(tokenHash, session);
    return session?.user ?? null;
  }

  /**
   * Resolves once every change to members and sessions committed before the call has reached
   * this cache (notifications arrive in the order their transactions committed).
   */
  caughtUp(): Promise<void> {
    const marker = `caught-up:${randomUUID()}`;
    return new Promise((resolve, reject) => {
      this.markers.set(marker, resolve);
      this.database.notify(CHANNEL, marker).catch((error: unknown) => {
        this.markers.delete(marker);
        reject(error);
      });
    });
  }

  private heard(payload: string): void {
    const marker = this.markers.get(payload);
    if (marker) {
      this.markers.delete(payload);
      marker();
    } else {
      this.forgetUser(Number(payload));
    }
  }

  forgetUser(userId: number): void {
    this.epoch += 1;
    for (const tokenHash of [...(this.ofUser.get(userId) ?? [])]) this.entries.delete(tokenHash);
  }

  private forgetAll(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  private keep(tokenHash: string, session: ResolvedSession): void {
    this.entries.set(tokenHash, session);
    const kept = this.ofUser.get(session.user.id) ?? new Set<string>();
    kept.add(tokenHash);
    this.ofUser.set(session.user.id, kept);
  }
}

/** Whether a session read from the database is still what the database would answer now. */
function isFresh(session: ResolvedSession, now: number): boolean {
  return (
    now - session.lastSeenAt.getTime() < TOUCH_AFTER_MS &&
    now - session.createdAt.getTime() < SESSION_MAX_DAYS * DAY_MS
  );
}
