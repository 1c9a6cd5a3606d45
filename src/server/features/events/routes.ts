// GET /api/events: one Server-Sent Events stream per tab, through which the fan-out forwards the
// change events its viewer may see; the page then refetches through the normal, authorized
// endpoints.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { by, RateLimited } from "../../plugins/rate-limit.ts";
import { writeHeadDirectly } from "../../plugins/requests.ts";
import { sessionToken } from "../../plugins/session.ts";
import { hashToken } from "../../security/tokens.ts";
import { type Asker, FanOut, type FanOutOptions } from "./fan-out.ts";

const streamMessages = {
  tooMany: "Too many live-update connections are open. Close some tabs and try again.",
  unavailable: "The service is temporarily unavailable. Please try again shortly.",
} as const;

export const eventStreamRoutes: FastifyPluginAsync<FanOutOptions> = async (app, options) => {
  const fanOut = new FanOut(options, (error) =>
    app.log.error({ err: error }, "event fan-out failed"),
  );
  app.addHook("onClose", async () => fanOut.stop());
  // Before the server stops accepting and waits for connections: end every stream, or close()
  // and graceful shutdown would wait for clients that never hang up.
  app.addHook("preClose", async () => fanOut.endAll());

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
      const asker = askerOf(request);
      const refusal = fanOut.admit(asker);
      if (refusal === "too many") throw new RateLimited(streamMessages.tooMany, 5);
      if (refusal === "unavailable") {
        return reply
          .status(503)
          .header("retry-after", "5")
          .send({ message: streamMessages.unavailable });
      }
      writeHead(request, reply);
      fanOut.open(asker, request.raw, reply.raw, typeof since === "string" ? since : undefined);
    },
  );
};

function askerOf(request: FastifyRequest): Asker {
  const session = sessionToken(request);
  // Resolved once, when the stream opens (the session plugin ran in onRequest).
  const member = request.user ?? null;
  return {
    viewer: session ? `session:${session}` : by.visitor(request),
    address: by.address(request),
    member,
    session: member && session ? hashToken(session) : null,
  };
}

/** Sends the stream's status and headers. */
function writeHead(request: FastifyRequest, reply: FastifyReply) {
  // The body ends when the connection closes (HTTP/1.1 allows it for a response without a
  // length, browsers' EventSource and proxies read it so): with no chunked framing, every
  // stream is sent the very same bytes, written straight to its socket.
  reply.raw.removeHeader("transfer-encoding");
  writeHeadDirectly(request, reply, 200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
    // Closing ends the body, and frees its socket, so app.close() does not wait out a
    // keep-alive timeout.
    connection: "close",
  }).flushHeaders();
}
