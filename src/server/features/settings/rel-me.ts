// Does a member's website link back to their Prism page with rel="me"? The page is read by a
// careful pattern over its first 256 KiB (no HTML parser is among Prism's dependencies): every
// <a> and <link> tag's attributes, outside comments, scripts and styles.
import { addressPolicy, fetchPage } from "../../security/outgoing-fetch.ts";

/** How Prism fetches a member's website: in production or not, and the User-Agent it sends. */
export interface WebsiteFetching {
  production: boolean;
  userAgent: string;
}

const TAG = /<(a|link)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const HIDDEN = /<!--[\s\S]*?-->|<(script|style)\b[\s\S]*?<\/\1\s*>/gi;

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" };

/** The few character references an address in an attribute is likely to hold. */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
    const code =
      name[1] === "x" || name[1] === "X"
        ? Number.parseInt(name.slice(2), 16)
        : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]?.toLowerCase();
    if (name && !attributes.has(name)) {
      attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ""));
    }
  }
  return attributes;
}

/** The address without its fragment or a trailing slash; the host is already lower case. */
function comparable(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}${url.search}`;
}

/** The hrefs of the page's <a> and <link> tags whose rel holds "me", resolved against `pageUrl`. */
export function relMeLinks(html: string, pageUrl: string): URL[] {
  const links: URL[] = [];
  for (const tag of html.replace(HIDDEN, "").matchAll(TAG)) {
    const attributes = attributesOf(tag[2] ?? "");
    const rel = attributes.get("rel")?.toLowerCase().split(/\s+/) ?? [];
    const href = attributes.get("href");
    if (!rel.includes("me") || href === undefined) continue;
    try {
      links.push(new URL(href.trim(), pageUrl));
    } catch {
      // An href that is no address links nowhere.
    }
  }
  return links;
}

/** The page at `pageUrl` links with rel="me" to `profileUrl` (trailing slash and host case aside). */
export function linksBackTo(html: string, pageUrl: string, profileUrl: string): boolean {
  const target = comparable(new URL(profileUrl));
  return relMeLinks(html, pageUrl).some((link) => comparable(link) === target);
}

/**
 * Fetches the member's website and answers whether it links back to their Prism page. A page that
 * cannot or may not be fetched, or answers with an error, does not.
 */
export async function websiteLinksBack(
  websiteUrl: string,
  profileUrl: string,
  { production, userAgent }: WebsiteFetching,
): Promise<boolean> {
  try {
    const page = await fetchPage(websiteUrl, { refuses: addressPolicy(production), userAgent });
    return page.status >= 200 && page.status < 300 && linksBackTo(page.body, page.url, profileUrl);
  } catch {
    return false;
  }
}
