// HTTP for public profiles.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { publicUserSchema, usernameParam } from "../../../contract/user.ts";
import type { AppDeps } from "../../app.ts";
import { errorResponses, notFound } from "../../http-error.ts";
import { versionKeys } from "../../live/versions.ts";
import { presentPublicUser } from "./presenter.ts";
import { findActiveUser } from "./service.ts";

export const usersRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, versions }) => {
  app.get(
    "/users/:username",
    {
      schema: {
        tags: ["users"],
        summary: "A member's public profile (conditional: ETag / If-None-Match)",
        params: z.object({ username: usernameParam }),
        response: { 200: publicUserSchema, ...errorResponses(404) },
      },
      config: {
        etag: (request) =>
          versions.etag(versionKeys.profile((request.params as { username: string }).username)),
        sharedAnswer: true,
      },
    },
    async (request) => {
      const user = await findActiveUser(db, request.params.username);
      if (!user) throw notFound("User not found");
      return presentPublicUser(user);
    },
  );
};
