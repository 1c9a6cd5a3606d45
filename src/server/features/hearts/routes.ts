// HTTP for hearts: the current visitor's heart on a prism, and the toggle.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../contract/paging.ts";
import { heartMessages, heartStatusSchema } from "../../../contract/prisms.ts";
import { cachedRead } from "../../cache/cached-read.ts";
import { heartPrism } from "../../commands/hearts.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { participantOf } from "../../plugins/visitor.ts";
import { heartReads } from "./reads.ts";

export const heartsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { config, secret, limitStore } = deps;
  const params = z.object({ prismId: idParam });
  const tags = ["hearts"];
  const response = { 200: heartStatusSchema, ...errorResponses(404) };
  // Each heart may notify an owner: a browser cannot heart without limit by clearing its cookie.
  const perAddress = new Limit(limitStore, "hearts", 60, 10, by.address);
  // A browser id costs nothing to get, so one address's anonymous hearts on one prism are bounded
  // too: a day's handful from an office's shared address, not a count anyone can drive.
  const anonymousPerPrism = new Limit(limitStore, "hearts-prism", 20, 24 * 60, (request) =>
    request.user
      ? null
      : `${by.address(request)}:prism:${(request.params as { prismId: number }).prismId}`,
  );
  const reads = heartReads(deps);
  const as = writer(deps);

  app.get("/prisms/:prismId/heart", {
    schema: {
      tags,
      summary: "Whether this visitor hearted the prism, and its count (conditional)",
      params: reads.status.params,
      response,
    },
    ...cachedRead(reads.status),
  });

  app.post(
    "/prisms/:prismId/heart",
    {
      schema: {
        tags,
        summary: "Heart or un-heart the prism as this visitor",
        params,
        response: { ...response, ...errorResponses(429) },
      },
      config: {
        rateLimit: { message: heartMessages.tooMany, limits: [anonymousPerPrism, perAddress] },
      },
    },
    async (request, reply) =>
      heartPrism(as(participantOf(request, reply, config, secret)), request.params.prismId),
  );
};
