// HTTP for annotations: respond to a passage, read what one may see, and decide on them.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { z } from "zod";
import {
  adminAnnotationStatusSchema,
  annotationCreateSchema,
  annotationDecisionSchema,
  annotationMessages,
  annotationSchema,
} from "../../../contract/annotations.ts";
import { errorBodySchema } from "../../../contract/errors.ts";
import type { PrismEvent } from "../../../contract/events.ts";
import { prismIdParam } from "../../../contract/prisms.ts";
import type { AppDeps } from "../../app.ts";
import { HttpError } from "../../http-error.ts";
import { VISITOR_COOKIE, visitorHash } from "../../plugins/visitor.ts";
import { presentAnnotation } from "./presenter.ts";
import {
  createAnnotation,
  decideAnnotation,
  getAnnotation,
  listAnnotations,
  setStatusAsAdmin,
  type Viewer,
} from "./service.ts";

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

export const annotationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, bus, config, secret } = deps;
  const tags = ["annotations"];
  const idParams = z.object({ id: prismIdParam });
  // Anonymous responses are limited per browser and per address; members are known and accountable.
  const perVisitor = new RateLimiterMemory({ points: 10, duration: 10 * 60 });
  const perAddress = new RateLimiterMemory({ points: 30, duration: 10 * 60 });

  /** The viewer, without handing a new visitor a cookie just for reading. */
  const viewerOf = (
    request: Parameters<typeof visitorHash>[0],
    reply: Parameters<typeof visitorHash>[1],
  ): Viewer => ({
    user: request.user,
    visitorHash: request.cookies[VISITOR_COOKIE]
      ? visitorHash(request, reply, config, secret)
      : null,
  });

  const publishDecision = (prismId: number, username: string, ownerId: number) =>
    bus.publish(
      { type: "annotation.changed", prismId, username },
      { type: "notifications.changed", userId: ownerId },
    );

  app.post(
    "/annotations",
    {
      schema: {
        tags,
        summary: "Respond to a passage of a prism (members and anonymous visitors)",
        body: annotationCreateSchema,
        response: { 201: annotationSchema, ...errors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      let actor: { user: NonNullable<typeof request.user> } | { visitorHash: string };
      if (request.user) {
        actor = { user: request.user };
      } else {
        const hash = visitorHash(request, reply, config, secret);
        try {
          await Promise.all([perVisitor.consume(hash), perAddress.consume(request.ip)]);
        } catch {
          throw new HttpError(429, annotationMessages.tooMany);
        }
        actor = { visitorHash: hash };
      }
      const created = await createAnnotation(db, request.body, actor);
      const events: PrismEvent[] = [
        { type: "annotation.changed", prismId: created.prism.id, username: created.ownerUsername },
      ];
      if (created.notifiedUserId !== null)
        events.push({ type: "notification.created", userId: created.notifiedUserId });
      await bus.publish(...events);
      const viewer: Viewer = {
        user: request.user,
        visitorHash: "visitorHash" in actor ? actor.visitorHash : null,
      };
      return reply.status(201).send(presentAnnotation(created.view, viewer));
    },
  );

  app.get(
    "/prisms/:prismId/annotations",
    {
      schema: {
        tags,
        summary: "A prism's annotations that this viewer may see, newest first",
        params: z.object({ prismId: prismIdParam }),
        response: { 200: z.array(annotationSchema), 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request, reply);
      const views = await listAnnotations(db, request.params.prismId, viewer);
      return views.map((view) => presentAnnotation(view, viewer));
    },
  );

  app.get(
    "/annotations/:id",
    {
      schema: {
        tags,
        summary: "One annotation, if this viewer may see it",
        params: idParams,
        response: { 200: annotationSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request, reply);
      return presentAnnotation(await getAnnotation(db, request.params.id, viewer), viewer);
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
        response: { 200: annotationSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { view, ownerUsername } = await decideAnnotation(
        db,
        request.user,
        request.params.id,
        request.body.status,
      );
      await publishDecision(view.row.prismId, ownerUsername, view.prismOwnerId);
      return presentAnnotation(view, viewerOf(request, reply));
    },
  );

  app.put(
    "/prisms/0/annotations/:id/status",
    {
      schema: {
        tags,
        summary: "Set any annotation's status (admins)",
        params: idParams,
        body: adminAnnotationStatusSchema,
        response: { 200: annotationSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { view, ownerUsername } = await setStatusAsAdmin(
        db,
        request.user,
        request.params.id,
        request.body.status,
      );
      await publishDecision(view.row.prismId, ownerUsername, view.prismOwnerId);
      return presentAnnotation(view, viewerOf(request, reply));
    },
  );
};
