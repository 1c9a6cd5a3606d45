// What rich text a prism may hold: paragraphs, line breaks, bold, italic, underline and links.
import sanitizeHtml from "sanitize-html";
import { decodeEntities } from "../../../contract/plain-text.ts";

const options: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "em", "u", "a"],
  allowedAttributes: { a: ["href"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "template",
    "title",
    "iframe",
    "xmp",
    "noembed",
    "noframes",
  ],
  transformTags: {
    b: "strong",
    i: "em",
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = safeHref(attribs.href);
      if (!href) return { tagName, attribs: {} };
      return {
        tagName,
        attribs: { href, rel: "noopener noreferrer nofollow ugc", target: "_blank" },
      };
    },
  },
};

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * An absolute http(s) or mailto address, normalised, or nothing. Browsers ignore surrounding
 * whitespace and embedded tabs and newlines in a scheme, so the check does too.
 */
function safeHref(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we strip
  const compact = raw.replace(/[\u0000-\u0020\u007f]/g, "");
  try {
    const url = new URL(compact);
    return LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

// rel and target are added by the transform, after the attribute filter has run.
options.allowedAttributes = { a: ["href", "rel", "target"] };

export function sanitizeContent(html: string): string {
  return sanitizeHtml(html, options).trim();
}

/** Titles are plain text: markup is dropped and no angle bracket survives, whitespace collapsed. */
export function sanitizeTitle(title: string): string {
  const text = sanitizeHtml(title, {
    allowedTags: [],
    allowedAttributes: {},
    disallowedTagsMode: "discard",
  });
  return decodeEntities(text).replace(/[<>]/g, "").replace(/\s+/g, " ").trim();
}
