// HTTP for crawlers: robots.txt and sitemap.xml at the site's root. (A page's status comes from
// `createPageStatus` in ./service.ts, which the web plugin asks.)
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../deps.ts";
import { buildSitemap, robotsTxt } from "./service.ts";

export const seoRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header("cache-control", "public, max-age=3600")
      .type("text/plain; charset=utf-8")
      .send(robotsTxt(config.appOrigin)),
  );

  app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header("cache-control", "public, max-age=3600")
      .type("application/xml; charset=utf-8")
      .send(await buildSitemap(db, config.appOrigin)),
  );
};
