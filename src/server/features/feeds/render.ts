// A member's page as others read it outside Prism: their feeds (Atom, and JSON Feed 1.1), the
// small card a site frames for an embed (HTML and CSS only: no script, it works as it arrives),
// and the oEmbed answer that frames it.
import { Feed, type Item } from "feed";
import type { Oembed } from "../../../contract/embeds.ts";
import { excerpt, previewOf } from "../../../contract/excerpt.ts";
import {
  embedPath,
  feedPaths,
  pagePath,
  prismLink,
  responseLink,
} from "../../../contract/feeds.ts";
import { brand, displayName, fullName, profileDescription } from "../../../contract/names.ts";
import type { PrismRow, UserRow } from "../../db/schema.ts";
import { escapeHtml } from "../../escape.ts";
import { sanitizeContent } from "../prisms/sanitize.ts";
import type { Embedded, Published } from "./service.ts";

/** How long a feed entry's summary is, in characters: a reader's list shows a few lines. */
const SUMMARY_LENGTH = 280;
/** How long an embedded prism's excerpt is, in characters: what its card has room for. */
const EXCERPT_LENGTH = 240;
/** How many prisms a page's card names, in the page's order: what its frame has room for. */
const PAGE_CARD_PRISMS = 5;
/** How much of a response's passage, text and reply its card shows, in characters. */
const RESPONSE_LENGTHS = { passage: 160, text: 320, reply: 200 } as const;

/** A feed's entries: newest first, as readers list them and as a follower looks for news. */
function newestFirst(prisms: PrismRow[]): PrismRow[] {
  return [...prisms].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.id - a.id);
}

/**
 * The feed of a member's page. Atom's titles and summaries are HTML (`type="html"`), JSON Feed's
 * plain text: `text` writes a plain text for the format.
 */
function feedOf({ owner, prisms }: Published, origin: string, text: (plain: string) => string) {
  const page = `${origin}${pagePath(owner.username)}`;
  const paths = feedPaths(owner.username);
  const author = { name: fullName(owner), link: page };
  const entries = newestFirst(prisms);
  const feed = new Feed({
    title: `${fullName(owner)} (@${owner.username}) on ${brand}`,
    description: profileDescription(owner, prisms[0]?.title ?? null, prisms.length),
    id: page,
    link: page,
    updated: entries[0]?.updatedAt ?? owner.createdAt,
    generator: brand,
    author,
    feedLinks: { atom: `${origin}${paths.atom}`, json: `${origin}${paths.json}` },
  });
  for (const prism of entries) {
    const link = `${origin}${prismLink(owner.username, prism.id)}`;
    const item: Item = {
      title: text(prism.title),
      id: link,
      link,
      date: prism.updatedAt,
      published: prism.createdAt,
      description: text(previewOf(prism.content, SUMMARY_LENGTH)),
      content: sanitizeContent(prism.content),
      author: [author],
    };
    feed.addItem(item);
  }
  return feed;
}

/** The member's Atom feed. */
export function atomFeed(published: Published, origin: string): string {
  return feedOf(published, origin, escapeHtml).atom1();
}

interface JsonFeedAuthor {
  name?: string;
  url?: string;
}

/**
 * The member's JSON Feed 1.1: the library writes version 1, whose one `author` version 1.1 names
 * as a list, `authors`.
 */
export function jsonFeed(published: Published, origin: string): string {
  const written = JSON.parse(feedOf(published, origin, (plain) => plain).json1()) as {
    author?: JsonFeedAuthor;
    items: { author?: JsonFeedAuthor }[];
  };
  const withAuthors = <T extends { author?: JsonFeedAuthor }>({ author, ...rest }: T) => ({
    ...rest,
    ...(author ? { authors: [author] } : {}),
  });
  const { items, ...top } = withAuthors(written);
  return JSON.stringify({
    ...top,
    version: "https://jsonfeed.org/version/1.1",
    language: "en",
    items: items.map(withAuthors),
  });
}

/** The size of each embed's frame; a consumer's `maxwidth` and `maxheight` only shrink it. */
const FRAME = {
  page: { width: 560, height: 320 },
  prism: { width: 560, height: 300 },
  response: { width: 560, height: 380 },
} as const;

const CARD_STYLE = `
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1917;background:#fff;overflow:auto}
main{display:flex;flex-direction:column;gap:.5rem;min-height:100%;padding:1rem 1.25rem;border:1px solid #d6d3d1;border-radius:12px}
h1{margin:0;font-size:1.2rem;line-height:1.3}
p,blockquote,ul{margin:0}
a{color:#6d28d9}
.by{color:#57534e;font-size:.9rem}
blockquote{border-left:3px solid #a78bfa;padding-left:.75rem;font-style:italic}
ul{padding-left:1.25rem}
footer{margin-top:auto;font-size:.9rem}
`;

/** A link out of the frame: readers go on reading on Prism, in a tab of their own. */
const link = (href: string, text: string) =>
  `<a href="${escapeHtml(href)}" target="_blank" rel="noopener">${escapeHtml(text)}</a>`;

