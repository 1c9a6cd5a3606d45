// HTTP for the explore page: members with their first prism, and popular prisms. Public.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { exploreExcerpt, previewOf } from "../../../contract/excerpt.ts";
import { explorePrismSchema, exploreUserSchema } from "../../../contract/explore.ts";
import { pageQuerySchema } from "../../../contract/paging.ts";
import type { AppDeps } from "../../app.ts";
import { errorResponses } from "../../http-error.ts";
import { versionKeys } from "../../live/versions.ts";
import { presentExploreMember } from "../users/presenter.ts";
import { listExplorePrisms, listExploreUsers } from "./service.ts";

/**
 * Members' activity (a sign-in, a visit) reorders the members list without an event: an answer to
 * it is kept at most this long. Prisms and profiles move both lists' versions at once, hearts the
 * prisms list's only (the members list shows no counts).
 */
const ACTIVITY_WINDOW_MS = 10_000;

export const exploreRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, versions }) => {
  const tags = ["explore"];

  app.get(
    "/explore/users",
    {
      schema: {
        tags,
        summary:
          "Members with at least one prism and their first prism (title and a plain-text excerpt), most recently active first",
        querystring: pageQuerySchema,
        response: { 200: z.array(exploreUserSchema), ...errorResponses(400) },
      },
      config: {
        etag: () =>
          versions.etag(
            versionKeys.exploreMembers(),
            `activity ${Math.floor(Date.now() / ACTIVITY_WINDOW_MS)}`,
          ),
        sharedAnswer: true,
      },
    },
    async (request) =>
      (await listExploreUsers(db, request.query)).map(({ user, firstPrism }) => ({
        user: presentExploreMember(user),
        firstPrism: {
          title: firstPrism.title,
          content: previewOf(firstPrism.content, exploreExcerpt.people),
        },
      })),
  );

  app.get(
    "/explore/prisms",
    {
      schema: {
        tags,
        summary:
          "Prisms (title and a plain-text excerpt) with their authors, most hearts first, then newest",
        querystring: pageQuerySchema,
        response: { 200: z.array(explorePrismSchema), ...errorResponses(400) },
      },
      config: { etag: () => versions.etag(versionKeys.explorePrisms()), sharedAnswer: true },
    },
    async (request) =>
      (await listExplorePrisms(db, request.query)).map(({ user, prism }) => ({
        user: presentExploreMember(user),
        prism: {
          id: prism.id,
          title: prism.title,
          content: previewOf(prism.content, exploreExcerpt.prisms),
          heartsCount: prism.heartsCount,
        },
      })),
  );
};
