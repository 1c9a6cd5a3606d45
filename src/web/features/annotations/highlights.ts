// Draws annotated passages with the CSS Custom Highlight API, which marks text without
// changing the rich text's DOM (no wrapper elements to break selection offsets), and finds the
// annotation under a click or tap from the same ranges.
import { type RefObject, useCallback, useEffect, useRef } from "react";
import type { Annotation, AnnotationStatus } from "../../../contract/annotations.ts";
import { rangeFor } from "./text-offsets.ts";

const HIGHLIGHT_NAME = "prism-annotation";
const rangesByPrism = new Map<number, Range[]>();

function redraw() {
  if (typeof CSS === "undefined" || !("highlights" in CSS)) return;
  const all = [...rangesByPrism.values()].flat();
  if (all.length === 0) CSS.highlights.delete(HIGHLIGHT_NAME);
  else CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(...all));
}

interface Drawn {
  annotationId: number;
  length: number;
  range: Range;
}

/** What a reader's page highlights: the responses the owner has approved. */
export const APPROVED: readonly AnnotationStatus[] = ["approved"];

/**
 * Highlights the anchored annotations of one prism's rendered content whose status is among
 * `statuses` (a constant, such as APPROVED). Answers which of them is drawn at a point of the
 * viewport (the shortest, where several overlap), or null.
 */
export function useAnnotationHighlights(
  contentRef: RefObject<HTMLElement | null>,
  prismId: number,
  content: string,
  annotations: Annotation[],
  statuses: readonly AnnotationStatus[],
  enabled: boolean,
): (x: number, y: number) => number | null {
  const drawn = useRef<Drawn[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new content string re-renders the DOM the ranges point into
  useEffect(() => {
    const root = contentRef.current;
    if (!enabled || !root) return;
    drawn.current = annotations
      .filter((a) => statuses.includes(a.status) && !a.orphaned)
      .map((a) => ({
        annotationId: a.id,
        length: a.selectionEnd - a.selectionStart,
        range: rangeFor(root, a.selectionStart, a.selectionEnd),
      }))
      .filter((entry): entry is Drawn => entry.range !== null);
    rangesByPrism.set(
      prismId,
      drawn.current.map((entry) => entry.range),
    );
    redraw();
    return () => {
      drawn.current = [];
      rangesByPrism.delete(prismId);
      redraw();
    };
  }, [contentRef, prismId, content, annotations, statuses, enabled]);

  return useCallback((x: number, y: number) => {
    const hits = drawn.current.filter((entry) =>
      Array.from(entry.range.getClientRects()).some(
        (rect) => x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom,
      ),
    );
    hits.sort((a, b) => a.length - b.length);
    return hits[0]?.annotationId ?? null;
  }, []);
}
