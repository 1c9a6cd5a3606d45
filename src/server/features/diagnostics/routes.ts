// HTTP for diagnostics (/api/db-check…) and the error-handling demo (/api/demo/…).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type DiagnosticResult,
  diagnosticMessages,
  diagnosticResultSchema,
  registrationTestSchema,
} from "../../../contract/diagnostics.ts";
import { testRegistration } from "../../commands/diagnostics.ts";
import { writer } from "../../commands/write.ts";
import { isDatabaseUnavailable } from "../../db/client.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses, HttpError, notFound } from "../../http-error.ts";
import { requireAdmin } from "../../plugins/session.ts";
import { checkDatabase, resetConnection } from "./service.ts";

/** A failed check answers 503, so that monitors and the page both see it failed. */
function answer(reply: FastifyReply, result: DiagnosticResult) {
  if (result.status === "error") reply.header("retry-after", "5");
  return reply.status(result.status === "ok" ? 200 : 503).send(result);
}

export const diagnosticsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { config, database } = deps;
  const as = writer(deps);
  const tags = ["diagnostics"];
  // Open while developing; in production only admins may probe the database.
  const guard = async (request: FastifyRequest) => {
    if (config.production) requireAdmin(request, "Only admins can run diagnostics");
  };
  const checkResponses = {
    200: diagnosticResultSchema,
    ...errorResponses(401, 403),
    503: diagnosticResultSchema,
  };

  app.get(
    "/db-check",
    {
      preHandler: guard,
      schema: { tags, summary: "Is the database reachable?", response: checkResponses },
    },
    async (_request, reply) => answer(reply, await checkDatabase(database)),
  );

  app.post(
    "/db-check/registration-flow",
    {
      preHandler: guard,
      schema: {
        tags,
        summary: "Register a test member inside a transaction that is rolled back",
        description:
          "Runs the real registration (validation, uniqueness, hashing, insert), then rolls it " +
          "back. Invalid input or a taken username or e-mail answers 200 with status error.",
        body: registrationTestSchema,
        response: { ...checkResponses, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      try {
        return reply.send(await testRegistration(as(null), request.body));
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        request.log.warn({ err: error }, "registration test: database unavailable");
        return answer(reply, {
          status: "error",
          message: diagnosticMessages.registrationFailed,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  );

  app.post(
    "/db-check/reset",
    {
      preHandler: guard,
      schema: {
        tags,
        summary: "Close the database connection and open a fresh one",
        description:
          "Deletes nothing. Queries and transactions under way finish on the old connection; " +
          "new ones use the fresh one. Then pings the database.",
        response: checkResponses,
      },
    },
    async (_request, reply) => answer(reply, await resetConnection(database)),
  );
};

/** The error-handling demo: one answer of each kind the web app's API client handles. */
export const demoRoutes: FastifyPluginAsyncZod<AppDeps> = async (app) => {
  const demoTags = ["demo"];
  app.get(
    "/demo/success",
    {
      schema: {
        tags: demoTags,
        summary: "Always succeeds",
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async () => ({ message: diagnosticMessages.demoSuccess }),
  );
  app.get(
    "/demo/not-found",
    {
      schema: { tags: demoTags, summary: "Always 404", response: errorResponses(404) },
    },
    async () => {
      throw notFound(diagnosticMessages.demoNotFound);
    },
  );
  app.get(
    "/demo/server-error",
    {
      schema: { tags: demoTags, summary: "Always 500", response: errorResponses(500) },
    },
    async () => {
      throw new HttpError(500, diagnosticMessages.demoServerError);
    },
  );
};
