// What an e-mail notification says: one message per member, as plain text and as simple HTML,
// with a one-click unsubscribe (RFC 8058) in its headers and a link to the same in its body.
import { excerpt } from "../../../contract/excerpt.ts";
import { escapeHtml } from "../../escape.ts";
import type { MailedNotification, Outgoing } from "./service.ts";

/** How much of a response or a reply a message quotes. */
const QUOTE_MAX = 300;

const someone = (name: string | null) => name?.trim() || "Someone";

/** One notification as a sentence, the words it quotes and where to see it. */
function describe(notification: MailedNotification, origin: string) {
  const actor = someone(notification.actorName);
  const title = `"${notification.prismTitle}"`;
  return notification.type === "annotation"
    ? {
        line: `${actor} responded to your Prism ${title}, waiting for your review`,
        quote: excerpt(notification.annotationText, QUOTE_MAX),
        passage: excerpt(notification.selectedText, QUOTE_MAX),
        link: `${origin}/${notification.prismOwnerUsername}`,
      }
    : {
        line: `${actor} replied to your response to ${title}`,
        quote: excerpt(notification.replyText ?? "", QUOTE_MAX),
        passage: excerpt(notification.annotationText, QUOTE_MAX),
        link: `${origin}/${notification.prismOwnerUsername}`,
      };
}

function subjectOf({ setting, notifications }: Outgoing): string {
  const [only] = notifications;
  if (notifications.length === 1 && only) {
    return only.type === "annotation"
      ? `${someone(only.actorName)} responded to your Prism "${only.prismTitle}"`
      : `${someone(only.actorName)} replied to your response to "${only.prismTitle}"`;
  }
  const count = `${notifications.length} new notifications`;
  return setting === "daily" ? `Your Prism digest: ${count}` : `Prism: ${count}`;
}

/** The message for one member, with the address that unsubscribes them in one click. */
export function composeMessage(outgoing: Outgoing, origin: string, token: string) {
  const oneClick = `${origin}/api/email/unsubscribe?token=${encodeURIComponent(token)}`;
  const confirmPage = `${origin}/unsubscribe?token=${encodeURIComponent(token)}`;
  const settings = `${origin}/profile`;
  const items = outgoing.notifications.map((notification) => describe(notification, origin));
  const why =
    outgoing.setting === "daily"
      ? "You get this digest once a day because of your Prism e-mail settings"
      : "You get these e-mails because of your Prism e-mail settings";
  const text = [
    `Hello ${outgoing.recipient.firstName},`,
    "",
    ...items.flatMap((item) => [
      `* ${item.line}:`,
      `  On "${item.passage}"`,
      `  "${item.quote}"`,
      `  ${item.link}`,
      "",
    ]),
    `All your notifications: ${origin}/notifications`,
    "",
    "--",
    `${why}: ${settings}`,
    `Unsubscribe: ${confirmPage}`,
    "",
  ].join("\n");
  const html = [
    "<!doctype html>",
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>Hello ${escapeHtml(outgoing.recipient.firstName)},</p>`,
    "<ul>",
    ...items.map(
      (item) =>
        `<li><p><a href="${escapeHtml(item.link)}">${escapeHtml(item.line)}</a></p>` +
        `<p>On &ldquo;${escapeHtml(item.passage)}&rdquo;</p>` +
        `<blockquote>${escapeHtml(item.quote)}</blockquote></li>`,
    ),
    "</ul>",
    `<p><a href="${escapeHtml(`${origin}/notifications`)}">All your notifications</a></p>`,
    `<p style="color: #555; font-size: 0.9em">${escapeHtml(why)}: ` +
      `<a href="${escapeHtml(settings)}">Profile Settings</a>. ` +
      `<a href="${escapeHtml(confirmPage)}">Unsubscribe</a></p>`,
    "</body></html>",
  ].join("\n");
  return {
    to: outgoing.recipient.email,
    // One line, whatever a title or a name holds.
    subject: subjectOf(outgoing).replace(/\s+/g, " "),
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
