// Conditional GETs for what pages poll: a route that declares `config.etag` answers an unchanged
// If-None-Match with 304 before any session lookup or query runs.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The entity tag of the current answer, computed without the database. */
    etag?: (request: FastifyRequest) => string;
  }
  interface FastifyRequest {
    etag: string | undefined;
  }
}

export const conditionalPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest("etag", undefined);
  app.addHook("onRequest", async (request, reply) => {
    const etagOf = request.routeOptions.config?.etag;
    if (!etagOf || request.method !== "GET") return;
    // The tag is read before the data, so a change racing this request only makes it older.
    request.etag = etagOf(request);
    reply.header("etag", request.etag).header("cache-control", "private, no-cache");
    const given = request.headers["if-none-match"];
    if (given?.split(",").some((tag) => tag.trim() === request.etag)) {
      return reply.status(304).send();
    }
  });
});
