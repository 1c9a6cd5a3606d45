// Every page's head: its title, description, robots, canonical address, Open Graph and Twitter
// tags, all written here and nowhere else. React puts them in the document's head and takes them
// away with the page; the server sends the tags its render of the page put there, which the
// browser then takes over as they are. One page shows one PageHead, so a head never holds two
// tags of a kind.
import { createContext, useContext } from "react";
import { useLocation } from "wouter";
import { feedPaths, oembedPath } from "../../contract/feeds.ts";
import { brand } from "../../contract/names.ts";

export const siteTitle = "Prism: say who you are and how you work";
export const siteDescription =
  "Prism is where people say who they are and how they work, and are answered thoughtfully.";
/** The site's own image, for pages that are not a member's; a member's share card is its size. */
const socialImage = { path: "/social-default.png", width: 1200, height: 630 };

/**
 * Whether search engines may list the page: every page may, but for error pages (not listed, links
 * followed) and private ones, a member's own or an admin's (neither).
 */
export type Robots = "index, follow" | "noindex, follow" | "noindex, nofollow";

/**
 * The site's origin, for the head's full addresses: the server's configured one when it renders,
 * the browser's own (the same: Prism answers writes from its own origin only) in the browser.
 */
export const SiteOrigin = createContext("");

export interface PageHeadProps {
  title: string;
  description?: string;
  robots?: Robots;
  /** The page's canonical path; the address's own path when not given. */
  path?: string;
  /**
   * A member's page: shared as their profile, under the spec's share title, with its share card
   * (the card's versioned path, and what it says in words); followed through its feeds, named
   * after the member (`name`); embedded as the page, or the prism it links to (`embed`, a path).
   */
  profile?: {
    username: string;
    name: string;
    shareTitle: string;
    card: { path: string; alt: string };
    embed: string;
    /** The member's website, when it links back to their page with rel="me". */
    verifiedWebsite: string | null;
  };
}

/** Where feed readers and other sites find a member's feeds and the page's oEmbed answer. */
function Alternates({
  origin,
  profile,
}: {
  origin: string;
  profile: NonNullable<PageHeadProps["profile"]>;
}) {
  const feeds = feedPaths(profile.username);
  return (
    <>
      <link
        rel="alternate"
        type="application/atom+xml"
        href={`${origin}${feeds.atom}`}
        title={`${profile.name} on ${brand} (Atom)`}
      />
      <link
        rel="alternate"
        type="application/feed+json"
        href={`${origin}${feeds.json}`}
        title={`${profile.name} on ${brand} (JSON Feed)`}
      />
      <link
        rel="alternate"
        type="application/json+oembed"
        href={`${origin}${oembedPath(`${origin}${profile.embed}`)}`}
        title={`${profile.name} on ${brand}`}
      />
    </>
  );
}

export function PageHead({
  title,
  description = siteDescription,
  robots = "index, follow",
  path,
  profile,
}: PageHeadProps) {
  const origin = useContext(SiteOrigin);
  const [location] = useLocation();
  const url = `${origin}${path ?? location}`;
  const shareTitle = profile?.shareTitle ?? title;
  const image = `${origin}${profile?.card.path ?? socialImage.path}`;
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      <meta name="robots" content={robots} />
      <link rel="canonical" href={url} />
      <meta property="og:type" content={profile ? "profile" : "website"} />
      <meta property="og:site_name" content={brand} />
      <meta property="og:title" content={shareTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={image} />
      <meta property="og:image:width" content={String(socialImage.width)} />
      <meta property="og:image:height" content={String(socialImage.height)} />
      <meta property="og:image:alt" content={profile?.card.alt ?? brand} />
      {profile ? <meta property="profile:username" content={profile.username} /> : null}
      {/* Read from the page as the server sends it (feed readers, other sites, rel="me"
          verifiers): no script needs them. */}
      {import.meta.env.SSR && profile ? <Alternates origin={origin} profile={profile} /> : null}
      {import.meta.env.SSR && profile?.verifiedWebsite ? (
        <link rel="me" href={profile.verifiedWebsite} />
      ) : null}
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={shareTitle} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
    </>
  );
}
