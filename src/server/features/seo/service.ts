// What crawlers and link previews read: each page's head (title, description, robots, canonical,
// Open Graph, Twitter), robots.txt and the sitemap. The web plugin writes the head into index.html.
import { asc, desc, eq, isNull, max, sql } from "drizzle-orm";
import { isReservedUsername } from "../../../contract/limits.ts";
import {
  brand,
  type Person,
  profileDescription,
  profilePageTitle,
  shareTitle,
} from "../../../contract/names.ts";
import type { Config } from "../../config.ts";
import type { Executor } from "../../db/client.ts";
import { prisms, users } from "../../db/schema.ts";
import { escapeXml } from "../../escape.ts";
import type { PageHead, RenderedHead, RenderHead } from "../../plugins/web.ts";
import { findActiveUser } from "../users/service.ts";

const defaultTitle = "Prism: say who you are and how you work";
const defaultDescription =
  "Prism is where people say who they are and how they work, and are answered thoughtfully.";
const socialImagePath = "/social-default.png";
const socialImageSize = { width: 1200, height: 630 };
/** A sitemap holds at most this many URLs (sitemaps.org). */
const sitemapMaxUrls = 50_000;

const indexable = "index, follow";
/** First path segments whose pages are private: not indexed, not followed. */
const privateSegments = new Set(["catalyst"]);

interface ProfileFacts extends Person {
  profileImageUrl: string | null;
  /** Title of the member's first prism (lowest index), if any. */
  firstPrismTitle: string | null;
  prismCount: number;
}

function socialTags(input: {
  type: "website" | "profile";
  title: string;
  description: string;
  url?: string;
  image: string;
  defaultImage: boolean;
}): NonNullable<PageHead["meta"]> {
  return [
    { property: "og:type", content: input.type },
    { property: "og:site_name", content: brand },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    ...(input.url ? [{ property: "og:url", content: input.url }] : []),
    { property: "og:image", content: input.image },
    ...(input.defaultImage
      ? [
          { property: "og:image:width", content: String(socialImageSize.width) },
          { property: "og:image:height", content: String(socialImageSize.height) },
          { property: "og:image:alt", content: brand },
        ]
      : []),
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: input.description },
    { name: "twitter:image", content: input.image },
  ];
}

function profileHead(origin: string, facts: ProfileFacts): PageHead {
  const canonical = `${origin}/${encodeURIComponent(facts.username)}`;
  const description = profileDescription(facts, facts.firstPrismTitle, facts.prismCount);
  // The member's own picture when there is one (Google accounts); the default image otherwise.
  const picture = facts.profileImageUrl?.startsWith("https://") ? facts.profileImageUrl : null;
  return {
    title: profilePageTitle(facts),
    description,
    robots: indexable,
    canonical,
    meta: [
      ...socialTags({
        type: "profile",
        title: shareTitle(facts),
        description,
        url: canonical,
        image: picture ?? `${origin}${socialImagePath}`,
        defaultImage: !picture,
      }),
      { property: "profile:username", content: facts.username },
    ],
  };
}

/**
 * The head of the app's other pages. `path` is the page's path (already normalised); without it
 * the page has no canonical address (a 404).
 */
function defaultHead(origin: string, options: { path?: string; robots?: string } = {}) {
  const canonical = options.path === undefined ? undefined : `${origin}${options.path}`;
  return {
    title: defaultTitle,
    description: defaultDescription,
    robots: options.robots ?? indexable,
    ...(canonical ? { canonical } : {}),
    meta: socialTags({
      type: "website",
      title: defaultTitle,
      description: defaultDescription,
      url: canonical,
      image: `${origin}${socialImagePath}`,
      defaultImage: true,
    }),
  } satisfies PageHead;
}

/** One query for the member, one for their first prism (with the count, by a window). */
async function findProfileFacts(db: Executor, username: string): Promise<ProfileFacts | null> {
  const user = await findActiveUser(db, username);
  if (!user) return null;
  const [first] = await db
    .select({ title: prisms.title, count: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(prisms)
    .where(eq(prisms.userId, user.id))
    .orderBy(asc(prisms.index), asc(prisms.id))
    .limit(1);
  return {
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: user.displayName,
    profileImageUrl: user.profileImageUrl,
    firstPrismTitle: first?.title ?? null,
    prismCount: first?.count ?? 0,
  };
}

/** A segment that could be a username; anything else is not worth a query. */
const usernameShape = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The head for every page path: `/` and the app's own routes get the default head (no query);
 * `/{username}` and `/{username}/{prismSlug}` the member's; anything else, or an unknown or
 * deactivated member, a 404 with the default head and noindex.
 */
export function createRenderHead(deps: { db: Executor; config: Config }): RenderHead {
  const origin = deps.config.appOrigin;
  const missing: RenderedHead = {
    status: 404,
    head: defaultHead(origin, { robots: "noindex, follow" }),
  };
  return async (path) => {
    const segments = path.split("/").filter(Boolean);
    const [first] = segments;
    if (first === undefined) return { status: 200, head: defaultHead(origin, { path: "/" }) };
    let segment: string;
    try {
      segment = decodeURIComponent(first);
    } catch {
      return missing;
    }
    if (isReservedUsername(segment)) {
      const robots = privateSegments.has(segment.toLowerCase()) ? "noindex, nofollow" : undefined;
      return {
        status: 200,
        head: defaultHead(origin, {
          path: `/${segments.join("/")}`,
          ...(robots ? { robots } : {}),
        }),
      };
    }
    if (segments.length > 2 || !usernameShape.test(segment)) return missing;
    const facts = await findProfileFacts(deps.db, segment);
    return facts ? { status: 200, head: profileHead(origin, facts) } : missing;
  };
}

export function robotsTxt(origin: string): string {
  // `$` ends a rule (RFC 9309): members named e.g. "profiler" stay crawlable.
  const privatePaths = ["/catalyst", "/profile", "/notifications"].flatMap((path) => [
    `Disallow: ${path}$`,
    `Disallow: ${path}/`,
    `Disallow: ${path}?`,
  ]);
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    ...privatePaths,
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}

interface SitemapMember {
  username: string;
  lastModified: Date | null;
}

/** Active members with at least one prism, most recently updated first. */
async function sitemapMembers(db: Executor, limit: number): Promise<SitemapMember[]> {
  const newest = max(prisms.updatedAt);
  return db
    .select({ username: users.username, lastModified: newest })
    .from(users)
    .innerJoin(prisms, eq(prisms.userId, users.id))
    .where(isNull(users.deactivatedAt))
    .groupBy(users.id)
    .orderBy(desc(newest), asc(users.id))
    .limit(limit);
}

/** The public pages every sitemap lists before the members. */
const sitemapPages = ["/", "/explore"];

function sitemapXml(origin: string, members: SitemapMember[]): string {
  const url = (loc: string, lastModified?: Date | null) =>
    `  <url><loc>${escapeXml(loc)}</loc>${
      lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : ""
    }</url>`;
  const entries = [
    ...sitemapPages.map((path) => url(`${origin}${path}`)),
    ...members.map((member) =>
      url(`${origin}/${encodeURIComponent(member.username)}`, member.lastModified),
    ),
  ].slice(0, sitemapMaxUrls);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    "</urlset>",
    "",
  ].join("\n");
}

export async function buildSitemap(db: Executor, origin: string): Promise<string> {
  const members = await sitemapMembers(db, sitemapMaxUrls - sitemapPages.length);
  return sitemapXml(origin, members);
}
