// A member's feeds and embeds: the same for everyone, tagged by the versions of the member's
// profile and prisms (and, for a response, of its prism's responses), so the conditional hook
// answers an unchanged one 304 from memory; the text written for them is kept while those
// versions stand, so a reader that asks without a tag is answered without a query either.
import {
  embedPageParams,
  embedPrismParams,
  embedResponseParams,
  feedParams,
} from "../../../contract/embeds.ts";
import { defineRead } from "../../cache/cached-read.ts";
import { Memo } from "../../cache/memo.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { atomFeed, embedCard, jsonFeed } from "./render.ts";
import { publishedPage, publishedPrism, publishedResponse } from "./service.ts";

/** What a member's feeds and embeds show: their profile and their public prisms. */
const pageKeys = (username: string) => [
  versionKeys.profile(username),
  versionKeys.publicPrisms(username),
];

/** What a response's card shows: the member's page, and the responses to its prism. */
const responseKeys = (username: string, prismId: number) => [
  ...pageKeys(username),
  versionKeys.annotations(prismId),
];

const HTML = "text/html; charset=utf-8";

/**
 * The feeds and cards kept, in characters: the longest feed (50 prisms of 50 KB) is 2.5 MB, an
 * ordinary one a few kilobytes, a card one.
 */
const KEPT_MAX_CHARS = 16 * 1024 * 1024;

export function feedReads({
  db,
  bus,
  versions,
  config,
}: Pick<AppDeps, "db" | "bus" | "versions" | "config">) {
  const origin = config.appOrigin;
  const written = new Memo<string, string>(versions, bus, {
    name: "feeds",
    maxSize: KEPT_MAX_CHARS,
    sizeOf: (text) => text.length,
  });
  /** The text written for `id` by `write`, kept while the versions of `keys` stand. */
  const kept = async (id: string, keys: readonly string[], write: () => Promise<string>) => {
    const { value } = await written.get(id.toLowerCase(), async () => ({
      value: await write(),
      keys,
    }));
    return { value };
  };
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
      read: ({ username }) =>
        kept(`page ${username}`, pageKeys(username), async () =>
          embedCard({ kind: "page", ...(await publishedPage(db, username)) }, origin),
        ),
    }),

    /** The embed card of one prism. */
    prism: defineRead({
      for: "everyone",
      params: embedPrismParams,
      type: HTML,
      etag: ({ username }) => versions.etag(pageKeys(username), "embed"),
      read: ({ username, prismId }) =>
        kept(`prism ${username} ${prismId}`, pageKeys(username), async () =>
          embedCard({ kind: "prism", ...(await publishedPrism(db, username, prismId)) }, origin),
        ),
    }),

    /** The embed card of one approved response, with its passage. */
    response: defineRead({
      for: "everyone",
      params: embedResponseParams,
      type: HTML,
      etag: ({ username, prismId }) => versions.etag(responseKeys(username, prismId), "embed"),
      read: ({ username, prismId, annotationId }) =>
        kept(
          `response ${username} ${prismId} ${annotationId}`,
          responseKeys(username, prismId),
          async () =>
            embedCard(
              {
                kind: "response",
                ...(await publishedResponse(db, username, prismId, annotationId)),
              },
              origin,
            ),
        ),
    }),
  };
}
