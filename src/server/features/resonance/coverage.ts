// How responses cover a prism's text: the stretches between their passages' ends, and how many
// responses, or different people, cover each.
import type { PassageCount } from "../../../contract/resonance.ts";

export interface Span {
  start: number;
  end: number;
  /** Who wrote it: spans of one person count once where `people` is asked. */
  who: string;
}

/**
 * Disjoint stretches in order, each with how many spans cover all of it (or how many different
 * people's, with `people`); touching stretches of one count are one, uncovered ones left out.
 */
export function coverage(spans: Span[], people = false): PassageCount[] {
  const ends = spans
    .flatMap((span) => [
      { at: span.start, who: span.who, delta: 1 },
      { at: span.end, who: span.who, delta: -1 },
    ])
    .sort((a, b) => a.at - b.at);
  const open = new Map<string, number>();
  let responses = 0;
  const stretches: PassageCount[] = [];
  for (let i = 0; i < ends.length; ) {
    const at = ends[i]?.at ?? 0;
    for (let end = ends[i]; end !== undefined && end.at === at; end = ends[++i]) {
      responses += end.delta;
      const theirs = (open.get(end.who) ?? 0) + end.delta;
      if (theirs === 0) open.delete(end.who);
      else open.set(end.who, theirs);
    }
    const next = ends[i]?.at;
    const count = people ? open.size : responses;
    if (next === undefined || count === 0) continue;
    const last = stretches.at(-1);
    if (last && last.end === at && last.count === count) last.end = next;
    else stretches.push({ start: at, end: next, count });
  }
  return stretches;
}

/** The most-covered stretch, the earliest of equals, if it is covered at least `least` times. */
export function mostCovered(stretches: PassageCount[], least: number): PassageCount | null {
  let best: PassageCount | null = null;
  for (const stretch of stretches) if (stretch.count > (best?.count ?? 0)) best = stretch;
  return best && best.count >= least ? best : null;
}
