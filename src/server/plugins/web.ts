// Serves the built web app: hashed assets with long caching, every page path → index.html.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { notFound } from "../http-error.ts";

export const webPlugin = fp(async (app: FastifyInstance, opts: { root: string }) => {
  const indexPath = join(opts.root, "index.html");
  const built = existsSync(indexPath);
  if (built) {
    await app.register(fastifyStatic, {
      root: opts.root,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        if (path.includes("/assets/")) {
          res.header("cache-control", "public, max-age=31536000, immutable");
        }
      },
    });
  }
  const indexHtml = built ? readFileSync(indexPath, "utf8") : null;

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const isPage =
      (request.method === "GET" || request.method === "HEAD") &&
      !path.startsWith("/api/") &&
      path !== "/api" &&
      !/\.[a-z0-9]+$/i.test(path);
    if (!isPage || !indexHtml) throw notFound(`No route for ${request.method} ${path}`);
    return reply
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(indexHtml);
  });
});
