// Who hears what on GET /api/events: this process's open streams by viewer, the caps on how many
// may be open, and one queue that writes each event (and the heartbeat) to the streams allowed to
// see it, in the order the events came (this process's and, through LISTEN/NOTIFY, every other
// instance's).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { PrismEvent } from "../../../contract/events.ts";
import type { Versions } from "../../cache/versions.ts";
import type { EventBus } from "../../live/bus.ts";
import { deliveryLag, eventsDelivered, openStreams } from "../../metrics.ts";
import { OpenLimit } from "../../plugins/rate-limit.ts";
import { encodeFrame, frameFor, greeting, heartbeatFrame, type StreamViewer } from "./frames.ts";

export interface EventStreamLimits {
  /**
   * Open streams this process serves; when full, a member's new stream takes the place of the
   * oldest anonymous one, and anyone else gets a 503.
   */
  maxStreams?: number;
  /** Open streams of one session (or anonymous browser), then of one address, before a 429. */
  maxPerViewer?: number;
  maxPerAddress?: number;
}

export interface FanOutOptions extends EventStreamLimits {
  bus: Pick<EventBus, "subscribe">;
  /**
   * Sent first as `live.ready`: a page rendered at this stamp has missed nothing. A stream opened
   * `since` a stamp is then sent the events after it, when they are known.
   */
  versions: Pick<Versions, "stamp" | "since">;
  /** Milliseconds between heartbeat comments; 25 s unless a test says otherwise. */
  heartbeatMs?: number;
  /** Bytes a slow client may leave unread before its stream is dropped (it reconnects). */
  maxBufferedBytes?: number;
}

const FAN_OUT_DEFAULTS = {
  heartbeatMs: 25_000,
  // From the memory an open stream costs: `npm run bench` measures about 8 KiB of heap and
  // 10 KiB of RSS per stream with 10,000 open (socket, request, response, parser). Open streams
  // may take 128 MiB of a process, a fraction of its heap limit that leaves the rest to requests
  // and caches: 128 MiB / 10 KiB ≈ 13,000, rounded down to the 10,000 the fan-out is measured at.
  maxStreams: 10_000,
  // Enough for a member's tabs (one stream each); far from one client taking every place.
  maxPerViewer: 10,
  maxPerAddress: 50,
  // An event is a hundred bytes or so: 32 KiB unread is hundreds of events behind, and a page
  // that reconnects refetches what it shows. With every stream that far behind, 10,000 hold
  // about 320 MiB of unsent bytes, where 1 MiB each would allow 10 GiB.
  maxBufferedBytes: 32 * 1024,
} as const;

/**
 * Streams written to before the fan-out of an event lets other work run. A write costs about
 * 13 µs of CPU as measured on loopback (2 µs of it ours, the rest the kernel's), so a batch
 * holds the event loop for under 10 ms.
 */
const FAN_OUT_BATCH = 500;

/** Who opens a stream, as its places are counted and its events chosen. */
export interface Asker {
  /** The session (`session:<token>`) or anonymous browser the stream counts against, if any. */
  viewer: string | null;
  address: string;
  member: StreamViewer;
  /** The session it is opened with (the SHA-256 of its token), for a member's stream. */
  session: string | null;
}

/** Why a stream is refused: too many open of the asker's own, or no place in this process. */
export type Refusal = "too many" | "unavailable";

interface OpenStream {
  socket: Socket;
  session: string | null;
  /**
   * Whether it hears events as they come: from the turn its stamp was taken at in the fan-out's
   * queue, once the events after the stamp it was opened with have been written.
   */
  live: boolean;
  ended: boolean;
  end(): void;
}

/** The open streams of one viewer (a member, or every anonymous visitor): they get the same frames. */
interface Audience {
  member: StreamViewer;
  streams: Set<OpenStream>;
}

const audienceKey = (member: StreamViewer) =>
  member ? `${member.id}${member.isAdmin ? ":admin" : ""}` : "";

/**
 * Whether an event ends a stream: one of the sessions that ended, or any of a member whose role
 * changed (the page reconnects, and its new stream hears what the member now may).
 */
function ends(
  event: PrismEvent,
  member: StreamViewer,
  stream: Pick<OpenStream, "session">,
): boolean {
  if (event.type === "sessions.ended") {
    return (
      member?.id === event.userId &&
      (event.session === undefined || stream.session === event.session)
    );
  }
  return event.type === "roles.changed" && member?.id === event.userId;
}

