// Finds an annotation's passage again after its prism was edited, with bounded work. The method
// (after Hypothesis, with a minimum score that Hypothesis lacks, and a work budget) is described
// in docs/decisions/0004-anchoring.md.
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
/** …and never in more than this many characters, however long the quote… */
const MAX_QUOTE_ERRORS = 64;
/** …and reach this overall score, or the annotation is orphaned rather than misplaced. */
const MIN_FUZZY_SCORE = 0.7;
/** Longer quotes are looked for by their first and last PROBE characters, then compared whole. */
const PROBE = 32;

/**
 * Work that re-anchoring the annotations of one save may do, in characters scanned and table
 * cells filled: 10 million units take about 0.15 s on a laptop core. Enough to follow 100
 * reworded passages through a 20 KB prism; a passage not yet found when it is spent is orphaned,
 * and a later save tries again.
 */
export const ANCHORING_WORK_BUDGET = 10_000_000;

/** What one save may still spend on re-anchoring, shared by all of the prism's annotations. */
export class WorkBudget {
  constructor(public remaining = ANCHORING_WORK_BUDGET) {}

  /** Takes `units` if that many are left. */
  spend(units: number): boolean {
    if (units > this.remaining) return false;
    this.remaining -= units;
    return true;
  }
}

function place(text: string, start: number, end: number): Placement {
  return { start, end, ...quoteContext(text, start, end) };
}

/**
 * The edit distance of `a` and `b` when it is at most `max`, else `max + 1`: the dynamic program
 * restricted to the band of width 2·max + 1 around the diagonal, so its cost is
 * |a| · (2·max + 1) cells rather than |a| · |b|.
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const over = max + 1;
  let previous = new Int32Array(b.length + 1).fill(over);
  let current = new Int32Array(b.length + 1).fill(over);
  for (let j = 0; j <= Math.min(b.length, max); j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    // Cells just outside the band are read by the next row: they count as too far.
    current[from - 1] = i <= max ? i : over;
    if (to < b.length) current[to + 1] = over;
    let best = current[from - 1] as number;
    for (let j = from; j <= to; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      const value = Math.min(
        substitution,
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        over,
      );
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return over;
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}

/** 1 for identical strings, falling towards 0 with each edit needed (0 when one is empty). */
function similarity(a: string, b: string, budget: WorkBudget): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (!a || !b || !budget.spend(longest * longest)) return 0;
  return 1 - boundedDistance(a, b, longest) / longest;
}

function score(
  text: string,
  anchor: Anchor,
  start: number,
  end: number,
  quoteSimilarity: number,
  budget: WorkBudget,
): number {
  const prefix = text.slice(Math.max(0, start - anchor.prefix.length), start);
  const suffix = text.slice(end, end + anchor.suffix.length);
  const prefixScore = anchor.prefix ? similarity(prefix, anchor.prefix, budget) : 1;
  const suffixScore = anchor.suffix ? similarity(suffix, anchor.suffix, budget) : 1;
  const positionScore = 1 - Math.min(1, Math.abs(start - anchor.start) / Math.max(text.length, 1));
  return (
    (WEIGHT.quote * quoteSimilarity +
      WEIGHT.prefix * prefixScore +
      WEIGHT.suffix * suffixScore +
      WEIGHT.position * positionScore) /
    TOTAL_WEIGHT
  );
}

interface Found {
  start: number;
  end: number;
  errors: number;
}

/**
 * Where `pattern` (at most 32 characters) occurs in `text[from, to)` with the fewest edits (at
 * most `maxErrors`), the nearest to `near` among equals: one pass of Myers' bit-parallel
 * algorithm that keeps only the best end (so repetitive text costs no more than any other), then
 * the start found by comparing the few possible beginnings. Costs `to - from` units and a little.
 */
function bestMatch(
  text: string,
  pattern: string,
  maxErrors: number,
  near: number,
  range: { from: number; to: number },
  budget: WorkBudget,
): Found | null {
  const m = pattern.length;
  const from = Math.max(0, range.from);
  const to = Math.min(text.length, range.to);
  if (m === 0 || m > PROBE || to - from < m - maxErrors) return null;
  if (!budget.spend(to - from + (2 * maxErrors + 1) * m * (2 * maxErrors + 1))) return null;
  // Bit i is set where the pattern has that character at i: an array for Latin-1, a map beyond.
  const latin = new Int32Array(256);
  const others = new Map<number, number>();
  for (let i = 0; i < m; i++) {
    const code = pattern.charCodeAt(i);
    if (code < 256) latin[code] = (latin[code] as number) | (1 << i);
    else others.set(code, (others.get(code) ?? 0) | (1 << i));
  }
  const last = 1 << (m - 1);
  let pv = -1;
  let mv = 0;
  let errors = m;
  let best: { end: number; errors: number } | null = null;
  for (let j = from; j < to; j++) {
    const code = text.charCodeAt(j);
    const eq = code < 256 ? (latin[code] as number) : (others.get(code) ?? 0);
    const xv = eq | mv;
    const xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & last) errors += 1;
    else if (mh & last) errors -= 1;
    ph <<= 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    const end = j + 1;
    if (
      errors <= maxErrors &&
      (!best ||
        errors < best.errors ||
        (errors === best.errors && Math.abs(end - m - near) < Math.abs(best.end - m - near)))
    ) {
      best = { end, errors };
    }
  }
  if (!best) return null;
  // The longest stretch ending there that is that close to the pattern.
  const { end } = best;
  for (let start = Math.max(from, end - m - best.errors); start <= end - m + best.errors; start++) {
    const distance = boundedDistance(text.slice(start, end), pattern, best.errors);
    if (distance <= best.errors) return { start, end, errors: distance };
  }
  return null;
}

