// Draws annotated passages with the CSS Custom Highlight API, which marks text without
// changing the rich text's DOM (no wrapper elements to break selection offsets).
import { type RefObject, useEffect } from "react";
import type { Annotation } from "../../../contract/annotations.ts";
import { rangeFor } from "./text-offsets.ts";

const HIGHLIGHT_NAME = "prism-annotation";
const rangesByPrism = new Map<number, Range[]>();

function redraw() {
  if (typeof CSS === "undefined" || !("highlights" in CSS)) return;
  const all = [...rangesByPrism.values()].flat();
  if (all.length === 0) CSS.highlights.delete(HIGHLIGHT_NAME);
  else CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(...all));
}

/** Highlights the approved, anchored annotations of one prism's rendered content. */
export function useAnnotationHighlights(
  contentRef: RefObject<HTMLElement | null>,
  prismId: number,
  content: string,
  annotations: Annotation[],
  enabled: boolean,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new content string re-renders the DOM the ranges point into
  useEffect(() => {
    const root = contentRef.current;
    if (!enabled || !root) return;
    const ranges = annotations
      .filter((a) => a.status === "approved" && !a.orphaned)
      .map((a) => rangeFor(root, a.selectionStart, a.selectionEnd))
      .filter((range): range is Range => range !== null);
    rangesByPrism.set(prismId, ranges);
    redraw();
    return () => {
      rangesByPrism.delete(prismId);
      redraw();
    };
  }, [contentRef, prismId, content, annotations, enabled]);
}
