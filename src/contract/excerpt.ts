// A short preview of a longer text, cut between words: the explore page's excerpts.
import { htmlToPlainText } from "./plain-text.ts";

const ELLIPSIS = "…";

/**
 * The text when it fits in `max` characters; else its start up to the last space at or before
 * `max` (or exactly `max` characters when there is no space), followed by an ellipsis.
 */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  const space = head.search(/\s\S*$/);
  let cut = space > 0 ? head.slice(0, space).trimEnd() : "";
  if (!cut) {
    // No word boundary: cut at max, but never between the halves of a surrogate pair.
    const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
    cut = text.slice(0, end);
  }
  return `${cut}${ELLIPSIS}`;
}

/** Excerpt lengths of the two tabs (spec §9). */
export const exploreExcerpt = { people: 100, prisms: 150 } as const;

/** A preview of a prism's sanitized HTML: its plain text on one line, cut between words. */
export function previewOf(html: string, max: number): string {
  return excerpt(htmlToPlainText(html).replace(/\s+/g, " ").trim(), max);
}
