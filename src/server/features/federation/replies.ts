// Replies from the fediverse to a prism, read and written on Prism's database: which passage a
// reply answers (the one it quotes, else the prism's opening), what of its note becomes the
// response's text, its author editing or withdrawing it, and the owner's replies still to be
// sent back to the fediverse.
import { and, eq, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { AnnotationCreate, AnnotationStatus } from "../../../contract/annotations.ts";
import { limits } from "../../../contract/limits.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Executor } from "../../db/client.ts";
import { annotations, prisms, type UserRow, users } from "../../db/schema.ts";
import { prismFederates } from "./service.ts";

/** The shortest quote taken for a passage: shorter ones ("so", "yes") name nothing. */
const QUOTE_MIN = 4;

/** Text between quotation marks, in the ways people write them. */
const QUOTED = [/“([^”]+)”/g, /"([^"]+)"/g, /«\s*([^»]+?)\s*»/g, /‘([^’]+)’/g, /„([^“”]+)[“”]/g];

/** What a note quotes: its blockquotes first, then what it puts in quotation marks. */
function quotesIn(html: string): string[] {
  const blocks = [...html.matchAll(/<blockquote[^>]*>([\s\S]*?)<\/blockquote>/gi)].map((match) =>
    htmlToPlainText(match[1] ?? ""),
  );
  const text = htmlToPlainText(html);
  const marked = QUOTED.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => match[1] ?? ""),
  );
  return [...blocks, ...marked]
    .map((quote) => quote.trim().replace(/^[.…]+|[.…]+$/g, ""))
    .map((quote) => quote.trim())
    .filter((quote) => quote.length >= QUOTE_MIN && quote.length <= limits.selectionMax);
}

/** Where `quote` is in the prism's text: as written, else in any case. */
function findQuote(text: string, quote: string): number {
  const exact = text.indexOf(quote);
  if (exact >= 0) return exact;
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower.indexOf(quote.toLowerCase()) : -1;
}

export interface Passage {
  start: number;
  end: number;
}

/**
 * The passage a reply answers: the first passage of the prism's text that the note quotes (in a
 * blockquote or between quotation marks), else the prism's opening (its whole text, up to the
 * last whole word within the longest passage a response may hold): a reply to a post answers the
 * whole of it.
 */
export function passageOf(noteHtml: string, prismText: string): Passage | null {
  for (const quote of quotesIn(noteHtml)) {
    const start = findQuote(prismText, quote);
    if (start >= 0) return { start, end: start + quote.length };
  }
  const leading = prismText.length - prismText.trimStart().length;
  const whole = prismText.trimEnd().length;
  let end = Math.min(whole, leading + limits.selectionMax);
  // A text longer than a passage may be is cut after its last whole word that fits.
  if (end < whole) {
    const fits = prismText.slice(leading, end + 1).search(/\s+\S*$/);
    if (fits > 0) end = leading + fits;
  }
  return end > leading ? { start: leading, end } : null;
}

/**
 * The response's text: the note's words, without the mentions its server put first ("@ada@prism
 * …"), cut to the longest response Prism keeps.
 */
export function replyTextOf(noteHtml: string): string {
  const text = htmlToPlainText(noteHtml)
    .replace(/^(?:\s*@[\w.-]+(?:@[\w.-]+)?)+\s*/u, "")
    .trim();
  return text.length > limits.annotationMax ? `${text.slice(0, limits.annotationMax - 1)}…` : text;
}

/** A fediverse reply as a response to the prism: its passage and text, its author's name. */
export function responseOf(
  prism: { id: number; content: string },
  noteHtml: string,
  authorName: string | null,
): AnnotationCreate | null {
  const text = htmlToPlainText(prism.content);
  const passage = passageOf(noteHtml, text);
  const annotationText = replyTextOf(noteHtml);
  if (!passage || annotationText.length === 0) return null;
  return {
    prismId: prism.id,
    selectedText: text.slice(passage.start, passage.end),
    selectionStart: passage.start,
    selectionEnd: passage.end,
    annotationText,
    annotatorName: authorName?.trim().slice(0, limits.nameMax) || undefined,
  };
}

