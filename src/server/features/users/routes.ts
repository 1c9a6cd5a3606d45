// HTTP for public profiles.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { publicUserSchema, usernameParam } from "../../../contract/user.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { sendAnswer } from "../../plugins/conditional.ts";
import { userReads } from "./reads.ts";

export const usersRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const reads = userReads(deps);

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
        etag: (request) => reads.profileEtag((request.params as { username: string }).username),
        sharedAnswer: true,
      },
    },
    async (request, reply) =>
      sendAnswer(request, reply, await reads.profile(request.params.username)),
  );
};
