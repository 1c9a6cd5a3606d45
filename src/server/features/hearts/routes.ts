// HTTP for hearts: the current visitor's heart on a prism, and the toggle.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../../contract/errors.ts";
import { heartStatusSchema, prismIdParam } from "../../../contract/prisms.ts";
import type { AppDeps } from "../../app.ts";
import { versionKeys } from "../../events/versions.ts";
import { VISITOR_COOKIE, visitorHash } from "../../plugins/visitor.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { type HeartActor, heartStatus, toggleHeart } from "./service.ts";

export const heartsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, bus, versions, config, secret } = deps;
  const params = z.object({ prismId: prismIdParam });
  const tags = ["hearts"];

  const actorOf = (
    request: Parameters<typeof visitorHash>[0],
    reply: Parameters<typeof visitorHash>[1],
  ): HeartActor =>
    request.user
      ? { user: request.user }
      : { visitorHash: visitorHash(request, reply, config, secret) };

  app.get(
    "/prisms/:prismId/heart",
    {
      schema: {
        tags,
        summary: "Whether this visitor hearted the prism, and its count (conditional)",
        params,
        response: { 200: heartStatusSchema, 404: errorBodySchema },
      },
      config: {
        etag: (request) =>
          versions.etag(
            versionKeys.heart(Number((request.params as { prismId: string }).prismId)),
            `${request.cookies[SESSION_COOKIE] ?? ""}|${request.cookies[VISITOR_COOKIE] ?? ""}`,
          ),
      },
    },
    async (request, reply) => heartStatus(db, request.params.prismId, actorOf(request, reply)),
  );

  app.post(
    "/prisms/:prismId/heart",
    {
      schema: {
        tags,
        summary: "Heart or un-heart the prism as this visitor",
        params,
        response: { 200: heartStatusSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const result = await toggleHeart(db, request.params.prismId, actorOf(request, reply));
      await bus.publish(
        {
          type: "heart.changed",
          prismId: request.params.prismId,
          heartsCount: result.heartsCount,
          username: result.ownerUsername,
        },
        ...(result.notified
          ? [{ type: "notification.created" as const, userId: result.ownerId }]
          : []),
      );
      return { hearted: result.hearted, heartsCount: result.heartsCount };
    },
  );
};
