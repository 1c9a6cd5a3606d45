// Cross-site request forgery guard: writes must come from Prism's own origin as JSON.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { forbidden, HttpError } from "../http-error.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export const csrfPlugin = fp(async (app: FastifyInstance, opts: { origin: string }) => {
  app.addHook("onRequest", async (request) => {
    if (SAFE.has(request.method)) return;
    const origin = request.headers.origin;
    // Browsers send Origin on every cross-site write; a request without it and without a
    // cross-site fetch marker comes from a non-browser client, which cookies cannot be forged for.
    if (
      origin !== undefined
        ? origin !== opts.origin
        : request.headers["sec-fetch-site"] === "cross-site"
    ) {
      throw forbidden("Cross-site requests are not allowed");
    }
    const hasBody =
      Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"];
    const type = request.headers["content-type"] ?? "";
    if (hasBody && !/^application\/json\b/i.test(type)) {
      throw new HttpError(415, "Send the request body as application/json");
    }
  });
});
