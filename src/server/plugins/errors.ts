// Turns every failure into Prism's error shape, with the right status and no stack trace.
import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { limits } from "../../contract/limits.ts";
import { isDatabaseUnavailable } from "../db/client.ts";
import { HttpError } from "../http-error.ts";
import { RateLimited } from "./rate-limit.ts";

const kb = Math.round(limits.bodyBytes / 1024);

function validationErrors(
  issues: { instancePath: string; message?: string; keyword: string; params: unknown }[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.keyword === "unrecognized_keys") {
      const keys = (issue.params as { keys?: string[] }).keys ?? [];
      for (const key of keys) errors[key] ??= `Unknown field: ${key}`;
      continue;
    }
    const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || "body";
    errors[field] ??= issue.message ?? "Invalid value";
  }
  return errors;
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RateLimited) reply.header("retry-after", String(error.retryAfter));
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, errors: error.errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = validationErrors(error.validation);
      const first = Object.values(errors)[0] ?? "Invalid request";
      return reply.status(400).send({ message: first, errors });
    }
    switch (error.code) {
      case "FST_ERR_CTP_INVALID_JSON_BODY":
        return reply.status(400).send({ message: "The request body is not valid JSON" });
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return reply.status(400).send({ message: "The request body is empty" });
      case "FST_ERR_CTP_BODY_TOO_LARGE": {
        const tooLarge = request.routeOptions.config?.bodyTooLarge;
        if (tooLarge) return reply.status(413).send({ message: tooLarge });
        return reply
          .status(400)
          .send({ message: `The request body is too large (at most ${kb} KB)` });
      }
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return reply.status(415).send({ message: "Send the request body as application/json" });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      reply.header("retry-after", "5");
      return reply
        .status(503)
        .send({ message: "The service is temporarily unavailable. Please try again shortly." });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.status(500).send({ message: "Something went wrong on our side" });
    }
    return reply.status(status).send({ message: error.message });
  });
});
