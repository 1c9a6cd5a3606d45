// One version's words against the version before, found within a frame's work whatever the two
// texts are: word by word when they differ by a bounded number of words, else as one changed
// stretch between the words they begin and end with alike.
import { type Change, diffWords } from "diff";

/**
 * The most words and punctuation marks that may be added and removed, together, for two versions
 * to be compared word by word: a rewritten paragraph of some 130 words. The comparison's steps
 * grow with the square of this (about 45,000 for 300), so two versions of 50 KB made to be as
 * costly as possible take about 12 ms on a busy core, where unbounded they took over a minute.
 */
export const MAX_WORD_EDITS = 300;

/** A stretch of text: in both versions, or added, or removed. */
export type Part = Pick<Change, "value" | "added" | "removed">;

export interface WordChanges {
  parts: Part[];
  /** False when the versions differ by more than MAX_WORD_EDITS and only a stretch is marked. */
  wordByWord: boolean;
}

export function wordChanges(before: string, after: string): WordChanges {
  const parts = diffWords(before, after, { maxEditLength: MAX_WORD_EDITS });
  return parts
    ? { parts, wordByWord: true }
    : { parts: changedStretch(before, after), wordByWord: false };
}

const space = /\s/;

/**
 * `before` and `after` as what they begin and end with alike (cut at a space, so no word is
 * split), and between them `before`'s stretch removed and `after`'s added: one pass over each.
 */
function changedStretch(before: string, after: string): Part[] {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before[start] === after[start]) start += 1;
  while (start > 0 && !space.test(before[start - 1] as string)) start -= 1;
  let end = 0;
  while (end < shorter - start && before.at(-1 - end) === after.at(-1 - end)) end += 1;
  while (end > 0 && !space.test(before.at(-end) as string)) end -= 1;
  const parts: Part[] = [
    { value: before.slice(0, start), added: false, removed: false },
    { value: before.slice(start, before.length - end), added: false, removed: true },
    { value: after.slice(start, after.length - end), added: true, removed: false },
    { value: before.slice(before.length - end), added: false, removed: false },
  ];
  return parts.filter((part) => part.value);
}
