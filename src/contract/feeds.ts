// Where a member's page is read from outside Prism: their feeds, the embeds of their page, a prism
// and one approved response, and the oEmbed answers that point to those embeds. Addresses only,
// for the server that answers them and the page whose head points to them (no schema library).

/** A member's page. */
export const pagePath = (username: string) => `/${encodeURIComponent(username)}`;

/** One prism on its owner's page, by id as the page's own deep links name it. */
export const prismLink = (username: string, prismId: number) =>
  `${pagePath(username)}?prism=${prismId}`;

/** One response on its prism's owner's page. */
export const responseLink = (username: string, annotationId: number) =>
  `${pagePath(username)}?annotation=${annotationId}`;

/** A member's feeds: Atom and JSON Feed 1.1. */
export const feedPaths = (username: string) => ({
  atom: `${pagePath(username)}/feed.atom`,
  json: `${pagePath(username)}/feed.json`,
});

/** The oEmbed answer for the page at `url` (a full address on the site). */
export const oembedPath = (url: string) => `/oembed?url=${encodeURIComponent(url)}&format=json`;

/** What an embed shows: a member's page, one prism, or one approved response on a prism. */
export type EmbedTarget =
  | { kind: "page"; username: string }
  | { kind: "prism"; username: string; prismId: number }
  | { kind: "response"; username: string; prismId: number; annotationId: number };

/** The small card a site frames for an embed. */
export function embedPath(target: EmbedTarget): string {
  const member = `/embed/${encodeURIComponent(target.username)}`;
  switch (target.kind) {
    case "page":
      return member;
    case "prism":
      return `${member}/${target.prismId}`;
    case "response":
      return `${member}/${target.prismId}/${target.annotationId}`;
  }
}
