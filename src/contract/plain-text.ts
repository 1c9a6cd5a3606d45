// The plain text of a prism's sanitized HTML. Annotation offsets count characters of this text,
// on the server and in the browser alike: text nodes in order, entities decoded, and a newline
// between blocks (and for <br>) so that words of adjacent paragraphs stay apart.
import { limits } from "./limits.ts";

const BLOCK_TAGS = new Set([
  "p",
  "div",
  "li",
  "ul",
  "ol",
  "blockquote",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
]);

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, code: string) => {
    if (code[0] === "#") {
      const value =
        code[1]?.toLowerCase() === "x" ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return Number.isFinite(value) && value > 0 && value <= 0x10ffff
        ? String.fromCodePoint(value)
        : match;
    }
    return NAMED_ENTITIES[code.toLowerCase()] ?? match;
  });
}

export function htmlToPlainText(html: string): string {
  let text = "";
  for (const token of html.split(/(<[^>]*>)/)) {
    if (!token) continue;
    if (token.startsWith("<")) {
      const match = /^<\/?\s*([a-z0-9]+)/i.exec(token);
      const tag = match?.[1]?.toLowerCase() ?? "";
      if (tag === "br") {
        text += "\n";
      } else if (BLOCK_TAGS.has(tag)) {
        if (!token.startsWith("</") && text.length > 0 && !text.endsWith("\n")) text += "\n";
      }
      continue;
    }
    // As the browser's HTML parser does: line breaks become "\n" before entities are decoded.
    text += decodeEntities(token.replace(/\r\n?/g, "\n"));
  }
  return text;
}

/**
 * The words either side of a range that a response keeps: up to `limits.originalContextMax`
 * characters each, a word cut short by that bound left out.
 */
export function originalContext(text: string, start: number, end: number) {
  const size = limits.originalContextMax;
  let before = text.slice(Math.max(0, start - size), start);
  if (start > size) before = before.replace(/^\S*\s/, "");
  let after = text.slice(end, end + size);
  if (end + size < text.length) after = after.replace(/\s\S*$/, "");
  return { before, after };
}

/** Up to `size` characters before and after a range: the quote's context for re-anchoring. */
export function quoteContext(text: string, start: number, end: number, size = 32) {
  return {
    prefix: text.slice(Math.max(0, start - size), start),
    suffix: text.slice(end, end + size),
  };
}
