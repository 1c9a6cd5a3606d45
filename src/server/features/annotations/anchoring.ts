// Finds an annotation's passage again after its prism was edited. The method (after Hypothesis,
// with a minimum score that Hypothesis lacks) is described in docs/decisions/0004-anchoring.md.
import search from "approx-string-match";
import { quoteContext } from "../../../contract/plain-text.ts";

export interface Anchor {
  /** The passage the reader selected, as they saw it. */
  exact: string;
  prefix: string;
  suffix: string;
  start: number;
  end: number;
}

interface Placement {
  start: number;
  end: number;
  prefix: string;
  suffix: string;
}

// Weights of the parts of a candidate's score (Hypothesis uses the same proportions).
const WEIGHT = { quote: 50, prefix: 20, suffix: 20, position: 2 } as const;
const TOTAL_WEIGHT = WEIGHT.quote + WEIGHT.prefix + WEIGHT.suffix + WEIGHT.position;
/** A fuzzy candidate must differ from the quote in at most this share of its characters… */
const MAX_QUOTE_ERROR_RATE = 0.25;
/** …and reach this overall score, or the annotation is orphaned rather than misplaced. */
const MIN_FUZZY_SCORE = 0.7;

function place(text: string, start: number, end: number): Placement {
  return { start, end, ...quoteContext(text, start, end) };
}

/** 1 for identical strings, falling towards 0 with each edit needed (0 when one is empty). */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  const [{ errors = Math.max(a.length, b.length) } = {}] = search(a, b, b.length);
  // search() finds b inside a; the length difference counts as edits too.
  return Math.max(
    0,
    1 - (errors + Math.max(0, a.length - b.length)) / Math.max(a.length, b.length),
  );
}

function score(
  text: string,
  anchor: Anchor,
  start: number,
  end: number,
  quoteSimilarity: number,
): number {
  const prefix = text.slice(Math.max(0, start - anchor.prefix.length), start);
  const suffix = text.slice(end, end + anchor.suffix.length);
  const prefixScore = anchor.prefix ? similarity(prefix, anchor.prefix) : 1;
  const suffixScore = anchor.suffix ? similarity(suffix, anchor.suffix) : 1;
  const positionScore = 1 - Math.min(1, Math.abs(start - anchor.start) / Math.max(text.length, 1));
  return (
    (WEIGHT.quote * quoteSimilarity +
      WEIGHT.prefix * prefixScore +
      WEIGHT.suffix * suffixScore +
      WEIGHT.position * positionScore) /
    TOTAL_WEIGHT
  );
}

/**
 * Where the anchored passage is in `text` now, or null when it can no longer be found:
 * 1. the stored offsets, if the text there is still the quote;
 * 2. else the exact quote, the best of several occurrences by context and distance;
 * 3. else the closest approximate match, accepted only above MIN_FUZZY_SCORE.
 */
export function reanchor(anchor: Anchor, text: string): Placement | null {
  const { exact } = anchor;
  if (!exact) return null;
  if (text.slice(anchor.start, anchor.end) === exact) return place(text, anchor.start, anchor.end);

  let best: { start: number; score: number } | null = null;
  for (let at = text.indexOf(exact); at !== -1; at = text.indexOf(exact, at + 1)) {
    const candidate = score(text, anchor, at, at + exact.length, 1);
    if (!best || candidate > best.score) best = { start: at, score: candidate };
  }
  if (best) return place(text, best.start, best.start + exact.length);

  const maxErrors = Math.floor(exact.length * MAX_QUOTE_ERROR_RATE);
  if (maxErrors === 0) return null;
  let fuzzy: { start: number; end: number; score: number } | null = null;
  for (const match of search(text, exact, maxErrors)) {
    if (match.end <= match.start) continue;
    const quoteSimilarity = 1 - match.errors / exact.length;
    const candidate = score(text, anchor, match.start, match.end, quoteSimilarity);
    if (!fuzzy || candidate > fuzzy.score)
      fuzzy = { start: match.start, end: match.end, score: candidate };
  }
  if (!fuzzy || fuzzy.score < MIN_FUZZY_SCORE) return null;
  return place(text, fuzzy.start, fuzzy.end);
}
