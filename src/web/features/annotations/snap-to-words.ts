// A passage is quoted in whole words: a selection that starts or ends inside a word (a drag that
// stopped short, a long-press handle dropped mid-word) takes in the rest of that word.
import type { TextSelection } from "./text-offsets.ts";

// Made at the first selection: Intl's language data loads with it, a cost the page's load need not pay.
let words: Intl.Segmenter | undefined;

/**
 * The passage [start, end) of `text`, trimmed of surrounding whitespace and widened to whole
 * words (letters, digits and a word's own apostrophes, in any script); punctuation the reader
 * selected stays. Null when only whitespace is selected.
 */
export function snapToWords(text: string, start: number, end: number): TextSelection | null {
  let from = Math.max(0, start);
  let to = Math.min(text.length, end);
  while (from < to && /\s/.test(text[from] ?? "")) from++;
  while (to > from && /\s/.test(text[to - 1] ?? "")) to--;
  if (to <= from) return null;

  words ??= new Intl.Segmenter(undefined, { granularity: "word" });
  const segments = words.segment(text);
  const first = segments.containing(from);
  if (first?.isWordLike && first.index < from) from = first.index;
  const last = segments.containing(to - 1);
  if (last?.isWordLike) to = Math.max(to, last.index + last.segment.length);
  return { selectedText: text.slice(from, to), selectionStart: from, selectionEnd: to };
}
