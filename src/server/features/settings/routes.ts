// HTTP for Profile Settings: update the profile, delete the account.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../../contract/errors.ts";
import { currentUserSchema, profileUpdateSchema } from "../../../contract/user.ts";
import type { AppDeps } from "../../app.ts";
import { clearSessionCookie, requireUser } from "../../plugins/session.ts";
import { presentCurrentUser } from "../users/presenter.ts";
import { deleteAccount, updateProfile } from "./service.ts";

export const settingsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config, bus }) => {
  const tags = ["settings"];

  app.put(
    "/user/profile",
    {
      schema: {
        tags,
        summary: "Update the signed-in member's profile",
        body: profileUpdateSchema,
        response: {
          200: currentUserSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return presentCurrentUser(await updateProfile(db, user.id, request.body));
    },
  );

  app.delete(
    "/user/account",
    {
      schema: {
        tags,
        summary: "Delete the signed-in member and everything that is theirs",
        response: { 204: z.null(), 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const deletion = await deleteAccount(db, user.id);
      await bus.publish(
        { type: "prisms.changed", username: deletion.username },
        ...deletion.touchedPrisms.flatMap((prism) => [
          { type: "heart.changed" as const, ...prism },
          { type: "annotation.changed" as const, prismId: prism.prismId, username: prism.username },
        ]),
        ...deletion.notifiedUserIds.map((userId) => ({
          type: "notifications.changed" as const,
          userId,
        })),
      );
      clearSessionCookie(reply, config);
      return reply.status(204).send(null);
    },
  );
};
