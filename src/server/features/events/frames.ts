// The Server-Sent Events wire format of GET /api/events: the frame an event becomes for a viewer,
// and the bytes of a frame, of a stream's first lines and of the heartbeat.
import type { PrismEvent } from "../../../contract/events.ts";
import type { UserRow } from "../../db/schema.ts";
import { canAdminister } from "../../policy.ts";

/** The member a stream is open for, or null for an anonymous visitor. */
export type StreamViewer = Pick<UserRow, "id" | "isAdmin"> | null;

export interface Frame {
  type: string;
  data: Record<string, unknown>;
}

/** The client's reconnection delay, sent as the stream's first line. */
const RETRY_MS = 3000;

/**
 * What one stream sends for an event, or null when its viewer may not see it. Only whether a
 * viewer gets the frame depends on the viewer, never the frame itself: it is encoded once per
 * event. Public events carry
 * only public fields; notification and session events reach their member alone and carry nothing
 * else.
 * The switch is exhaustive: a new event type does not compile until it is classified here.
 */
export function frameFor(event: PrismEvent, viewer: StreamViewer): Frame | null {
  const viewerId = viewer?.id ?? null;
  switch (event.type) {
    case "prisms.changed":
      return hears(event, viewer) ? { type: event.type, data: { username: event.username } } : null;
    // Only the server's answers depend on these; no open page shows another member's profile live.
    case "profile.changed":
    case "roles.changed":
    case "response.mail":
      return null;
    case "heart.changed":
      return hears(event, viewer)
        ? {
            type: event.type,
            data: {
              prismId: event.prismId,
              heartsCount: event.heartsCount,
              username: event.username,
            },
          }
        : null;
    // A change to annotations only some may see (pending ones, or on a prism only some see)
    // reaches only them.
    case "annotation.changed":
      return hears(event, viewer) ? { type: event.type, data: { prismId: event.prismId } } : null;
    case "notification.created":
    case "notifications.changed":
    case "sessions.ended":
      return viewerId !== null && event.userId === viewerId ? { type: event.type, data: {} } : null;
    default:
      // An instance running a newer version may announce types this one does not know.
      return unclassified(event);
  }
}

/** Whether the viewer may hear of a change that names who may (`audience`). */
function hears(event: { audience?: number[] | null }, viewer: StreamViewer): boolean {
  return (
    event.audience === undefined ||
    event.audience === null ||
    canAdminister(viewer) ||
    (viewer !== null && event.audience.includes(viewer.id))
  );
}

function unclassified(_event: never): null {
  return null;
}

/**
 * A frame's bytes; with the event's name (`id`) when it has one, which the page then sends with
 * its requests (see contract/events.ts).
 */
export function encodeFrame(frame: Frame, id = ""): string {
  const named = id ? `id: ${id}\n` : "";
  return `${named}event: ${frame.type}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

/** A comment that keeps idle connections (and proxies) open. */
export const heartbeatFrame = Buffer.from(": ping\n\n");

/**
 * A stream's first bytes: the reconnection delay, a comment, and `live.ready` with where the
 * server stands (`stamp`) and, for a stream opened `since` a stamp, whether the events after it
 * follow (`resumed`: `missed` is known) or the page must refetch what it shows.
 */
export function greeting(stamp: string, missed: readonly PrismEvent[] | null | undefined): Buffer {
  const ready = encodeFrame({
    type: "live.ready",
    data: missed === undefined ? { stamp } : { stamp, resumed: missed !== null },
  });
  return Buffer.from(`retry: ${RETRY_MS}\n\n: connected\n\n${ready}`);
}
