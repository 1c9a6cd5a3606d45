// What the server says about itself: that it lives, whether to send it traffic, and which
// services it has.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { siteServicesSchema } from "../../../contract/site.ts";
import type { AppDeps } from "../../deps.ts";
import type { Readiness } from "../../readiness.ts";

export const siteRoutes: FastifyPluginAsyncZod<AppDeps & { readiness: Readiness }> = async (
  app,
  { config, database, mailer, readiness },
) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness and database reachability",
        response: { 200: z.object({ status: z.literal("ok") }) },
      },
    },
    async () => {
      await database.ping();
      return { status: "ok" as const };
    },
  );
  app.get(
    "/ready",
    {
      schema: {
        tags: ["health"],
        summary:
          "Whether to send this process traffic: the database answers and is migrated, and " +
          "the event listener is connected (checked at most once a second), and it is not " +
          "shutting down",
        response: {
          200: z.object({ ready: z.literal(true) }),
          503: z.object({ ready: z.literal(false), message: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      const state = await readiness.current();
      reply.header("cache-control", "no-store");
      return state.ready ? state : reply.status(503).send(state);
    },
  );
  // What pages need to know to hide or explain what this server cannot do. It changes only
  // with a restart, and is the same for everyone.
  const services = { googleSignIn: config.google !== undefined, outgoingMail: mailer.canSend };
  app.get(
    "/site",
    {
      schema: {
        tags: ["site"],
        summary: "Which services this server has: Google sign-in, outgoing mail",
        response: { 200: siteServicesSchema },
      },
    },
    async (_request, reply) => reply.header("cache-control", "public, max-age=300").send(services),
  );
};
