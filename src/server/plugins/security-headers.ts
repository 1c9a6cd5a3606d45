// Security headers on every answer: those helmet sets, found once at start-up and set as they are
// (Fastify's helmet plugin makes a middleware per request, which parsed the policy again each
// time: a fifth of a cached read's CPU; helmet's own middleware still ran a chain of eleven per
// request). The API's answers are data, never a document a browser renders: they carry the set
// OWASP's REST security sheet asks of an API (a policy that allows nothing, not to be framed, no
// sniffing, no referrer, same-origin reads, HSTS over https), not a page's eleven, which every
// client then parsed on every answer. The API docs (/api/docs) are pages. Embed cards (/embed/…)
// are pages any site may frame.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";

export const securityHeadersPlugin = fp(async (app: FastifyInstance, opts: { https: boolean }) => {
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Google's picture of a member who signed in with Google and chose no photo of their own.
          imgSrc: ["'self'", "data:", "https://*.googleusercontent.com"],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      // Browsers heed HSTS only over https, and it would pin a plain-http origin's name to https.
      strictTransportSecurity: opts.https,
    }),
  );
  const apiHeaders: [string, string][] = [
    ["content-security-policy", "default-src 'none'; frame-ancestors 'none'"],
    ...headers.filter(([name]) => API_KEEPS.has(name)),
  ];
  const embedHeaders: [string, string][] = [
    ["content-security-policy", EMBED_POLICY],
    ["cross-origin-resource-policy", "cross-origin"],
    ...headers.filter(([name]) => !EMBED_REPLACES.has(name)),
  ];
  // A callback, not a promise: every answer passes through it (see app.ts). They join the
  // reply's own headers, not the raw response's: Node then writes all of them in one pass, where
  // a header set on the raw response made it copy every other one over and check it again.
  // Set as the request comes, so that an answer from memory, sent past the onSend hooks, has them.
  app.addHook("onRequest", (request, reply, done) => {
    const { url } = request;
    const set =
      url.startsWith("/api/") && !url.startsWith("/api/docs")
        ? apiHeaders
        : url.startsWith("/embed/") && !request.is404
          ? embedHeaders
          : headers;
    for (const [name, value] of set) reply.header(name, value);
    done();
  });
});

/**
 * An embed card's own policy (the routes under /embed/): any site may frame it, where the rest of
 * Prism may be framed by none, and it loads nothing but its inline style.
 */
const EMBED_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *";

/** What a page's headers an embed card has its own of, or goes without (it may be framed). */
const EMBED_REPLACES = new Set([
  "content-security-policy",
  "cross-origin-resource-policy",
  "x-frame-options",
]);

/** What a page's headers an API answer keeps as they are (its content policy is its own). */
const API_KEEPS = new Set([
  "cross-origin-resource-policy",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
]);

/**
 * The headers a helmet middleware sets. They depend on its options alone, never on the request,
 * so they are read once from a response that records them.
 */
function headersSetBy(middleware: ReturnType<typeof helmet>): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name.toLowerCase(), value]),
    // Helmet removes X-Powered-By, which neither Node nor Fastify sets.
    removeHeader: () => {},
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}
