// What crawlers read besides the pages themselves: each page path's status (a member who is not
// there is a 404), robots.txt and the sitemap. The pages' heads are the web app's (lib/page-head),
// rendered with the page.
import { and, asc, desc, eq, isNull, max } from "drizzle-orm";
import { isReservedUsername } from "../../../contract/limits.ts";
import type { Executor } from "../../db/client.ts";
import { prisms, users } from "../../db/schema.ts";
import { escapeXml } from "../../escape.ts";
import type { PageStatus } from "../../plugins/web.ts";
import { findActiveUser } from "../users/service.ts";

/** A sitemap holds at most this many URLs (sitemaps.org). */
const sitemapMaxUrls = 50_000;

/** A segment that could be a username; anything else is not worth a query. */
const usernameShape = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The status of every page path: `/` and the app's own routes are there (no query);
 * `/{username}` and `/{username}/{prismSlug}` when the member is active; anything else is a 404.
 */
export function createPageStatus(db: Executor): PageStatus {
  return async (path) => {
    const segments = path.split("/").filter(Boolean);
    const [first] = segments;
    if (first === undefined) return 200;
    let segment: string;
    try {
      segment = decodeURIComponent(first);
    } catch {
      return 404;
    }
    if (isReservedUsername(segment)) return 200;
    if (segments.length > 2 || !usernameShape.test(segment)) return 404;
    return (await findActiveUser(db, segment)) ? 200 : 404;
  };
}

export function robotsTxt(origin: string): string {
  // `$` ends a rule (RFC 9309): members named e.g. "profiler" stay crawlable.
  const privatePaths = ["/catalyst", "/profile", "/notifications", "/review"].flatMap((path) => [
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

/** Active, listed members with at least one public prism, most recently updated first. */
async function sitemapMembers(db: Executor, limit: number): Promise<SitemapMember[]> {
  const newest = max(prisms.updatedAt);
  return db
    .select({ username: users.username, lastModified: newest })
    .from(users)
    .innerJoin(prisms, and(eq(prisms.userId, users.id), eq(prisms.audience, "public")))
    .where(and(isNull(users.deactivatedAt), eq(users.listed, true)))
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
