// HTTP for annotations: respond to a passage, read what one may see, and decide on them.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import {
  adminAnnotationStatusSchema,
  annotationCreatedSchema,
  annotationCreateSchema,
  annotationDecisionSchema,
  annotationReplyInputSchema,
  annotationSchema,
  bulkDecisionResultSchema,
  bulkDecisionSchema,
  flagInputSchema,
  flagSchema,
  responseStatusSchema,
  reviewPageSchema,
  reviewQuerySchema,
  statusTokenSchema,
} from "../../../contract/annotations.ts";
import { flagMessages } from "../../../contract/flag-messages.ts";
import { limits } from "../../../contract/limits.ts";
import { idParam } from "../../../contract/paging.ts";
import { cachedRead } from "../../cache/cached-read.ts";
import { answeredUnchanged } from "../../cache/conditional.ts";
import {
  decideMany,
  decideOnAnnotation,
  flagResponse,
  replyToAnnotation,
  respondToPassage,
  setAnnotationStatusAsAdmin,
  withdrawReply,
} from "../../commands/annotations.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses, notFound } from "../../http-error.ts";
import { by, Limit, participantLimits } from "../../plugins/rate-limit.ts";
import { requireAdmin, requireUser } from "../../plugins/session.ts";
import { participantOf } from "../../plugins/visitor.ts";
import {
  presentAnnotation,
  presentAnnotationCreated,
  presentFlag,
  presentResponseStatus,
  presentReviewPage,
} from "./presenter.ts";
import { annotationReads } from "./reads.ts";
import { getAnnotation, responseByStatusToken, reviewQueue } from "./service.ts";

const tags = ["annotations"];
const idParams = z.object({ id: idParam });

/**
 * What pages read of responses: a prism's list, one response, the owner's review queue, and a
 * status link's answer.
 */
