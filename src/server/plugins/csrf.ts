// Cross-site request forgery guard: writes must come from Prism's own origin as JSON. A route
// that must be reached from elsewhere (the e-mail one-click unsubscribe) says so with
// `config.crossSite`, and proves itself another way. A route that takes another body (a photo)
// names its types with `config.bodyTypes`: none of them is one a cross-site form can send.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { forbidden, HttpError } from "../http-error.ts";
import { sessionToken } from "./session.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export const csrfPlugin = fp(async (app: FastifyInstance, opts: { origin: string }) => {
  // A callback, not a promise: the reads that pass straight through are most requests.
  app.addHook("onRequest", (request, _reply, done) => {
    if (SAFE.has(request.method) || request.routeOptions.config?.crossSite) return done();
    const origin = request.headers.origin;
    const fetchSite = request.headers["sec-fetch-site"];
    // Browsers send Origin on writes. Without it, a request that carries a session must say it
    // comes from Prism's own pages; one without a session is a non-browser client's.
    if (
      origin !== undefined
        ? origin !== opts.origin
        : fetchSite === "cross-site" || (sessionToken(request) && fetchSite !== "same-origin")
    ) {
      return done(forbidden("Cross-site requests are not allowed"));
    }
    const hasBody =
      Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"];
    const type = request.headers["content-type"] ?? "";
    const other = request.routeOptions.config?.bodyTypes;
    if (hasBody && other && !other.types.test(type)) {
      return done(new HttpError(415, other.message));
    }
    if (hasBody && !other && !/^application\/json\b/i.test(type)) {
      return done(new HttpError(415, "Send the request body as application/json"));
    }
    done();
  });
});

declare module "fastify" {
  interface FastifyContextConfig {
    /** Writes to this route may come from anywhere, in any body type (it checks a token). */
    crossSite?: true;
    /**
     * The body types this route takes instead of JSON (never one a form can send: not
     * text/plain, form-urlencoded nor multipart), and what it answers to any other.
     */
    bodyTypes?: { types: RegExp; message: string };
    /** What the route answers (413) to a body over its limit, in place of the general 400. */
    bodyTooLarge?: string;
  }
}
