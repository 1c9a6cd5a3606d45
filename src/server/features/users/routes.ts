// HTTP for public profiles.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { publicUserSchema } from "../../../contract/user.ts";
import { cachedRead } from "../../cache/cached-read.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { userReads } from "./reads.ts";

export const usersRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const reads = userReads(deps);

  app.get("/users/:username", {
    schema: {
      tags: ["users"],
      summary: "A member's public profile (conditional: ETag / If-None-Match)",
      params: reads.profile.params,
      response: { 200: publicUserSchema, ...errorResponses(404) },
    },
    ...cachedRead(reads.profile),
  });
};
