// HTTP for hearts: the current visitor's heart on a prism, and the toggle.
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../contract/paging.ts";
import { heartMessages, heartStatusSchema } from "../../../contract/prisms.ts";
import type { AppDeps } from "../../app.ts";
import { heartPrism } from "../../commands/heart-prism.ts";
import { errorResponses } from "../../http-error.ts";
import { Memo } from "../../live/memo.ts";
import { versionKeys } from "../../live/versions.ts";
import { tagAnswer } from "../../plugins/conditional.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { participantKey, participantOf, viewerCookies } from "../../plugins/visitor.ts";
import { hasHearted, heartCount } from "./service.ts";

export const heartsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, bus, versions, config, secret } = deps;
  const params = z.object({ prismId: idParam });
  const tags = ["hearts"];
  const response = { 200: heartStatusSchema, ...errorResponses(404) };
  // Each heart may notify an owner: a browser cannot heart without limit by clearing its cookie.
  const perAddress = new Limit(60, 10, by.address);
  // Heart status from memory: each prism's count (and owner), and each participant's own heart,
  // kept while the prism's hearts and its owner's prisms stay as they were read.
  const counts = new Memo<number, { heartsCount: number; owner: string }>(versions, bus, {
    maxSize: 50_000,
    sizeOf: () => 1,
  });
  const ownHearts = new Memo<string, boolean>(versions, bus, { maxSize: 200_000, sizeOf: () => 1 });
  const prismIdOf = (request: FastifyRequest) =>
    Number((request.params as { prismId: string }).prismId);

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
        etag: (request) => {
          const keys = counts.current(prismIdOf(request))?.keys;
          return keys && versions.etag(keys, viewerCookies(request));
        },
      },
    },
    async (request, reply) => {
      const { prismId } = request.params;
      const prism = await counts.get(prismId, async () => {
        const value = await heartCount(db, prismId);
        return { value, keys: [versionKeys.heart(prismId), versionKeys.ownedPrisms(value.owner)] };
      });
      const participant = participantOf(request, reply, config, secret);
      const hearted = await ownHearts.get(
        `${prismId} ${participantKey(participant)}`,
        async () => ({
          value: await hasHearted(db, prismId, participant),
          keys: [versionKeys.heart(prismId)],
        }),
      );
      // Tagged here only when the versions were not known before the read.
      if (prism.keys && request.etag === undefined) {
        tagAnswer(reply, versions.etag(prism.keys, viewerCookies(request)));
      }
      return { hearted: hearted.value, heartsCount: prism.value.heartsCount };
    },
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
      return heartPrism(db, bus, request.params.prismId, participant);
    },
  );
};