export const annotationsReadRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, limitStore, versions } = deps;
  const reads = annotationReads(deps);
  // Status links: enough for an author to check back often, far too few to guess at tokens.
  const statusLinkLimits = [new Limit(limitStore, "status-links", 60, 10, by.address)];

  app.get("/prisms/:prismId/annotations", {
    schema: {
      tags,
      summary: "A prism's annotations that this viewer may see, newest first (conditional)",
      params: reads.list.params,
      response: { 200: z.array(annotationSchema), ...errorResponses(404) },
    },
    ...cachedRead(reads.list),
  });

  app.get(
    "/annotations/review",
    {
      schema: {
        tags,
        summary:
          "The signed-in owner's review queue: responses to their prisms in a status, oldest first, one page at a time",
        querystring: reviewQuerySchema,
        response: { 200: reviewPageSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const page = await reviewQueue(db, user.id, request.query);
      return presentReviewPage(page, request.asker.viewer);
    },
  );

  app.get(
    "/annotations/:id",
    {
      schema: {
        tags,
        summary: "One annotation, if this viewer may see it",
        params: idParams,
        response: { 200: annotationSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { viewer } = request.asker;
      return presentAnnotation(await getAnnotation(db, request.params.id, viewer), viewer);
    },
  );

  app.get(
    "/responses/:token",
    {
      schema: {
        tags,
        summary:
          "An anonymous response and what became of it, by the private link its author was given",
        params: z.object({ token: z.string() }),
        response: { 200: responseStatusSchema, ...errorResponses(404, 429) },
      },
      config: {
        rateLimit: { message: annotationMessages.statusTooMany, limits: statusLinkLimits },
      },
    },
    async (request, reply) => {
      // Whoever holds the link may read it, and no index may; guesses at others spend from the
      // limit, and a link that led to a response gives its point back, so that its page may ask
      // again and again whether anything changed (answered 304 when nothing did).
      reply.header("x-robots-tag", "noindex");
      const token = statusTokenSchema.safeParse(request.params.token);
      if (!token.success) throw notFound("Response not found");
      const status = presentResponseStatus(
        await responseByStatusToken(db, token.data, request.asker.viewer.user),
      );
      await Promise.all(statusLinkLimits.map((limit) => limit.refund(request)));
      if (answeredUnchanged(request, reply, versions.answerEtag(JSON.stringify(status), ""))) {
        return reply;
      }
      return status;
    },
  );
};

/**
 * Responding to a passage, and deciding on a response (its owner, or an admin) or on many at once
 * (the owner's review queue).
 */
export const annotationsWriteRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { config, secret, limitStore } = deps;
  const as = writer(deps);
  // Per anonymous browser, per member (known and accountable, so more), and per address.
  const responseLimits = participantLimits(limitStore, "responses", 10, {
    browser: 10,
    member: 30,
    address: 30,
  });

  app.post(
    "/annotations",
    {
      schema: {
        tags,
        summary:
          "Respond to a passage of a prism (members; anonymous visitors with a solved challenge from GET /api/challenge)",
        body: annotationCreateSchema,
        response: { 201: annotationCreatedSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: { message: annotationMessages.tooMany, limits: responseLimits } },
    },
    async (request, reply) => {
      const participant = participantOf(request, reply, config, secret);
      const { view, statusToken } = await respondToPassage(as(participant), request.body, secret);
      const viewer = {
        user: request.user,
        visitorHash: "visitorHash" in participant ? participant.visitorHash : null,
      };
      return reply.status(201).send(presentAnnotationCreated(view, viewer, statusToken));
    },
  );

  app.put(
    "/annotations/:id/status",
    {
      schema: {
        tags,
        summary: "Approve or reject a pending annotation (the prism's owner or an admin)",
        params: idParams,
        body: annotationDecisionSchema,
        response: { 200: annotationSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const view = await decideOnAnnotation(
        as(requireUser(request)),
        request.params.id,
        request.body.status,
      );
      return presentAnnotation(view, request.asker.viewer);
    },
  );

  app.put(
    "/prisms/0/annotations/:id/status",
    {
      schema: {
        tags,
        summary: "Set any annotation's status (admins; audited)",
        params: idParams,
        body: adminAnnotationStatusSchema,
        response: { 200: annotationSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const view = await setAnnotationStatusAsAdmin(
        as(requireAdmin(request)),
        request.params.id,
        request.body.status,
      );
      return presentAnnotation(view, request.asker.viewer);
    },
  );
};

/** The owner's review queue decided in bulk: up to 100 responses at once, all or none. */
export const annotationsBulkRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const as = writer(deps);
  const { limitStore } = deps;
  app.post(
    "/annotations/bulk",
    {
      schema: {
        tags,
        summary:
          "Decide on up to 100 responses to one's own prisms at once, all or none (audited); answers how many changed",
        body: bulkDecisionSchema,
        response: {
          200: bulkDecisionResultSchema,
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
      config: {
        rateLimit: {
          message: annotationMessages.reviewTooMany,
          limits: [
            new Limit(limitStore, "review-writes", limits.reviewWritesPerMinute, 1, by.member),
          ],
        },
      },
    },
    async (request) => {
      const { ids, action } = request.body;
      return { changed: await decideMany(as(requireUser(request)), ids, action) };
    },
  );
};

/** Readers flag published responses: once per person, within a budget per browser, member and address. */
export const annotationFlagRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { config, secret, limitStore } = deps;
  const as = writer(deps);
  // Flags: a few an hour per browser and member; an address shared by many browsers gets more.
  const flagLimits = participantLimits(limitStore, "flags", 60, {
    browser: 20,
    member: 30,
    address: 60,
  });
  app.post(
    "/annotations/:id/flag",
    {
      schema: {
        tags,
        summary:
          "Flag a published response with a reason (anyone who may see it, once per person: 201 the first time, 200 after, the reason and note replaced)",
        params: idParams,
        body: flagInputSchema,
        response: {
          200: flagSchema,
          201: flagSchema,
          ...errorResponses(400, 403, 404, 409, 429),
        },
      },
      config: { rateLimit: { message: flagMessages.flagsTooMany, limits: flagLimits } },
    },
    async (request, reply) => {
      const participant = participantOf(request, reply, config, secret);
      const { flag, created } = await flagResponse(
        as(participant),
        request.params.id,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(presentFlag(flag));
    },
  );
};

/** The owner's reply to a response: written, rewritten or taken back. */
export const annotationRepliesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { limitStore } = deps;
  const as = writer(deps);
  // Replies spend from one budget per member.
  const replyWrites = {
    rateLimit: {
      message: annotationMessages.repliesTooMany,
      limits: [new Limit(limitStore, "reply-writes", limits.replyWritesPerMinute, 1, by.member)],
    },
  };

  app.put(
    "/annotations/:id/reply",
    {
      schema: {
        tags,
        summary:
          "Write or rewrite the owner's reply to a response (the prism's owner; approves a pending one)",
        params: idParams,
        body: annotationReplyInputSchema,
        response: { 200: annotationSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: replyWrites,
    },
    async (request) => {
      const view = await replyToAnnotation(
        as(requireUser(request)),
        request.params.id,
        request.body.text,
      );
      return presentAnnotation(view, request.asker.viewer);
    },
  );

  app.delete(
    "/annotations/:id/reply",
    {
      schema: {
        tags,
        summary: "Take back the owner's reply to a response (the prism's owner)",
        params: idParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404, 429) },
      },
      config: replyWrites,
    },
    async (request, reply) => {
      await withdrawReply(as(requireUser(request)), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