/** Whether a note already arrived as a response (a server may send its `Create` again). */
export async function noteArrived(tx: Executor, noteId: string): Promise<boolean> {
  const [found] = await tx
    .select({ id: annotations.id })
    .from(annotations)
    .where(eq(annotations.remoteNoteId, noteId));
  return found !== undefined;
}

/** A fediverse reply by its note, when `actorId` wrote it; locked for the transaction. */
export async function remoteReply(tx: Executor, noteId: string, actorId: string) {
  const [found] = await tx
    .select({ id: annotations.id, status: annotations.status, text: annotations.annotationText })
    .from(annotations)
    .where(and(eq(annotations.remoteNoteId, noteId), eq(annotations.remoteActorId, actorId)))
    .for("update");
  return found ?? null;
}

/**
 * Its author edited their reply: the new text replaces the old, and one that was approved goes
 * back to the owner's review (what they approved is not what it says now).
 */
export async function editRemoteReply(
  tx: Executor,
  id: number,
  text: string,
  previous: AnnotationStatus,
) {
  const status = previous === "approved" ? "pending" : previous;
  const [row] = await tx
    .update(annotations)
    .set({ annotationText: text, status })
    .where(eq(annotations.id, id))
    .returning();
  if (!row) throw new Error("update returned no row");
  const [owner] = await tx
    .select({ id: users.id, username: users.username })
    .from(prisms)
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(eq(prisms.id, row.prismId));
  if (!owner) throw new Error("the prism has no owner");
  return { row, owner };
}

/** An owner's reply to a fediverse reply, to be sent to its author. */
export interface ReplyNote {
  annotation: typeof annotations.$inferSelect;
  owner: UserRow;
  /** Sent before: this is a rewrite (an `Update`), not the first (`Create`). */
  sentBefore: boolean;
}

/** A fediverse reply the owner approved and answered, its author not silenced. */
const answeredReply = and(
  eq(annotations.source, "fediverse"),
  eq(annotations.status, "approved"),
  eq(annotations.silenced, false),
  isNotNull(annotations.replyText),
);

/**
 * The owner's replies on the prism's approved fediverse replies that their authors have not been
 * sent as written now, recorded as sent in the same transaction (so that each is sent once,
 * however many processes hear of it). Answers on a prism that does not federate (its audience
 * narrowed, its page unlisted, its owner no longer an actor) are neither sent nor marked sent.
 */
export async function unsentReplies(tx: Executor, prismId: number): Promise<ReplyNote[]> {
  const written = sql`coalesce(${annotations.replyUpdatedAt}, ${annotations.repliedAt})`;
  const found = await tx
    .select({ annotation: annotations, owner: users })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(
      and(
        eq(annotations.prismId, prismId),
        answeredReply,
        prismFederates,
        sql`(${isNull(annotations.replySentAt)} or ${lt(annotations.replySentAt, written)})`,
      ),
    )
    .for("update", { of: annotations, skipLocked: true });
  if (found.length > 0) {
    const ids = found.map(({ annotation }) => annotation.id);
    await tx
      .update(annotations)
      .set({ replySentAt: new Date() })
      .where(inArray(annotations.id, ids));
  }
  return found.map(({ annotation, owner }) => ({
    annotation,
    owner,
    sentBefore: annotation.replySentAt !== null,
  }));
}

/** A fediverse reply whose owner's answer was sent, while it stays approved; null otherwise. */
export async function sentReply(tx: Executor, id: number) {
  const [found] = await tx
    .select()
    .from(annotations)
    .where(and(eq(annotations.id, id), answeredReply, isNotNull(annotations.replySentAt)));
  return found ?? null;
}
