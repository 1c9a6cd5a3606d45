// GET /api/events: one Server-Sent Events stream per tab. Forwards the bus's change events
// (this process's and, through LISTEN/NOTIFY, every other instance's) to the tabs that may see
// them; the page then refetches through the normal, authorized endpoints.
import type { ServerResponse } from "node:http";
import type { FastifyPluginAsync } from "fastify";
import type { PrismEvent } from "../../contract/events.ts";
import type { UserRow } from "../db/schema.ts";
import { by, OpenLimit, RateLimited } from "../plugins/rate-limit.ts";
import { sessionToken } from "../plugins/session.ts";
import { canAdminister } from "../policy.ts";
import type { EventBus } from "./bus.ts";
import type { Versions } from "./versions.ts";

const streamMessages = {
  tooMany: "Too many live-update connections are open. Close some tabs and try again.",
} as const;

export interface EventStreamLimits {
  /** Open streams this process serves before answering 503. */
  maxStreams?: number;
  /** Open streams of one session (or anonymous browser), then of one address, before a 429. */
  maxPerViewer?: number;
  maxPerAddress?: number;
}

interface EventStreamOptions extends EventStreamLimits {
  bus: Pick<EventBus, "subscribe">;
  /** Sent first as `live.ready`: a page rendered at this stamp has missed nothing. */
  versions: Pick<Versions, "stamp">;
  /** Milliseconds between heartbeat comments; 25 s unless a test says otherwise. */
  heartbeatMs?: number;
  /** Bytes a slow client may leave unread before its stream is dropped (it reconnects). */
  maxBufferedBytes?: number;
}

const EVENT_STREAM_DEFAULTS = {
  heartbeatMs: 25_000,
  maxStreams: 1000,
  // Enough for a member's tabs (one stream each); far from one client taking every place.
  maxPerViewer: 10,
  maxPerAddress: 50,
  maxBufferedBytes: 1024 * 1024,
  /** The client's reconnection delay, sent as the stream's first line. */
  retryMs: 3000,
} as const;

/** Streams written to before the fan-out of an event lets other work run. */
const FAN_OUT_BATCH = 500;

interface OpenStream {
  member: Pick<UserRow, "id" | "isAdmin"> | null;
  write(chunk: string): void;
  end(): void;
}

interface Frame {
  type: string;
  data: Record<string, unknown>;
}

/**
 * What one stream sends for an event, or null when its viewer may not see it. Public events carry
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

export function encodeFrame(frame: Frame): string {
  return `event: ${frame.type}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

export const eventStreamRoutes: FastifyPluginAsync<EventStreamOptions> = async (app, options) => {
  const heartbeatMs = options.heartbeatMs ?? EVENT_STREAM_DEFAULTS.heartbeatMs;
  const maxStreams = options.maxStreams ?? EVENT_STREAM_DEFAULTS.maxStreams;
  const maxBuffered = options.maxBufferedBytes ?? EVENT_STREAM_DEFAULTS.maxBufferedBytes;
  const perViewer = new OpenLimit(options.maxPerViewer ?? EVENT_STREAM_DEFAULTS.maxPerViewer);
  const perAddress = new OpenLimit(options.maxPerAddress ?? EVENT_STREAM_DEFAULTS.maxPerAddress);
  /** Each open stream: whom it serves, how to write to it, how to end it. */
  const open = new Map<ServerResponse, OpenStream>();
  let closing = false;

  // One subscription for every stream: an event is encoded once (a frame, when a viewer may see
  // it, is the same for all who may) and written stream after stream, with a pause for other work
  // after each batch so that thousands of open pages do not hold the event loop. Events go out in
  // the order they came, each to every stream before the next.
  let fanningOut = Promise.resolve();
  const fanOut = async (event: PrismEvent) => {
    let encoded: string | undefined;
    let written = 0;
    for (const stream of [...open.values()]) {
      const frame = frameFor(event, stream.member);
      if (!frame) continue;
      encoded ??= encodeFrame(frame);
      stream.write(encoded);
      // The member's sessions are gone: say so, then stop serving them (the page reconnects signed out).
      if (frame.type === "sessions.ended") stream.end();
      written += 1;
      if (written % FAN_OUT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const unsubscribe = options.bus.subscribe((event) => {
    fanningOut = fanningOut
      .then(() => fanOut(event))
      .catch((error: unknown) => app.log.error({ err: error }, "event fan-out failed"));
  });
  app.addHook("onClose", async () => unsubscribe());

  // Before the server stops accepting and waits for connections: end every stream, or close()
  // and graceful shutdown would wait for clients that never hang up.
  app.addHook("preClose", async () => {
    closing = true;
    for (const stream of [...open.values()]) stream.end();
  });

  app.get(
    "/events",
    {
      exposeHeadRoute: false,
      schema: {
        tags: ["events"],
        summary:
          "Server-Sent Events: prisms.changed, heart.changed, annotation.changed, and the " +
          "signed-in member's notification.created / notifications.changed / sessions.ended " +
          "(after which the stream ends)",
      },
    },
    async (request, reply) => {
      if (closing || open.size >= maxStreams) {
        reply.header("retry-after", "5");
        return reply
          .status(503)
          .send({ message: "The service is temporarily unavailable. Please try again shortly." });
      }
      const session = sessionToken(request);
      const viewer = session ? `session:${session}` : by.visitor(request);
      const address = by.address(request);
      if (!perAddress.take(address)) throw new RateLimited(streamMessages.tooMany, 5);
      if (viewer && !perViewer.take(viewer)) {
        perAddress.release(address);
        throw new RateLimited(streamMessages.tooMany, 5);
      }
      // Resolved once, when the stream opens (the session plugin ran in onRequest).
      const member = request.user ?? null;
      const raw = reply.raw;

      reply.hijack();
      // Headers that earlier hooks set on the reply still apply (onSend hooks will not run).
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) raw.setHeader(name, value);
      }
      raw.writeHead(200, {
        "x-request-id": request.id,
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
        // A finished stream is not reused for other requests: closing it frees its socket, so
        // app.close() does not wait out a keep-alive timeout.
        connection: "close",
      });
      raw.flushHeaders();

      let ended = false;
      const write = (chunk: string) => {
        if (ended) return;
        raw.write(chunk);
        // A client that stops reading is dropped rather than buffered without bound.
        if (raw.writableLength > maxBuffered) {
          cleanUp();
          raw.destroy();
        }
      };
      const heartbeat = setInterval(() => write(": ping\n\n"), heartbeatMs);
      heartbeat.unref();

      const cleanUp = () => {
        if (ended) return;
        ended = true;
        perAddress.release(address);
        if (viewer) perViewer.release(viewer);
        clearInterval(heartbeat);
        open.delete(raw);
      };
      function end() {
        if (ended) return;
        cleanUp();
        raw.end();
      }
      request.raw.on("close", cleanUp);
      raw.on("close", cleanUp);
      raw.on("error", cleanUp);
      open.set(raw, { member, write, end });

      write(`retry: ${EVENT_STREAM_DEFAULTS.retryMs}\n\n: connected\n\n`);
      write(encodeFrame({ type: "live.ready", data: { stamp: options.versions.stamp() } }));
    },
  );
};
