// Draws a prism's resonance as heat with the CSS Custom Highlight API (as annotations/highlights
// does): one named highlight per level (`prism-heat-1` … `prism-heat-4`, styled in styles.css),
// and `prism-heat-focus` for the passage the owner points at in the list. The text's DOM is left
// alone; the same ranges answer which stretch lies under the pointer.
import { type RefObject, useCallback, useEffect, useRef } from "react";
import type { PassageCount } from "../../../contract/resonance.ts";
import { rangeFor } from "../annotations/text-offsets.ts";
import { HEAT_LEVELS, heatLevel } from "./passages.ts";

const FOCUS_NAME = "prism-heat-focus";
const levelName = (level: number) => `prism-heat-${level}`;

interface Drawn {
  segment: PassageCount;
  range: Range;
}

const drawnByPrism = new Map<number, Drawn[]>();
const focusByPrism = new Map<number, Range>();

const supported = () => typeof CSS !== "undefined" && "highlights" in CSS;

function set(name: string, ranges: Range[]) {
  if (ranges.length === 0) CSS.highlights.delete(name);
  else CSS.highlights.set(name, new Highlight(...ranges));
}

function redraw() {
  if (!supported()) return;
  const all = [...drawnByPrism.values()].flat();
  for (const { level } of HEAT_LEVELS) {
    set(
      levelName(level),
      all.filter((d) => heatLevel(d.segment.count) === level).map((d) => d.range),
    );
  }
  set(FOCUS_NAME, [...focusByPrism.values()]);
}

/**
 * Draws `segments` over one prism's rendered content (`content` is its HTML: a new one re-renders
 * the DOM the ranges point into), and marks `focus` (a stretch, or null). Answers the segment
 * drawn at a point of the viewport, or null.
 */
export function useHeatHighlights(
  contentRef: RefObject<HTMLElement | null>,
  prismId: number,
  content: string,
  segments: readonly PassageCount[],
  focus: { start: number; end: number } | null,
): (x: number, y: number) => PassageCount | null {
  const drawn = useRef<Drawn[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new content string re-renders the DOM the ranges point into
  useEffect(() => {
    const root = contentRef.current;
    if (!root) return;
    drawn.current = segments
      .map((segment) => ({ segment, range: rangeFor(root, segment.start, segment.end) }))
      .filter((entry): entry is Drawn => entry.range !== null);
    drawnByPrism.set(prismId, drawn.current);
    redraw();
    return () => {
      drawn.current = [];
      drawnByPrism.delete(prismId);
      redraw();
    };
  }, [contentRef, prismId, content, segments]);

  const focusStart = focus?.start ?? -1;
  const focusEnd = focus?.end ?? -1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above, the content's DOM
  useEffect(() => {
    const root = contentRef.current;
    const range = root && focusStart >= 0 ? rangeFor(root, focusStart, focusEnd) : null;
    if (!range) return;
    focusByPrism.set(prismId, range);
    redraw();
    return () => {
      focusByPrism.delete(prismId);
      redraw();
    };
  }, [contentRef, prismId, content, focusStart, focusEnd]);

  return useCallback((x: number, y: number) => {
    const hit = drawn.current.find((entry) =>
      Array.from(entry.range.getClientRects()).some(
        (rect) => x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom,
      ),
    );
    return hit?.segment ?? null;
  }, []);
}
