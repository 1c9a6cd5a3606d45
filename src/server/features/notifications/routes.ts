// HTTP for notifications: the recipient's list and unread count, and their reads and deletes.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  notificationCountSchema,
  notificationMessages,
  notificationSchema,
} from "../../../contract/notifications.ts";
import { idParam, pageQuerySchema } from "../../../contract/paging.ts";
import { cachedRead } from "../../cache/cached-read.ts";
import {
  deleteNotification,
  markAllNotificationsRead,
  markNotificationRead,
} from "../../commands/notifications.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { requireUser } from "../../plugins/session.ts";
import { presentNotification } from "./presenter.ts";
import { notificationReads } from "./reads.ts";
import { listNotifications } from "./service.ts";

const errors = errorResponses(400, 401, 404, 429);

export const notificationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, limitStore } = deps;
  const as = writer(deps);
  const tags = ["notifications"];
  const idParams = z.object({ id: idParam });
  const reads = notificationReads(deps);
  // Reading the list and changing it spend from one allowance per member; the unread count,
  // which every page polls and answers from memory, does not.
  const budget = {
    rateLimit: {
      message: notificationMessages.tooMany,
      limits: [new Limit(limitStore, "notifications", 120, 1, by.member)],
    },
  };

  // Every call is the signed-in member's own: authenticate before validating anything.
  app.addHook("onRequest", async (request) => {
    requireUser(request);
  });

  app.get(
    "/notifications",
    {
      schema: {
        tags,
        summary: "The signed-in member's notifications, newest first, one page at a time",
        querystring: pageQuerySchema,
        response: { 200: z.array(notificationSchema), ...errorResponses(400, 401, 429) },
      },
      config: budget,
    },
    async (request) => {
      const user = requireUser(request);
      return (await listNotifications(db, user, request.query)).map(presentNotification);
    },
  );

  app.get("/notifications/unread-count", {
    schema: {
      tags,
      summary: "How many of the signed-in member's notifications are unread (conditional)",
      response: { 200: notificationCountSchema, ...errorResponses(401) },
    },
    ...cachedRead(reads.unreadCount),
  });

  app.post(
    "/notifications/read-all",
    {
      schema: {
        tags,
        summary: "Mark all of the signed-in member's notifications read; answers how many changed",
        response: { 200: notificationCountSchema, ...errors },
      },
      config: budget,
    },
    async (request) => ({ count: await markAllNotificationsRead(as(requireUser(request))) }),
  );

  app.post(
    "/notifications/:id/read",
    {
      schema: {
        tags,
        summary: "Mark one notification read (recipient only; anyone else's answers 404)",
        params: idParams,
        response: { 200: notificationSchema, ...errors },
      },
      config: budget,
    },
    async (request) =>
      presentNotification(await markNotificationRead(as(requireUser(request)), request.params.id)),
  );

  app.delete(
    "/notifications/:id",
    {
      schema: {
        tags,
        summary: "Delete one notification (recipient only; anyone else's answers 404)",
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
      config: budget,
    },
    async (request, reply) => {
      await deleteNotification(as(requireUser(request)), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
