// What an e-mail notification says: one message per member, as plain text and as simple HTML,
// with a one-click unsubscribe (RFC 8058) in its headers and a link to the same in its body.
import { excerpt } from "../../../contract/excerpt.ts";
import { oneLine } from "../../../contract/text.ts";
import { escapeHtml } from "../../escape.ts";
import { mailButton, mailHtml } from "../../mail/layout.ts";
import { DIGEST_ITEMS_MAX, type MailedNotification, type Outgoing } from "./service.ts";

/** How much of a response or a reply a message quotes. */
const QUOTE_MAX = 300;

/**
 * What one message tells of at most: DIGEST_ITEMS_MAX notifications, in so many bytes of text (and
 * as many of HTML). The rest are summed up in one line that links to the member's notifications.
 */
export const DIGEST_BYTES_MAX = 100 * 1024;

/** What the items may take of it: the rest is ample for the greeting, the links and the footer. */
const ITEM_BYTES_MAX = DIGEST_BYTES_MAX - 4 * 1024;

const someone = (name: string | null) => oneLine(name ?? "").trim() || "Someone";

/** The start of a text that may hold several lines, on one line. */
const quoted = (text: string) => excerpt(oneLine(text).trim(), QUOTE_MAX);

/** The response on the owner's page, opened beside its passage (where the owner decides on it). */
const responseLink = (
  notification: Extract<MailedNotification, { annotationId: number }>,
  origin: string,
) =>
  `${origin}/${encodeURIComponent(notification.prismOwnerUsername)}?annotation=${notification.annotationId}`;

/** What a message says of one notification: a sentence, maybe what it quotes, and a link. */
interface Described {
  line: string;
  quote: string | null;
  passage: string | null;
  link: string;
}

/**
 * One notification as a sentence, the words it quotes and where to see it; each on one line,
 * whatever the rows hold, so that nothing a member wrote starts a line of the message.
 */
function describe(notification: MailedNotification, origin: string): Described {
  const actor = someone(notification.actorName);
  const title = `"${oneLine(notification.prismTitle)}"`;
  if (notification.type === "team.prism") {
    return {
      line: `${actor} wrote or edited the Prism ${title}`,
      quote: null,
      passage: null,
      link: `${origin}/${encodeURIComponent(notification.prismOwnerUsername)}?prism=${notification.prismId}`,
    };
  }
  return notification.type === "annotation"
    ? {
        line: `${actor} responded to your Prism ${title}, waiting for your review`,
        quote: quoted(notification.annotationText),
        passage: quoted(notification.selectedText),
        link: responseLink(notification, origin),
      }
    : {
        line: `${actor} replied to your response to ${title}`,
        quote: quoted(notification.replyText ?? ""),
        passage: quoted(notification.annotationText),
        link: responseLink(notification, origin),
      };
}

function subjectOf({ setting, notifications, total }: Outgoing): string {
  const [only] = notifications;
  if (total === 1 && only) {
    const title = `"${oneLine(only.prismTitle)}"`;
    return only.type === "annotation"
      ? `${someone(only.actorName)} responded to your Prism ${title}`
      : only.type === "reply"
        ? `${someone(only.actorName)} replied to your response to ${title}`
        : `${someone(only.actorName)} wrote or edited the Prism ${title}`;
  }
  const count = `${total.toLocaleString("en")} new notifications`;
  return setting === "daily" ? `Your Prism digest: ${count}` : `Prism: ${count}`;
}

/** The message for one member, with the address that unsubscribes them in one click. */
export function composeMessage(outgoing: Outgoing, origin: string, token: string) {
  const oneClick = `${origin}/api/email/unsubscribe?token=${encodeURIComponent(token)}`;
  const confirmPage = `${origin}/unsubscribe?token=${encodeURIComponent(token)}`;
  const settings = `${origin}/profile`;
  const all = `${origin}/notifications`;
  const why =
    outgoing.setting === "daily"
      ? "You get this digest once a day because of your Prism e-mail settings"
      : "You get these e-mails because of your Prism e-mail settings";
  // Each item as text and HTML, while both fit in the budget (what frames them is well within it).
  const texts: string[] = [];
  const htmls: string[] = [];
  let bytes = { text: 0, html: 0 };
  for (const notification of outgoing.notifications.slice(0, DIGEST_ITEMS_MAX)) {
    const item = describe(notification, origin);
    const text = [
      `* ${item.line}:`,
      ...(item.passage === null ? [] : [`  On "${item.passage}"`]),
      ...(item.quote === null ? [] : [`  "${item.quote}"`]),
      `  ${item.link}`,
      "",
    ].join("\n");
    const html =
      `<li><p><a href="${escapeHtml(item.link)}">${escapeHtml(item.line)}</a></p>` +
      (item.passage === null ? "" : `<p>On &ldquo;${escapeHtml(item.passage)}&rdquo;</p>`) +
      (item.quote === null ? "" : `<blockquote>${escapeHtml(item.quote)}</blockquote>`) +
      "</li>";
    const next = {
      text: bytes.text + Buffer.byteLength(text),
      html: bytes.html + Buffer.byteLength(html),
    };
    if (next.text > ITEM_BYTES_MAX || next.html > ITEM_BYTES_MAX) break;
    texts.push(text);
    htmls.push(html);
    bytes = next;
  }
  const more = outgoing.total - texts.length;
  const moreLine = `And ${more.toLocaleString("en")} more`;
  const text = [
    `Hello ${oneLine(outgoing.recipient.firstName)},`,
    "",
    ...texts,
    ...(more > 0 ? [`${moreLine}: ${all}`, ""] : []),
    `All your notifications: ${all}`,
    "",
    "--",
    `${why}: ${settings}`,
    `Unsubscribe: ${confirmPage}`,
    "",
  ].join("\n");
  const [only] = outgoing.notifications;
  const html = mailHtml(
    [
      `<p>Hello ${escapeHtml(oneLine(outgoing.recipient.firstName))},</p>`,
      '<ul style="padding-left: 18px">',
      ...htmls,
      "</ul>",
      ...(more > 0 ? [`<p><a href="${escapeHtml(all)}">${escapeHtml(moreLine)}</a></p>`] : []),
      outgoing.total === 1 && only
        ? mailButton(
            only.type === "annotation"
              ? "Review the response"
              : only.type === "reply"
                ? "Read the reply"
                : "Read the prism",
            describe(only, origin).link,
          )
        : mailButton("All your notifications", all),
    ],
    `${escapeHtml(why)}: <a href="${escapeHtml(settings)}">Profile Settings</a>. ` +
      `<a href="${escapeHtml(confirmPage)}">Unsubscribe</a>`,
  );
  return {
    to: outgoing.recipient.email,
    subject: subjectOf(outgoing),
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
