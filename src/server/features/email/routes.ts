// HTTP for e-mail notifications: the one-click unsubscribe of RFC 8058. Mail clients POST it
// from outside Prism, without a session and with a form body (List-Unsubscribe=One-Click), so
// this one route is let through the cross-site write check; its token is what proves it.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { emailMessages, unsubscribeQuerySchema } from "../../../contract/email.ts";
import { messageBodySchema } from "../../../contract/password-reset.ts";
import { unsubscribe } from "../../commands/email.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";

export const emailRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const as = writer(deps);
  // What a mail client sends (its body says nothing the route needs).
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 1024 },
    (_request, _body, done) => done(null, undefined),
  );
  const perAddress = new Limit(deps.limitStore, "unsubscribe", 30, 10, by.address);

  app.post(
    "/email/unsubscribe",
    {
      schema: {
        tags: ["email"],
        summary:
          "Turn off the e-mail notifications of the member whose unsubscribe token this is (no session needed)",
        querystring: unsubscribeQuerySchema,
        body: z.unknown(),
        response: { 200: messageBodySchema, ...errorResponses(404, 429) },
      },
      config: {
        crossSite: true,
        rateLimit: { message: emailMessages.tooMany, limits: [perAddress] },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      await unsubscribe(as(null), request.query.token);
      return { message: emailMessages.unsubscribed };
    },
  );
};
