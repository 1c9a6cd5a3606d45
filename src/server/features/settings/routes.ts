// HTTP for Profile Settings: update the profile, delete the account.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentUserSchema, profileUpdateSchema } from "../../../contract/user.ts";
import type { AppDeps } from "../../app.ts";
import { deleteAccount } from "../../commands/delete-account.ts";
import { errorResponses } from "../../http-error.ts";
import { clearSessionCookie, requireUser } from "../../plugins/session.ts";
import { presentCurrentUser } from "../users/presenter.ts";
import { disconnectGoogle, updateProfile } from "./service.ts";

export const settingsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config, bus }) => {
  const tags = ["settings"];

  app.put(
    "/user/profile",
    {
      schema: {
        tags,
        summary: "Update the signed-in member's profile",
        body: profileUpdateSchema,
        response: { 200: currentUserSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => {
      const user = await updateProfile(db, requireUser(request).id, request.body);
      await bus.publish({ type: "profile.changed", username: user.username });
      return presentCurrentUser(user);
    },
  );

  app.delete(
    "/user/google",
    {
      schema: {
        tags,
        summary: "Disconnect Google from the signed-in member (who must have a password)",
        response: { 200: currentUserSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => presentCurrentUser(await disconnectGoogle(db, requireUser(request))),
  );

  app.delete(
    "/user/account",
    {
      schema: {
        tags,
        summary: "Delete the signed-in member and everything that is theirs",
        response: { 204: z.null(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const { events } = await deleteAccount(db, requireUser(request).id);
      await bus.publish(...events);
      clearSessionCookie(reply, config);
      return reply.status(204).send(null);
    },
  );
};
