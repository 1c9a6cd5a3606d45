// HTTP for public profiles.
import { and, isNull, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../../contract/errors.ts";
import { publicUserSchema } from "../../../contract/user.ts";
import type { AppDeps } from "../../app.ts";
import { users } from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import { presentPublicUser } from "./presenter.ts";

export const usersRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    "/users/:username",
    {
      schema: {
        tags: ["users"],
        summary: "A member's public profile",
        params: z.object({ username: z.string().max(100) }),
        response: { 200: publicUserSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const [user] = await db
        .select()
        .from(users)
        .where(
          and(
            sql`lower(${users.username}) = lower(${request.params.username})`,
            isNull(users.deactivatedAt),
          ),
        )
        .limit(1);
      if (!user) throw notFound("User not found");
      return presentPublicUser(user);
    },
  );
};
