// HTTP for "Download my data": the signed-in member's export, streamed as one JSON file.
import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { exportMessages } from "../../../contract/export.ts";
import { recordExport } from "../../commands/export.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { requireUser } from "../../plugins/session.ts";
import { memberExport } from "./service.ts";

export const exportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, config, limitStore } = deps;
  const as = writer(deps);
  // A download reads everything the member has: a few an hour is plenty.
  const perMember = new Limit(limitStore, "export", 5, 60, by.member);

  app.get(
    "/user/export",
    {
      schema: {
        tags: ["settings"],
        summary:
          "Download my data: account, prisms, annotations and notifications as one JSON file, with the annotations also as a W3C Web Annotation collection (audited, rate limited)",
        produces: ["application/json"],
        response: { 200: z.any(), ...errorResponses(401, 429) },
      },
      config: { rateLimit: { message: exportMessages.tooMany, limits: [perMember] } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await recordExport(as(user));
      return reply
        .type("application/json; charset=utf-8")
        .header("cache-control", "no-store")
        .header("content-disposition", `attachment; filename="prism-${user.username}.json"`)
        .send(Readable.from(memberExport(db, user, config.appOrigin)));
    },
  );
};
