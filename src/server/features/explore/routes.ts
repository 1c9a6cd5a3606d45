// HTTP for the explore page: members with their first prism, and popular prisms. Public.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { explorePrismSchema, exploreUserSchema } from "../../../contract/explore.ts";
import { cachedRead } from "../../cache/cached-read.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { exploreReads } from "./reads.ts";

export const exploreRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const tags = ["explore"];
  const reads = exploreReads(deps);

  app.get("/explore/users", {
    schema: {
      tags,
      summary:
        "Members with at least one prism and their first prism (title and a plain-text excerpt), most recently active first",
      querystring: reads.members.querystring,
      response: { 200: z.array(exploreUserSchema), ...errorResponses(400) },
    },
    ...cachedRead(reads.members),
  });

  app.get("/explore/prisms", {
    schema: {
      tags,
      summary:
        "Prisms (title and a plain-text excerpt) with their authors, most hearts first, then newest",
      querystring: reads.prisms.querystring,
      response: { 200: z.array(explorePrismSchema), ...errorResponses(400) },
    },
    ...cachedRead(reads.prisms),
  });
};
