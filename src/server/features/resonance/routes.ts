// HTTP for resonance: a prism's map for its owner, the views beacon, and the owner's week.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../contract/paging.ts";
import {
  resonanceMessages,
  resonanceSchema,
  thisWeekSchema,
  viewsInputSchema,
} from "../../../contract/resonance.ts";
import { countViews } from "../../commands/resonance.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { addressKey, participantLimits } from "../../plugins/rate-limit.ts";
import { requireUser } from "../../plugins/session.ts";
import { hasVisitorId, participantOf } from "../../plugins/visitor.ts";
import { prismResonance, thisWeek } from "./service.ts";
import { isAutomated } from "./views.ts";

export const resonanceRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, config, secret, limitStore } = deps;
  const tags = ["resonance"];
  const as = writer(deps);
  // A page load sends one beacon: plenty for a reader going from page to page, few for a script.
  const viewLimits = participantLimits(limitStore, "views", 10, {
    browser: 120,
    member: 120,
    address: 600,
  });

  app.get(
    "/prisms/:id/resonance",
    {
      schema: {
        tags,
        summary:
          "How many responses cover each stretch of a prism, and its hearts and views by day over 30 days (owner and admins)",
        params: z.object({ id: idParam }),
        response: { 200: resonanceSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return prismResonance(db, requireUser(request), request.params.id);
    },
  );

  app.post(
    "/prisms/views",
    {
      schema: {
        tags,
        summary:
          "The prisms a page has just shown: each counts once a day per visitor, not for its owner or programs",
        body: viewsInputSchema,
        response: { 204: z.null(), ...errorResponses(400, 429) },
      },
      config: { rateLimit: { message: resonanceMessages.tooManyViews, limits: viewLimits } },
    },
    async (request, reply) => {
      if (!isAutomated(request.headers["user-agent"])) {
        // Only a member, or a browser the server gave an id (a page gives one), counts; a browser
        // without one is given one now, and counts from its next page on.
        const identified = Boolean(request.user) || hasVisitorId(request);
        const participant = participantOf(request, reply, config, secret);
        if (identified) {
          await countViews(as(participant), addressKey(request.ip), request.body.prismIds);
        }
      }
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/user/this-week",
    {
      schema: {
        tags,
        summary:
          "The signed-in member's views, hearts and responses this week against last, and each prism's most responded passage",
        response: { 200: thisWeekSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return thisWeek(db, requireUser(request));
    },
  );
};
