// HTTP for the explore page: members with their first prism, and popular prisms. Public.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { explorePrismSchema, exploreUserSchema } from "../../../contract/explore.ts";
import { pageQuerySchema } from "../../../contract/paging.ts";
import type { AppDeps } from "../../app.ts";
import { errorResponses } from "../../http-error.ts";
import { presentPublicUser } from "../users/presenter.ts";
import { listExplorePrisms, listExploreUsers } from "./service.ts";

export const exploreRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const tags = ["explore"];

  app.get(
    "/explore/users",
    {
      schema: {
        tags,
        summary:
          "Members with at least one prism and their first prism, most recently active first",
        querystring: pageQuerySchema,
        response: { 200: z.array(exploreUserSchema), ...errorResponses(400) },
      },
    },
    async (request) =>
      (await listExploreUsers(db, request.query)).map(({ user, firstPrism }) => ({
        user: presentPublicUser(user),
        firstPrism: { title: firstPrism.title, content: firstPrism.content },
      })),
  );

  app.get(
    "/explore/prisms",
    {
      schema: {
        tags,
        summary: "Prisms with their authors, most hearts first, then newest",
        querystring: pageQuerySchema,
        response: { 200: z.array(explorePrismSchema), ...errorResponses(400) },
      },
    },
    async (request) =>
      (await listExplorePrisms(db, request.query)).map(({ user, prism }) => ({
        user: presentPublicUser(user),
        prism: {
          id: prism.id,
          title: prism.title,
          content: prism.content,
          heartsCount: prism.heartsCount,
        },
      })),
  );
};
