// What an anonymous author who left an e-mail address is told: the owner's decision on their
// response, and the owner's reply, each in one message at most, while the response (and so its
// private status link) exists. A message is claimed on its response's row before it goes, so that
// with several processes only one sends it, and given back when the mail server refused it. Spam
// is never mailed: its author is told nothing they would not see on the status page.
import { and, eq, inArray, isNotNull, isNull, ne, type SQL } from "drizzle-orm";
import { displayName } from "../../../contract/names.ts";
import { oneLine } from "../../../contract/text.ts";
import type { Db } from "../../db/client.ts";
import { annotations, prisms, users } from "../../db/schema.ts";
import { escapeHtml } from "../../escape.ts";
import { mailButton, mailHtml } from "../../mail/layout.ts";
import { liveOwner } from "../../policy.ts";

export type AuthorMailAbout = "decision" | "reply";

/** One message to an anonymous author, as claimed. */
export interface AuthorMail {
  annotationId: number;
  about: AuthorMailAbout;
  email: string;
  status: "approved" | "rejected";
  passage: string;
  text: string;
  reply: string | null;
  prismTitle: string;
  ownerName: string;
  /** Where the approved response stands on the owner's page. */
  prismPath: string;
}

/** The field that records each message, and what must hold for it to be due. */
const due = {
  decision: {
    field: "decisionMailedAt",
    when: inArray(annotations.status, ["approved", "rejected"]),
  },
  reply: {
    field: "replyMailedAt",
    when: and(isNotNull(annotations.replyText), ne(annotations.status, "spam")),
  },
} as const satisfies Record<
  AuthorMailAbout,
  { field: keyof typeof annotations.$inferSelect; when: SQL | undefined }
>;

/** Claims the message about `about` of a response, when it is due and not yet sent. */
export async function claimAuthorMail(
  db: Db,
  annotationId: number,
  about: AuthorMailAbout,
  now: Date,
): Promise<AuthorMail | undefined> {
  const { field, when } = due[about];
  const [claimed] = await db
    .update(annotations)
    .set({ [field]: now })
    .where(
      and(
        eq(annotations.id, annotationId),
        isNull(annotations.userId),
        isNotNull(annotations.annotatorEmail),
        isNull(annotations[field]),
        when,
      ),
    )
    .returning();
  if (!claimed?.annotatorEmail) return undefined;
  const [page] = await db
    .select({ title: prisms.title, owner: users })
    .from(prisms)
    .innerJoin(users, liveOwner)
    .where(eq(prisms.id, claimed.prismId));
  // The owner's page went while the message was claimed: there is nothing left to tell of.
  if (!page) return undefined;
  return {
    annotationId,
    about,
    email: claimed.annotatorEmail,
    status: claimed.status === "approved" ? "approved" : "rejected",
    passage: claimed.selectedText,
    text: claimed.annotationText,
    reply: claimed.replyText,
    prismTitle: page.title,
    ownerName: displayName(page.owner),
    prismPath: `/${encodeURIComponent(page.owner.username)}?prism=${claimed.prismId}`,
  };
}

/** Gives a claim back after the mail server refused the message, for the next decision or reply. */
export async function releaseAuthorMail(db: Db, mail: AuthorMail): Promise<void> {
  await db
    .update(annotations)
    .set({ [due[mail.about].field]: null })
    .where(eq(annotations.id, mail.annotationId));
}

/** The lines of a message: what happened, the words it is about, and where to read more. */
function linesOf(mail: AuthorMail, origin: string) {
  const title = `"${oneLine(mail.prismTitle)}"`;
  const owner = oneLine(mail.ownerName);
  if (mail.about === "reply") {
    return {
      subject: `${owner} replied to your response to ${title}`,
      line: `${owner} replied to your response on their Prism ${title}.`,
      quote: mail.reply ?? "",
      link: mail.status === "approved" ? `${origin}${mail.prismPath}` : null,
    };
  }
  return mail.status === "approved"
    ? {
        subject: `Your response to ${title} was approved`,
        line: `${owner} approved your response: everyone who reads their Prism ${title} can see it.`,
        quote: null,
        link: `${origin}${mail.prismPath}`,
      }
    : {
        subject: `Your response to ${title} was not approved`,
        line: `${owner} did not approve your response to their Prism ${title}. It is not shown on their page.`,
        quote: null,
        link: null,
      };
}

/** The message, with the address that stops these messages (and forgets the address) in one click. */
export function composeAuthorMessage(mail: AuthorMail, origin: string, token: string) {
  const oneClick = `${origin}/api/email/unsubscribe?token=${encodeURIComponent(token)}`;
  const confirmPage = `${origin}/unsubscribe?token=${encodeURIComponent(token)}`;
  const { subject, line, quote, link } = linesOf(mail, origin);
  const why =
    "You get this e-mail because you left this address with your response on Prism; we use it for nothing else";
  const text = [
    "Hello,",
    "",
    line,
    "",
    `You responded to "${oneLine(mail.passage)}":`,
    `  "${oneLine(mail.text)}"`,
    ...(quote ? ["", `${oneLine(mail.ownerName)} wrote:`, `  "${oneLine(quote)}"`] : []),
    ...(link ? ["", link] : []),
    "",
    "--",
    `${why}.`,
    `Unsubscribe: ${confirmPage}`,
    "",
  ].join("\n");
  const html = mailHtml(
    [
      "<p>Hello,</p>",
      `<p>${escapeHtml(line)}</p>`,
      `<p>You responded to &ldquo;${escapeHtml(oneLine(mail.passage))}&rdquo;:</p>`,
      `<blockquote>${escapeHtml(oneLine(mail.text))}</blockquote>`,
      ...(quote
        ? [
            `<p>${escapeHtml(oneLine(mail.ownerName))} wrote:</p>`,
            `<blockquote>${escapeHtml(oneLine(quote))}</blockquote>`,
          ]
        : []),
      ...(link ? [mailButton("Read it on Prism", link)] : []),
    ],
    `${escapeHtml(why)}. <a href="${escapeHtml(confirmPage)}">Unsubscribe</a>`,
  );
  return {
    to: mail.email,
    subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
