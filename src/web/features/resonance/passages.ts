// The resonance map's words: segments gathered into passages, the heat level of a count, and the
// sentence that tells a screen reader (and everyone) what the colours show.
import type { PassageCount } from "../../../contract/resonance.ts";

/** A run of touching segments: a stretch responses cover without a gap. */
export interface Passage {
  start: number;
  end: number;
  /** The highest count of its segments. */
  most: number;
  /** The lowest count of its segments. */
  least: number;
}

/** Segments (disjoint, in order) gathered into passages: one where each ends as the next starts. */
export function passagesOf(segments: readonly PassageCount[]): Passage[] {
  const passages: Passage[] = [];
  for (const segment of segments) {
    const last = passages.at(-1);
    if (last && last.end === segment.start) {
      last.end = segment.end;
      last.most = Math.max(last.most, segment.count);
      last.least = Math.min(last.least, segment.count);
    } else {
      passages.push({
        start: segment.start,
        end: segment.end,
        most: segment.count,
        least: segment.count,
      });
    }
  }
  return passages;
}

/** The segment with the highest count, the earliest of those that tie; null for none. */
export function mostCovered(segments: readonly PassageCount[]): PassageCount | null {
  let most: PassageCount | null = null;
  for (const segment of segments) if (!most || segment.count > most.count) most = segment;
  return most;
}

/** The words of [start, end) of a prism's plain text, on one line. */
export function quoteOf(plainText: string, start: number, end: number): string {
  return plainText.slice(start, end).replace(/\s+/g, " ").trim();
}

export const responsesLabel = (count: number) =>
  count === 1 ? "1 response" : `${count} responses`;

/**
 * "3 passages drew responses; the most, 5, on 'I answer messages in batches'", or that none did.
 */
export function resonanceSummary(segments: readonly PassageCount[], plainText: string): string {
  const most = mostCovered(segments);
  if (!most) return "No passage has drawn responses yet.";
  const passages = passagesOf(segments).length;
  const drew = passages === 1 ? "1 passage drew" : `${passages} passages drew`;
  return `${drew} responses; the most, ${most.count}, on '${quoteOf(plainText, most.start, most.end)}'`;
}

/** The heat levels, lowest first: how many responses each stands for, as the legend says. */
export const HEAT_LEVELS = [
  { level: 1, from: 1, label: "1" },
  { level: 2, from: 2, label: "2" },
  { level: 3, from: 3, label: "3–4" },
  { level: 4, from: 5, label: "5+" },
] as const;

export type HeatLevel = (typeof HEAT_LEVELS)[number]["level"];

/** The level a stretch of `count` responses is drawn at. */
export function heatLevel(count: number): HeatLevel {
  let level: HeatLevel = 1;
  for (const step of HEAT_LEVELS) if (count >= step.from) level = step.level;
  return level;
}
