// The score of a response written without an account: what about it looks like a script's, each
// with its weight and the words the owner's review queue shows for it. A response that scores
// SPAM_SCORE or more is set aside as spam; below, it waits for review as any other.
import type { ResponseSignals } from "../../db/schema.ts";

/** The score at which a response is set aside as spam. */
export const SPAM_SCORE = 3;

/** What its author's earlier responses to this owner's prisms became. */
export interface AuthorHistory {
  approved: number;
  rejected: number;
  spam: number;
}

/** Links, bare domains (`example.com/…`) among them: what spam is written to carry. */
const LINK =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+\.(?:com|net|org|info|biz|ru|xyz|top|io|co)\/\S*/gi;

/** Letters of the alphabets spam mixes within a word to pass filters (Latin and its lookalikes). */
const SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

/** A word whose letters come from two of those alphabets ("pаypal" with a Cyrillic "а"). */
function mixesAlphabets(text: string): boolean {
  return text
    .split(/[^\p{L}]+/u)
    .some((word) => SCRIPTS.filter((script) => script.test(word)).length > 1);
}

/**
 * Latin letters and digits in disguise, as spam writes them to pass filters: fullwidth,
 * mathematical, circled or otherwise styled forms ("𝐅𝐑𝐄𝐄", "ｆｒｅｅ"), which Unicode's
 * compatibility folding (NFKC) turns back into plain ones. A ligature or a "²" pasted from a
 * document is one or two such characters, so it takes this many.
 */
const DISGUISED_MIN = 3;

/** Characters that show nothing (zero-width spaces and joiners, soft hyphens) within a Latin word. */
const HIDDEN_IN_WORD = /\p{Script=Latin}[\u00AD\u200B-\u200D\u2060\uFEFF]+\p{Script=Latin}/u;

/** Whether the text hides its words: letters in disguise, or characters that show nothing. */
function disguisesWords(text: string): boolean {
  if (HIDDEN_IN_WORD.test(text)) return true;
  let disguised = 0;
  for (const char of text) {
    if (char <= "\u007f") continue;
    const plain = char.normalize("NFKC");
    if (plain !== char && /^[A-Za-z0-9]+$/.test(plain)) disguised += 1;
    if (disguised >= DISGUISED_MIN) return true;
  }
  return false;
}

/**
 * Characters a second faster than a person types, on average over the time the form was open:
 * pasted text, or none typed at all. A person can paste too, so it weighs little.
 */
const TYPED_PER_SECOND_MAX = 25;

interface Scored {
  score: number;
  reasons: string[];
}

/** Whether the text carries a link (a bare domain with a path counts). */
export function hasLink(text: string): boolean {
  return (text.match(LINK)?.length ?? 0) > 0;
}

/** What the owner's content classifier makes of the text (see spam-model.ts): null, nothing. */
export type ContentVerdict = "spam" | "ham" | null;

/**
 * The response's score, and what made it look doubtful, in the words the owner reads. `links`:
 * whether links weigh (the owner may allow them); `content`: the owner's classifier's verdict.
 */
export function scoreResponse(
  text: string,
  signals: Pick<ResponseSignals, "typingMs" | "fediverse">,
  history: AuthorHistory,
  { links: weighLinks, content = null }: { links: boolean; content?: ContentVerdict } = {
    links: true,
  },
): Scored {
  const found: [weight: number, reason: string][] = [];
  const links = weighLinks ? (text.match(LINK)?.length ?? 0) : 0;
  if (links > 0)
    found.push([Math.min(links, 3), links === 1 ? "Has a link" : `Has ${links} links`]);
  if (mixesAlphabets(text)) found.push([3, "Mixes alphabets within a word"]);
  if (disguisesWords(text)) found.push([3, "Hides its words in lookalike or invisible characters"]);
  // A fediverse reply was written elsewhere: how long it took is not known here.
  if (
    !signals.fediverse &&
    text.length / Math.max(signals.typingMs / 1000, 1) > TYPED_PER_SECOND_MAX
  ) {
    found.push([1, "Written faster than anyone types"]);
  }
  if (history.spam > 0) found.push([3, "Earlier responses from this browser were spam"]);
  if (history.rejected > 1) found.push([1, "Earlier responses from this browser were rejected"]);
  if (history.approved > 0) found.push([-2, "Earlier responses from this browser were approved"]);
  if (content === "spam") found.push([3, "Looks like what you marked as spam"]);
  if (content === "ham") found.push([-1, "Looks like what you approved"]);
  return {
    score: found.reduce((sum, [weight]) => sum + weight, 0),
    reasons: found.flatMap(([weight, reason]) => (weight > 0 ? [reason] : [])),
  };
}
