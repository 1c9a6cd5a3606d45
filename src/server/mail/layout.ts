// How every message's HTML looks: Prism's name at the top in its colour, the content on a white
// card, a quiet footer; quotes and the one action stand out as they do on the site. Styles are
// inline (and repeated in the head for the clients that keep it), since many mail clients drop
// a stylesheet. Callers pass HTML they escaped; nothing here escapes again.
import { escapeHtml } from "../escape.ts";

const PRIMARY = "#4338ca";
const MUTED = "#555";

const HEAD_STYLE =
  `blockquote { margin: 8px 0; padding: 4px 12px; border-left: 4px solid #fcd34d; color: #374151; font-family: Georgia, serif; font-style: italic; }` +
  ` a { color: ${PRIMARY}; }`;

/** A link drawn as the site's primary button: the one thing the message asks of its reader. */
export function mailButton(label: string, href: string): string {
  return (
    `<p style="margin: 20px 0"><a href="${escapeHtml(href)}" ` +
    `style="display: inline-block; background: ${PRIMARY}; color: #ffffff; text-decoration: none; ` +
    `padding: 10px 18px; border-radius: 8px; font-weight: 600">${escapeHtml(label)}</a></p>`
  );
}

/** A whole message's HTML: `content` on the card, `footer` (why they get it, how to stop) under it. */
export function mailHtml(content: readonly string[], footer = ""): string {
  return [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><style>${HEAD_STYLE}</style></head>`,
    '<body style="margin: 0; padding: 24px 12px; background: #f4f4f5; font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; line-height: 1.5; color: #111827">',
    '<div style="max-width: 560px; margin: 0 auto">',
    `<p style="margin: 0 0 12px; font-size: 20px; font-weight: 700; color: ${PRIMARY}">Prism</p>`,
    '<div style="background: #ffffff; border: 1px solid #e4e4e7; border-radius: 12px; padding: 20px 24px">',
    ...content,
    "</div>",
    ...(footer
      ? [`<p style="margin: 12px 4px; color: ${MUTED}; font-size: 0.85em">${footer}</p>`]
      : []),
    "</div>",
    "</body></html>",
  ].join("\n");
}
