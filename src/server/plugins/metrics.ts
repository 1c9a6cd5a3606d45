// Measures every request (by route pattern and status, never by its address: the label values
// stay few) and counts the 429s the limits answer. With METRICS_TOKEN set, GET /metrics with
// that bearer token answers the metrics; without it, the request goes on as any other (a page
// path), so that nobody learns the metrics are there.
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { metricsContentType, metricsText, rateLimitRefusals, requestDuration } from "../metrics.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The answer stays open (an event stream): how long says how long a page stayed, not how fast
     * Prism answered, so a 200 of it is left out of the request durations.
     */
    streams?: boolean;
  }
}

const digest = (text: string) => createHash("sha256").update(text).digest();

export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { token: string | undefined }) => {
    const scrapes = new WeakSet<FastifyRequest>();
    const { token } = opts;
    if (token) {
      const expected = digest(token);
      app.addHook("onRequest", async (request, reply) => {
        if (request.method !== "GET" || request.url.split("?")[0] !== "/metrics") return;
        const given = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1];
        // Compared as digests of equal length, in constant time.
        if (!given || !timingSafeEqual(digest(given), expected)) return;
        scrapes.add(request);
        return reply
          .header("cache-control", "no-store")
          .type(metricsContentType)
          .send(await metricsText());
      });
    }

    // A callback, not a promise: every answer passes through it.
    app.addHook("onResponse", (request, reply, done) => {
      // Read once: each read of routeOptions builds it anew.
      const { url, config } = request.routeOptions;
      const route = url ?? "unmatched";
      const status = reply.statusCode;
      if (status === 429) rateLimitRefusals.inc({ route });
      if (!scrapes.has(request) && !(status === 200 && config.streams)) {
        requestDuration.observe(
          config,
          { method: request.method, route, status_code: status },
          reply.elapsedTime / 1000,
        );
      }
      done();
    });
  },
);
