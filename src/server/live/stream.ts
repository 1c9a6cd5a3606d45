// GET /api/events: one Server-Sent Events stream per tab. Forwards the bus's change events
// (this process's and, through LISTEN/NOTIFY, every other instance's) to the tabs that may see
// them; the page then refetches through the normal, authorized endpoints.
import type { Socket } from "node:net";
import type { FastifyPluginAsync } from "fastify";
import type { PrismEvent } from "../../contract/events.ts";
import type { Versions } from "../cache/versions.ts";
import type { UserRow } from "../db/schema.ts";
import { deliveryLag, eventsDelivered, openStreams } from "../metrics.ts";
import { by, OpenLimit, RateLimited } from "../plugins/rate-limit.ts";
import { sessionToken } from "../plugins/session.ts";
import { canAdminister } from "../policy.ts";
import { hashToken } from "../security/tokens.ts";
import type { EventBus } from "./bus.ts";

const streamMessages = {
  tooMany: "Too many live-update connections are open. Close some tabs and try again.",
} as const;

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

interface EventStreamOptions extends EventStreamLimits {
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

const EVENT_STREAM_DEFAULTS = {
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
  /** The client's reconnection delay, sent as the stream's first line. */
  retryMs: 3000,
} as const;

/**
 * Streams written to before the fan-out of an event lets other work run. A write costs about
 * 13 µs of CPU as measured on loopback (2 µs of it ours, the rest the kernel's), so a batch
 * holds the event loop for under 10 ms.
 */
const FAN_OUT_BATCH = 500;

interface OpenStream {
  socket: Socket;
  /** The session it was opened with (the SHA-256 of its token), for a member's stream. */
  session: string | null;
  /**
   * Whether it hears events as they come: from the turn its stamp was taken at in the fan-out's
   * queue, once the events after the stamp it was opened with have been written.
   */
  live: boolean;
  end(): void;
}

/** The open streams of one viewer (a member, or every anonymous visitor): they get the same frames. */
interface Audience {
  member: Pick<UserRow, "id" | "isAdmin"> | null;
  streams: Set<OpenStream>;
}

interface Frame {
  type: string;
  data: Record<string, unknown>;
}

/**
 * What one stream sends for an event, or null when its viewer may not see it. Only whether a
 * viewer gets the frame depends on the viewer, never the frame itself: it is encoded once per
 * event. Public events carry
 * only public fields; notification and session events reach their member alone and carry nothing
 * else.
 * The switch is exhaustive: a new event type does not compile until it is classified here.
 */
export function frameFor(
  event: PrismEvent,
  viewer: Pick<UserRow, "id" | "isAdmin"> | null,
): Frame | null {
  const viewerId = viewer?.id ?? null;
  switch (event.type) {
    case "prisms.changed":
      return { type: event.type, data: { username: event.username } };
    // Only the server's answers depend on these; no open page shows another member's profile live.
    case "profile.changed":
    case "roles.changed":
      return null;
    case "heart.changed":
      return {
        type: event.type,
        data: { prismId: event.prismId, heartsCount: event.heartsCount, username: event.username },
      };
    case "annotation.changed": {
      // A change to annotations only some may see (pending ones) reaches only them.
      const hears =
        event.audience === undefined ||
        canAdminister(viewer) ||
        (viewerId !== null && event.audience.includes(viewerId));
      return hears ? { type: event.type, data: { prismId: event.prismId } } : null;
    }
    case "notification.created":
    case "notifications.changed":
    case "sessions.ended":
      return viewerId !== null && event.userId === viewerId ? { type: event.type, data: {} } : null;
    default:
      // An instance running a newer version may announce types this one does not know.
      return unclassified(event);
  }
}

function unclassified(_event: never): null {
  return null;
}

/**
 * Whether an event ends a stream: one of the sessions that ended, or any of a member whose role
 * changed (the page reconnects, and its new stream hears what the member now may).
 */
function ends(
  event: PrismEvent,
  member: Pick<UserRow, "id" | "isAdmin"> | null,
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

export function encodeFrame(frame: Frame): string {
  return `event: ${frame.type}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

const heartbeatFrame = Buffer.from(": ping\n\n");

const audienceKey = (member: Pick<UserRow, "id" | "isAdmin"> | null) =>
  member ? `${member.id}${member.isAdmin ? ":admin" : ""}` : "";

export const eventStreamRoutes: FastifyPluginAsync<EventStreamOptions> = async (app, options) => {
  const heartbeatMs = options.heartbeatMs ?? EVENT_STREAM_DEFAULTS.heartbeatMs;
  const maxStreams = options.maxStreams ?? EVENT_STREAM_DEFAULTS.maxStreams;
  const maxBuffered = options.maxBufferedBytes ?? EVENT_STREAM_DEFAULTS.maxBufferedBytes;
  const perViewer = new OpenLimit(options.maxPerViewer ?? EVENT_STREAM_DEFAULTS.maxPerViewer);
  const perAddress = new OpenLimit(options.maxPerAddress ?? EVENT_STREAM_DEFAULTS.maxPerAddress);
  /** The open streams, by viewer. */
  const audiences = new Map<string, Audience>();
  let openCount = 0;
  let closing = false;

  /** Writes a chunk to a stream, and drops a client that leaves too much unread (it reconnects). */
  const write = (stream: OpenStream, chunk: Buffer) => {
    stream.socket.write(chunk);
    if (stream.socket.writableLength > maxBuffered) {
      stream.socket.destroy();
    }
  };

  // One subscription for every stream. An event is classified once per viewer (all anonymous
  // visitors are one), encoded once, and written as the same bytes to each live stream's socket
  // (or to those of `only`, live or not: they are ending), with a pause for other work after each
  // batch so that thousands of open pages do not hold the event loop. Chunks go out in the order
  // they came, each to every stream before the next.
  let fanningOut = Promise.resolve();
  /** Writes to the streams; resolves to how many it wrote to. */
  const broadcast = async (
    chunkFor: (audience: Audience) => Buffer | null,
    only?: Set<OpenStream>,
  ) => {
    const targets: [OpenStream[], Buffer][] = [];
    for (const audience of audiences.values()) {
      const chunk = chunkFor(audience);
      if (!chunk) continue;
      const streams = [...audience.streams];
      targets.push([only ? streams.filter((stream) => only.has(stream)) : streams, chunk]);
    }
    let written = 0;
    for (const [streams, chunk] of targets) {
      for (const stream of streams) {
        if (stream.socket.destroyed || !(stream.live || only)) continue;
        write(stream, chunk);
        written += 1;
        if (written % FAN_OUT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return written;
  };
  const enqueue = (work: () => Promise<unknown>) => {
    fanningOut = fanningOut
      .then(work)
      .then(() => undefined)
      .catch((error: unknown) => app.log.error({ err: error }, "event fan-out failed"));
  };
  /** The open streams an event ends. */
  const endedBy = (event: PrismEvent): Set<OpenStream> => {
    const ended = new Set<OpenStream>();
    if (event.type !== "sessions.ended" && event.type !== "roles.changed") return ended;
    for (const audience of audiences.values()) {
      if (audience.member?.id !== event.userId) continue;
      for (const stream of audience.streams) {
        if (ends(event, audience.member, stream)) ended.add(stream);
      }
    }
    return ended;
  };
  /**
   * Writes to a stream the events it missed, each as it would have been sent live (a session's
   * end only to that session's streams), in one chunk; an event that ends it is its last. The
   * chunk counts against what a client may leave unread like any write: a client that cannot
   * take it is dropped, and its page reconnects and refetches what it shows.
   */
  const replay = (stream: OpenStream, audience: Audience, missed: readonly PrismEvent[]) => {
    let chunk = "";
    let ended = false;
    for (const event of missed) {
      ended = ends(event, audience.member, stream);
      if (event.type === "sessions.ended" && !ended) continue;
      const frame = frameFor(event, audience.member);
      if (frame) chunk += encodeFrame(frame);
      if (ended) break;
    }
    if (chunk) write(stream, Buffer.from(chunk));
    if (ended) stream.end();
  };
  const unsubscribe = options.bus.subscribe((event) => {
    const heard = performance.now();
    enqueue(async () => {
      const ended = endedBy(event);
      let encoded: Buffer | undefined;
      const written = await broadcast(
        (audience) => {
          const frame = frameFor(event, audience.member);
          if (!frame) return null;
          encoded ??= Buffer.from(encodeFrame(frame));
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
  });
  // One timer for every stream: a comment that keeps idle connections (and proxies) open.
  const heartbeat = setInterval(() => enqueue(() => broadcast(() => heartbeatFrame)), heartbeatMs);
  heartbeat.unref();
  app.addHook("onClose", async () => {
    unsubscribe();
    clearInterval(heartbeat);
  });

  // Before the server stops accepting and waits for connections: end every stream, or close()
  // and graceful shutdown would wait for clients that never hang up.
  app.addHook("preClose", async () => {
    closing = true;
    for (const audience of [...audiences.values()]) {
      for (const stream of [...audience.streams]) stream.end();
    }
  });

  app.get(
    "/events",
    {
      exposeHeadRoute: false,
      config: { streams: true },
      schema: {
        tags: ["events"],
        summary:
          "Server-Sent Events: prisms.changed, heart.changed, annotation.changed, and the " +
          "signed-in member's notification.created / notifications.changed / sessions.ended " +
          "(after which the stream ends). First `live.ready` with the server's stamp; with " +
          "`?since=<stamp>`, also whether the events after that stamp follow (`resumed`)",
      },
    },
    async (request, reply) => {
      const { since } = request.query as { since?: unknown };
      const unavailable = () =>
        reply
          .status(503)
          .header("retry-after", "5")
          .send({ message: "The service is temporarily unavailable. Please try again shortly." });
      if (closing) return unavailable();
      const session = sessionToken(request);
      const viewer = session ? `session:${session}` : by.visitor(request);
      const address = by.address(request);
      const release = () => {
        perAddress.release(address);
        if (viewer) perViewer.release(viewer);
      };
      if (!perAddress.take(address)) throw new RateLimited(streamMessages.tooMany, 5);
      if (viewer && !perViewer.take(viewer)) {
        perAddress.release(address);
        throw new RateLimited(streamMessages.tooMany, 5);
      }
      // Resolved once, when the stream opens (the session plugin ran in onRequest).
      const member = request.user ?? null;
      if (openCount >= maxStreams) {
        // Anonymous streams cannot keep members out: a member's takes the oldest one's place.
        const oldestAnonymous = member
          ? audiences.get(audienceKey(null))?.streams.values().next().value
          : undefined;
        if (!oldestAnonymous) {
          release();
          return unavailable();
        }
        oldestAnonymous.end();
      }
      const raw = reply.raw;

      reply.hijack();
      // Headers that earlier hooks set on the reply still apply (onSend hooks will not run).
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) raw.setHeader(name, value);
      }
      // The body ends when the connection closes (HTTP/1.1 allows it for a response without a
      // length, browsers' EventSource and proxies read it so): with no chunked framing, every
      // stream is sent the very same bytes, written straight to its socket.
      raw.removeHeader("transfer-encoding");
      raw.writeHead(200, {
        "x-request-id": request.id,
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
        // Closing ends the body, and frees its socket, so app.close() does not wait out a
        // keep-alive timeout.
        connection: "close",
      });
      raw.flushHeaders();

      const key = audienceKey(member);
      const audience = audiences.get(key) ?? { member, streams: new Set() };
      audiences.set(key, audience);
      const streams = audience.streams;
      let ended = false;
      const cleanUp = () => {
        if (ended) return;
        ended = true;
        openCount -= 1;
        openStreams.dec();
        release();
        streams.delete(stream);
        if (streams.size === 0 && audiences.get(key)?.streams === streams) audiences.delete(key);
      };
      const stream: OpenStream = {
        socket: raw.socket as Socket,
        session: member && session ? hashToken(session) : null,
        live: false,
        end() {
          if (ended) return;
          cleanUp();
          raw.end();
        },
      };
      request.raw.on("close", cleanUp);
      raw.on("close", cleanUp);
      raw.on("error", cleanUp);
      streams.add(stream);
      openCount += 1;
      openStreams.inc();

      // Where the server stands, and for a stream opened `since` a stamp, whether the events
      // after it follow (`resumed`), or the page must refetch what it shows.
      const stamp = options.versions.stamp();
      const missed = typeof since === "string" ? options.versions.since(since) : undefined;
      write(
        stream,
        Buffer.from(
          `retry: ${EVENT_STREAM_DEFAULTS.retryMs}\n\n: connected\n\n${encodeFrame({
            type: "live.ready",
            data: missed === undefined ? { stamp } : { stamp, resumed: missed !== null },
          })}`,
        ),
      );
      // Every event heard before this point is in the stamp, and already in the fan-out's queue;
      // every later one comes after this turn. The stream hears the later ones as they come, and
      // of the earlier ones only those it missed: each event once, in the order they came.
      enqueue(async () => {
        if (ended) return;
        if (missed) replay(stream, audience, missed);
        stream.live = true;
      });
    },
  );
};
