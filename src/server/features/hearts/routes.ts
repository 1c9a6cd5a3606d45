// HTTP for hearts: the current visitor's heart on a prism, and the toggle.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../contract/paging.ts";
import { heartMessages, heartStatusSchema } from "../../../contract/prisms.ts";
import type { AppDeps } from "../../app.ts";
import { heartPrism } from "../../commands/heart-prism.ts";
import { errorResponses } from "../../http-error.ts";
import { versionKeys } from "../../live/versions.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { sessionToken } from "../../plugins/session.ts";
import { participantOf, VISITOR_COOKIE } from "../../plugins/visitor.ts";
import { heartStatus } from "./service.ts";

export const heartsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, bus, versions, config, secret } = deps;
  const params = z.object({ prismId: idParam });
  const tags = ["hearts"];
  const response = { 200: heartStatusSchema, ...errorResponses(404) };
  // Each heart may notify an owner: a browser cannot heart without limit by clearing its cookie.
  const perAddress = new Limit(60, 10, by.address);

  app.get(
    "/prisms/:prismId/heart",
    {
      schema: {
        tags,
        summary: "Whether this visitor hearted the prism, and its count (conditional)",
        params,
        response,
      },
      config: {
        etag: (request) =>
          versions.etag(
            versionKeys.heart(Number((request.params as { prismId: string }).prismId)),
            `${sessionToken(request) ?? ""}|${request.cookies[VISITOR_COOKIE] ?? ""}`,
          ),
      },
    },
    async (request, reply) =>
      heartStatus(db, request.params.prismId, participantOf(request, reply, config, secret)),
  );

  app.post(
    "/prisms/:prismId/heart",
    {
      schema: {
        tags,
        summary: "Heart or un-heart the prism as this visitor",
        params,
        response: { ...response, ...errorResponses(429) },
      },
      config: { rateLimit: { message: heartMessages.tooMany, limits: [perAddress] } },
    },
    async (request, reply) => {
      const participant = participantOf(request, reply, config, secret);
      const { status, events } = await heartPrism(db, request.params.prismId, participant);
      await bus.publish(...events);
      return status;
    },
  );
};