interface Candidate {
  start: number;
  end: number;
  score: number;
}

/** The best approximate occurrence of the quote, found by probes and checked whole. */
function fuzzyMatch(text: string, anchor: Anchor, budget: WorkBudget): Candidate | null {
  const { exact } = anchor;
  const m = exact.length;
  const maxErrors = Math.min(Math.floor(m * MAX_QUOTE_ERROR_RATE), MAX_QUOTE_ERRORS);
  if (maxErrors === 0) return null;
  const whole = { from: 0, to: text.length };
  /** A possible place compared with the whole quote: scored, or null when too different. */
  const evaluate = (span: { start: number; end: number } | null): Candidate | null => {
    if (!span || span.end <= span.start || !budget.spend(m * (2 * maxErrors + 1))) return null;
    const distance = boundedDistance(text.slice(span.start, span.end), exact, maxErrors);
    if (distance > maxErrors) return null;
    return { ...span, score: score(text, anchor, span.start, span.end, 1 - distance / m, budget) };
  };
  if (m <= PROBE) return evaluate(bestMatch(text, exact, maxErrors, anchor.start, whole, budget));

  // The head found anywhere, then the tail where the quote's length puts it; failing that, the
  // reverse, so that a passage reworded at its start is still found by its end.
  const probeErrors = Math.floor(PROBE * MAX_QUOTE_ERROR_RATE);
  const head = exact.slice(0, PROBE);
  const tail = exact.slice(-PROBE);
  let best: Candidate | null = null;
  const h = bestMatch(text, head, probeErrors, anchor.start, whole, budget);
  if (h) {
    const end = h.start + m;
    const window = { from: end - PROBE - maxErrors, to: end + maxErrors };
    const t = bestMatch(text, tail, probeErrors, end - PROBE, window, budget);
    best = evaluate({ start: h.start, end: t?.end ?? Math.min(text.length, end) });
    if (best && best.score >= MIN_FUZZY_SCORE) return best;
  }
  const t = bestMatch(text, tail, probeErrors, anchor.end - PROBE, whole, budget);
  if (t) {
    const start = t.end - m;
    const window = { from: start - maxErrors, to: start + PROBE + maxErrors };
    const found = bestMatch(text, head, probeErrors, start, window, budget);
    const other = evaluate({ start: found?.start ?? Math.max(0, start), end: t.end });
    if (other && (!best || other.score > best.score)) best = other;
  }
  return best;
}

/**
 * Where the anchored passage is in `text` now, or null when it can no longer be found or the
 * budget is spent:
 * 1. the stored offsets, if the text there is still the quote;
 * 2. else the exact quote, the best of its occurrences by context and distance;
 * 3. else the closest approximate match, accepted only above MIN_FUZZY_SCORE.
 */
export function reanchor(
  anchor: Anchor,
  text: string,
  budget: WorkBudget = new WorkBudget(),
): Placement | null {
  const { exact } = anchor;
  if (!exact) return null;
  if (text.slice(anchor.start, anchor.end) === exact) return place(text, anchor.start, anchor.end);
  if (!budget.spend(text.length)) return null;

  let best: { start: number; score: number } | null = null;
  for (let at = text.indexOf(exact); at !== -1; at = text.indexOf(exact, at + 1)) {
    // Past the budget, the best occurrence so far is taken.
    if (best && !budget.spend(exact.length)) break;
    const candidate = score(text, anchor, at, at + exact.length, 1, budget);
    if (!best || candidate > best.score) best = { start: at, score: candidate };
  }
  if (best) return place(text, best.start, best.start + exact.length);

  const fuzzy = fuzzyMatch(text, anchor, budget);
  if (!fuzzy || fuzzy.score < MIN_FUZZY_SCORE) return null;
  return place(text, fuzzy.start, fuzzy.end);
}
