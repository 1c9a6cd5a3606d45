// Share cards: the 1200 × 630 image a link to a member's page or to one of their prisms unfurls
// with in a chat or a feed. What a card shows is decided here, once, for the server that draws it
// and for the page whose head points to it (whose address names the card's version, so that a
// chat fetches it again after an edit).
import { excerpt, previewOf } from "./excerpt.ts";
import { brand, fullName, initials, type Person, shareTitle } from "./names.ts";

export const cardSize = { width: 1200, height: 630 } as const;

/** How much of each text a card shows, in characters: what fits its lines. */
const cardLengths = { name: 48, title: 64, excerpt: 160 } as const;

export const cardMessages = {
  tooMany:
    "Too many share cards were drawn for your network. Please wait a few minutes and try again.",
};

/** Raised whenever the card's drawing changes, so that every card's version moves with it. */
const CARD_DESIGN = 1;

/** Everything a card shows. */
export interface CardContent {
  name: string;
  /** The avatar's letters, as the page shows them. */
  initials: string;
  username: string;
  title: string;
  excerpt: string | null;
}

/**
 * The card of a member's page (`prism` its first prism, if any) or of one prism: the member's
 * name, the prism's title and a plain-text excerpt; a page with no prism shows its share title.
 */
export function cardContent(
  member: Person,
  prism: { title: string; content: string } | null,
): CardContent {
  const preview = prism ? previewOf(prism.content, cardLengths.excerpt) : "";
  return {
    name: excerpt(fullName(member), cardLengths.name),
    initials: initials(member),
    username: member.username,
    title: excerpt(prism?.title ?? shareTitle(member), cardLengths.title),
    excerpt: preview === "" ? null : preview,
  };
}

/**
 * A short fingerprint of what the card shows (FNV-1a of its text and design), in base 36: equal
 * content gives an equal version on the server and in the browser alike.
 */
export function cardVersion(card: CardContent): string {
  const text = [
    CARD_DESIGN,
    card.name,
    card.initials,
    card.username,
    card.title,
    card.excerpt ?? "",
  ].join("\n");
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** The card's address on the site, versioned by what it shows. */
export function cardPath(username: string, prismId: number | null, card: CardContent): string {
  const member = encodeURIComponent(username);
  const path = prismId === null ? `/og/${member}.png` : `/og/${member}/${prismId}.png`;
  return `${path}?v=${cardVersion(card)}`;
}

/** What the card says to someone who cannot see it. */
export function cardAlt(card: CardContent): string {
  return card.excerpt === null
    ? `${card.title}: ${card.name} (@${card.username}) on ${brand}`
    : `"${card.title}" by ${card.name} (@${card.username}) on ${brand}`;
}