/** This process's open streams, and the one queue that writes to them. */
export class FanOut {
  /** The open streams, by viewer. */
  private readonly audiences = new Map<string, Audience>();
  private readonly perViewer: OpenLimit;
  private readonly perAddress: OpenLimit;
  private readonly maxStreams: number;
  private readonly maxBuffered: number;
  private openCount = 0;
  private closing = false;
  private queue = Promise.resolve();
  /** Lets go of the bus and the heartbeat's timer, when the app closes. */
  readonly stop: () => void;

  constructor(
    private readonly options: FanOutOptions,
    private readonly logFailure: (error: unknown) => void,
  ) {
    this.maxStreams = options.maxStreams ?? FAN_OUT_DEFAULTS.maxStreams;
    this.maxBuffered = options.maxBufferedBytes ?? FAN_OUT_DEFAULTS.maxBufferedBytes;
    this.perViewer = new OpenLimit(options.maxPerViewer ?? FAN_OUT_DEFAULTS.maxPerViewer);
    this.perAddress = new OpenLimit(options.maxPerAddress ?? FAN_OUT_DEFAULTS.maxPerAddress);
    // One subscription and one timer for every stream.
    const unsubscribe = options.bus.subscribe((event, id) => this.announce(event, id));
    const heartbeat = setInterval(
      () => this.enqueue(() => this.broadcast(() => heartbeatFrame)),
      options.heartbeatMs ?? FAN_OUT_DEFAULTS.heartbeatMs,
    );
    heartbeat.unref();
    this.stop = () => {
      unsubscribe();
      clearInterval(heartbeat);
    };
  }

  /** Takes a new stream's places, or says why it is refused (then it holds none). */
  admit(asker: Asker): Refusal | null {
    if (this.closing) return "unavailable";
    if (!this.perAddress.take(asker.address)) return "too many";
    if (asker.viewer && !this.perViewer.take(asker.viewer)) {
      this.perAddress.release(asker.address);
      return "too many";
    }
    if (this.openCount < this.maxStreams) return null;
    // Anonymous streams cannot keep members out: a member's takes the oldest one's place.
    const oldestAnonymous = asker.member
      ? this.audiences.get(audienceKey(null))?.streams.values().next().value
      : undefined;
    if (!oldestAnonymous) {
      this.release(asker);
      return "unavailable";
    }
    oldestAnonymous.end();
    return null;
  }

  /**
   * Serves an admitted stream whose head is written: its greeting, then the events after `since`
   * when they are known, then every event as it comes, until either end closes it.
   */
  open(asker: Asker, request: IncomingMessage, response: ServerResponse, since?: string) {
    const audience = this.audienceOf(asker.member);
    const cleanUp = () => {
      if (stream.ended) return;
      stream.ended = true;
      this.openCount -= 1;
      openStreams.dec();
      this.release(asker);
      audience.streams.delete(stream);
      const key = audienceKey(asker.member);
      if (audience.streams.size === 0 && this.audiences.get(key) === audience) {
        this.audiences.delete(key);
      }
    };
    const stream: OpenStream = {
      socket: response.socket as Socket,
      session: asker.session,
      live: false,
      ended: false,
      end() {
        if (stream.ended) return;
        cleanUp();
        response.end();
      },
    };
    request.on("close", cleanUp);
    response.on("close", cleanUp);
    response.on("error", cleanUp);
    audience.streams.add(stream);
    this.openCount += 1;
    openStreams.inc();
    this.start(stream, audience, since);
  }

  /** Refuses new streams and ends every open one, so that closing waits for no client. */
  endAll() {
    this.closing = true;
    for (const audience of [...this.audiences.values()]) {
      for (const stream of [...audience.streams]) stream.end();
    }
  }

  private audienceOf(member: StreamViewer): Audience {
    const key = audienceKey(member);
    const audience = this.audiences.get(key) ?? { member, streams: new Set() };
    this.audiences.set(key, audience);
    return audience;
  }

  private release(asker: Asker) {
    this.perAddress.release(asker.address);
    if (asker.viewer) this.perViewer.release(asker.viewer);
  }

