// HTTP for the person check: the challenge an anonymous responder's browser solves.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import { challengeSchema } from "../../../contract/person-check.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { issueChallenge } from "./service.ts";

export const personCheckRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { secret, limitStore } = deps;
  // A dialog asks for one when it opens and when one expires: twice the responses an address
  // may send, and no more, since each costs the server a derivation.
  const perAddress = new Limit(limitStore, "challenges", 60, 10, by.address);

  app.get(
    "/challenge",
    {
      schema: {
        tags: ["annotations"],
        summary:
          "A proof-of-work challenge (ALTCHA) for responding without an account; never cached",
        response: { 200: challengeSchema, ...errorResponses(429) },
      },
      config: { rateLimit: { message: annotationMessages.tooMany, limits: [perAddress] } },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return issueChallenge(secret);
    },
  );
};
