// A member's feeds and embeds: the same for everyone, tagged by the versions of the member's
// profile and prisms (and, for a response, of its prism's responses), so the conditional hook
// answers an unchanged one 304 from memory.
import {
  embedPageParams,
  embedPrismParams,
  embedResponseParams,
  feedParams,
} from "../../../contract/embeds.ts";
import { defineRead } from "../../cache/cached-read.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { atomFeed, embedCard, jsonFeed } from "./render.ts";
import { publishedPage, publishedPrism, publishedResponse } from "./service.ts";

/** What a member's feeds and embeds show: their profile and their prisms. */
const pageKeys = (username: string) => [
  versionKeys.profile(username),
  versionKeys.ownedPrisms(username),
];

const HTML = "text/html; charset=utf-8";

export function feedReads({ db, versions, config }: Pick<AppDeps, "db" | "versions" | "config">) {
  const origin = config.appOrigin;
  return {
    /** A member's Atom feed. */
    atom: defineRead({
      for: "everyone",
      params: feedParams,
      type: "application/atom+xml; charset=utf-8",
      etag: ({ username }) => versions.etag(pageKeys(username), "feed.atom"),
      read: async ({ username }) => ({
        value: atomFeed(await publishedPage(db, username), origin),
      }),
    }),

    /** A member's JSON Feed. */
    json: defineRead({
      for: "everyone",
      params: feedParams,
      type: "application/feed+json; charset=utf-8",
      etag: ({ username }) => versions.etag(pageKeys(username), "feed.json"),
      read: async ({ username }) => ({
        value: jsonFeed(await publishedPage(db, username), origin),
      }),
    }),

    /** The embed card of a member's page. */
    page: defineRead({
      for: "everyone",
      params: embedPageParams,
      type: HTML,
      etag: ({ username }) => versions.etag(pageKeys(username), "embed"),
      read: async ({ username }) => {
        const page = await publishedPage(db, username);
        return { value: embedCard({ kind: "page", ...page }, origin) };
      },
    }),

    /** The embed card of one prism. */
    prism: defineRead({
      for: "everyone",
      params: embedPrismParams,
      type: HTML,
      etag: ({ username }) => versions.etag(pageKeys(username), "embed"),
      read: async ({ username, prismId }) => {
        const found = await publishedPrism(db, username, prismId);
        return { value: embedCard({ kind: "prism", ...found }, origin) };
      },
    }),

    /** The embed card of one approved response, with its passage. */
    response: defineRead({
      for: "everyone",
      params: embedResponseParams,
      type: HTML,
      etag: ({ username, prismId }) =>
        versions.etag([...pageKeys(username), versionKeys.annotations(prismId)], "embed"),
      read: async ({ username, prismId, annotationId }) => {
        const found = await publishedResponse(db, username, prismId, annotationId);
        return { value: embedCard({ kind: "response", ...found }, origin) };
      },
    }),
  };
}
