// HTTP for reading a member's page outside Prism, at the site's root: their feeds
// (/{username}/feed.atom, /{username}/feed.json), the embed cards other sites frame (/embed/…),
// and /oembed, which tells a site how to frame one. Feeds and cards are answered conditionally as
// the API's reads are; errors come in the API's error shape. Embed cards' own headers (any site
// may frame them) are set with every page's, in plugins/security-headers.ts.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { embedMessages, oembedQuery, oembedSchema } from "../../../contract/embeds.ts";
import { cachedRead } from "../../cache/cached-read.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses, HttpError } from "../../http-error.ts";
import { feedReads } from "./reads.ts";
import { oembedAnswer } from "./render.ts";
import { embeddedByUrl } from "./service.ts";

export const feedsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const reads = feedReads(deps);
  const feeds = ["feeds"];
  const embeds = ["embeds"];

  app.get("/:username/feed.atom", {
    schema: {
      tags: feeds,
      summary: "A member's prisms as an Atom feed, newest first (conditional: ETag)",
      params: reads.atom.params,
    },
    ...cachedRead(reads.atom),
  });

  app.get("/:username/feed.json", {
    schema: {
      tags: feeds,
      summary: "A member's prisms as a JSON Feed 1.1, newest first (conditional: ETag)",
      params: reads.json.params,
    },
    ...cachedRead(reads.json),
  });

  app.get("/embed/:username", {
    schema: {
      tags: embeds,
      summary: "The embed card of a member's page, for any site to frame (conditional: ETag)",
      params: reads.page.params,
    },
    ...cachedRead(reads.page),
  });

  app.get("/embed/:username/:prismId", {
    schema: {
      tags: embeds,
      summary: "The embed card of one prism, for any site to frame (conditional: ETag)",
      params: reads.prism.params,
    },
    ...cachedRead(reads.prism),
  });

  app.get("/embed/:username/:prismId/:annotationId", {
    schema: {
      tags: embeds,
      summary: "The embed card of one approved response, with its passage (conditional: ETag)",
      params: reads.response.params,
    },
    ...cachedRead(reads.response),
  });

  app.get(
    "/oembed",
    {
      schema: {
        tags: embeds,
        summary: "oEmbed (JSON) for a member's page, a prism's or an approved response's link",
        querystring: oembedQuery,
        response: { 200: oembedSchema, ...errorResponses(400, 404, 501) },
      },
    },
    async (request) => {
      const { url, format, maxwidth, maxheight } = request.query;
      if (format === "xml") throw new HttpError(501, embedMessages.jsonOnly);
      const embedded = await embeddedByUrl(deps.db, deps.config.appOrigin, url);
      return oembedAnswer(embedded, deps.config.appOrigin, { maxwidth, maxheight });
    },
  );
};