  /** Greets a new stream, and queues its replay and its turn to hear events as they come. */
  private start(stream: OpenStream, audience: Audience, since: string | undefined) {
    const stamp = this.options.versions.stamp();
    const missed = since === undefined ? undefined : this.options.versions.since(since);
    this.write(stream, greeting(stamp, missed));
    // Every event heard before this point is in the stamp, and already in the queue; every later
    // one comes after this turn. The stream hears the later ones as they come, and of the earlier
    // ones only those it missed: each event once, in the order they came.
    this.enqueue(async () => {
      if (stream.ended) return;
      if (missed) this.replay(stream, audience, missed);
      stream.live = true;
    });
  }

  /** Writes a chunk to a stream, and drops a client that leaves too much unread (it reconnects). */
  private write(stream: OpenStream, chunk: Buffer) {
    stream.socket.write(chunk);
    if (stream.socket.writableLength > this.maxBuffered) {
      stream.socket.destroy();
    }
  }

  /** Runs fan-out work after the work queued before it: chunks go out in the order they came. */
  private enqueue(work: () => Promise<unknown>) {
    this.queue = this.queue
      .then(work)
      .then(() => undefined)
      .catch((error: unknown) => this.logFailure(error));
  }

  /**
   * Writes to the streams; resolves to how many it wrote to. An event is classified once per
   * viewer (all anonymous visitors are one), encoded once, and written as the same bytes to each
   * live stream's socket (or to those of `only`, live or not: they are ending), with a pause for
   * other work after each batch so that thousands of open pages do not hold the event loop. Each
   * chunk goes to every stream before the next.
   */
  private async broadcast(chunkFor: (audience: Audience) => Buffer | null, only?: Set<OpenStream>) {
    const targets: [OpenStream[], Buffer][] = [];
    for (const audience of this.audiences.values()) {
      const chunk = chunkFor(audience);
      if (!chunk) continue;
      const streams = [...audience.streams];
      targets.push([only ? streams.filter((stream) => only.has(stream)) : streams, chunk]);
    }
    let written = 0;
    for (const [streams, chunk] of targets) {
      for (const stream of streams) {
        if (stream.socket.destroyed || !(stream.live || only)) continue;
        this.write(stream, chunk);
        written += 1;
        if (written % FAN_OUT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return written;
  }

  private announce(event: PrismEvent, id: string) {
    const heard = performance.now();
    this.enqueue(async () => {
      const ended = this.endedBy(event);
      let encoded: Buffer | undefined;
      const written = await this.broadcast(
        (audience) => {
          const frame = frameFor(event, audience.member);
          if (!frame) return null;
          encoded ??= Buffer.from(encodeFrame(frame, id));
          return encoded;
        },
        event.type === "sessions.ended" ? ended : undefined,
      );
      if (written > 0) {
        eventsDelivered.inc(written);
        deliveryLag.observe((performance.now() - heard) / 1000);
      }
      // Say so (the page learns it is signed out), then stop serving them.
      for (const stream of ended) stream.end();
    });
  }

  /** The open streams an event ends. */
  private endedBy(event: PrismEvent): Set<OpenStream> {
    const ended = new Set<OpenStream>();
    if (event.type !== "sessions.ended" && event.type !== "roles.changed") return ended;
    for (const audience of this.audiences.values()) {
      if (audience.member?.id !== event.userId) continue;
      for (const stream of audience.streams) {
        if (ends(event, audience.member, stream)) ended.add(stream);
      }
    }
    return ended;
  }

  /**
   * Writes to a stream the events it missed, each as it would have been sent live (a session's
   * end only to that session's streams), in one chunk; an event that ends it is its last. The
   * chunk counts against what a client may leave unread like any write: a client that cannot
   * take it is dropped, and its page reconnects and refetches what it shows.
   */
  private replay(stream: OpenStream, audience: Audience, missed: readonly PrismEvent[]) {
    let chunk = "";
    let ended = false;
    for (const event of missed) {
      ended = ends(event, audience.member, stream);
      if (event.type === "sessions.ended" && !ended) continue;
      const frame = frameFor(event, audience.member);
      if (frame) chunk += encodeFrame(frame);
      if (ended) break;
    }
    if (chunk) this.write(stream, Buffer.from(chunk));
    if (ended) stream.end();
  }
}