/** The document of an embed card: its title, and its body. */
function cardDocument(title: string, body: string): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${CARD_STYLE}</style>`,
    "</head>",
    `<body><main>${body}</main></body>`,
    "</html>",
    "",
  ].join("\n");
}

const byline = (owner: UserRow) =>
  `<p class="by">by ${escapeHtml(fullName(owner))} (@${escapeHtml(owner.username)})</p>`;

/** The embed card of a member's page, a prism, or an approved response with its passage. */
export function embedCard(embedded: Embedded, origin: string): string {
  const { owner } = embedded;
  const page = `${origin}${pagePath(owner.username)}`;
  const footer = (href: string) => `<footer>${link(href, `Read on ${brand}`)}</footer>`;
  switch (embedded.kind) {
    case "page": {
      const titles = embedded.prisms
        .slice(0, PAGE_CARD_PRISMS)
        .map(
          (prism) =>
            `<li>${link(`${origin}${prismLink(owner.username, prism.id)}`, prism.title)}</li>`,
        )
        .join("");
      const list = titles
        ? `<ul>${titles}</ul>`
        : `<p>${escapeHtml(displayName(owner))} hasn't added any prisms yet, but just you wait.</p>`;
      return cardDocument(
        embedTitle(embedded),
        `<h1>${escapeHtml(fullName(owner))}</h1><p class="by">@${escapeHtml(owner.username)} on ${brand}</p>${list}${footer(page)}`,
      );
    }
    case "prism": {
      const { prism } = embedded;
      const href = `${origin}${prismLink(owner.username, prism.id)}`;
      return cardDocument(
        embedTitle(embedded),
        `<h1>${link(href, prism.title)}</h1>${byline(owner)}<p>${escapeHtml(previewOf(prism.content, EXCERPT_LENGTH))}</p>${footer(href)}`,
      );
    }
    case "response": {
      const { prism, response } = embedded;
      const href = `${origin}${responseLink(owner.username, response.id)}`;
      const reply = response.replyText
        ? `<p class="by">${escapeHtml(fullName(owner))} replied:</p><p>${escapeHtml(excerpt(response.replyText, RESPONSE_LENGTHS.reply))}</p>`
        : "";
      return cardDocument(
        embedTitle(embedded),
        [
          `<h1>${link(`${origin}${prismLink(owner.username, prism.id)}`, prism.title)}</h1>`,
          byline(owner),
          `<blockquote>${escapeHtml(excerpt(response.selectedText, RESPONSE_LENGTHS.passage))}</blockquote>`,
          `<p class="by">${escapeHtml(response.authorName ?? "Anonymous")} responded:</p>`,
          `<p>${escapeHtml(excerpt(response.annotationText, RESPONSE_LENGTHS.text))}</p>`,
          reply,
          footer(href),
        ].join(""),
      );
    }
  }
}

/** What an embed is called: in its frame's title, and in the oEmbed answer. */
function embedTitle(embedded: Embedded): string {
  const { owner } = embedded;
  switch (embedded.kind) {
    case "page":
      return `${fullName(owner)} (@${owner.username}) on ${brand}`;
    case "prism":
      return embedded.prism.title;
    case "response":
      return `A response to "${embedded.prism.title}"`;
  }
}

/** The embed's address on the site. */
function embedUrl(embedded: Embedded, origin: string): string {
  const { owner } = embedded;
  switch (embedded.kind) {
    case "page":
      return `${origin}${embedPath({ kind: "page", username: owner.username })}`;
    case "prism":
      return `${origin}${embedPath({ kind: "prism", username: owner.username, prismId: embedded.prism.id })}`;
    case "response":
      return `${origin}${embedPath({
        kind: "response",
        username: owner.username,
        prismId: embedded.prism.id,
        annotationId: embedded.response.id,
      })}`;
  }
}

/**
 * The oEmbed answer for an embed: a `rich` one framing its card, no larger than the consumer's
 * `maxwidth` and `maxheight`.
 */
export function oembedAnswer(
  embedded: Embedded,
  origin: string,
  bounds: { maxwidth?: number | undefined; maxheight?: number | undefined },
): Oembed {
  const frame = FRAME[embedded.kind];
  const width = Math.min(frame.width, bounds.maxwidth ?? frame.width);
  const height = Math.min(frame.height, bounds.maxheight ?? frame.height);
  const title = embedTitle(embedded);
  const html = `<iframe src="${escapeHtml(embedUrl(embedded, origin))}" width="${width}" height="${height}" title="${escapeHtml(title)}" style="border:0;max-width:100%" loading="lazy" sandbox="allow-popups allow-popups-to-escape-sandbox"></iframe>`;
  return {
    type: "rich",
    version: "1.0",
    title,
    author_name: fullName(embedded.owner),
    author_url: `${origin}${pagePath(embedded.owner.username)}`,
    provider_name: brand,
    provider_url: `${origin}/`,
    html,
    width,
    height,
  };
}
