// A prism's "Top passage", for every reader: the stretch at least 3 different people's approved
// responses overlap, marked in the text with a highlight of its own (the CSS Custom Highlight API,
// which moves no text) and named in a note the server renders with the page, so that nothing
// shifts when the mark is drawn and neither colour nor sight is needed to learn of it.
import { type RefObject, useEffect } from "react";
import type { TopPassage } from "../../../contract/resonance.ts";
import { rangeFor } from "../annotations/text-offsets.ts";

const HIGHLIGHT_NAME = "prism-top-passage";
const rangeByPrism = new Map<number, Range>();

function redraw() {
  if (typeof CSS === "undefined" || !("highlights" in CSS)) return;
  const all = [...rangeByPrism.values()];
  if (all.length === 0) CSS.highlights.delete(HIGHLIGHT_NAME);
  else CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(...all));
}

/** Marks `top` (or nothing, when null or `enabled` is false) in one prism's rendered content. */
export function useTopPassageHighlight(
  contentRef: RefObject<HTMLElement | null>,
  prismId: number,
  content: string,
  top: TopPassage | null,
  enabled: boolean,
) {
  const start = top?.start ?? -1;
  const end = top?.end ?? -1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new content string re-renders the DOM the range points into
  useEffect(() => {
    const root = contentRef.current;
    const range = enabled && root && start >= 0 ? rangeFor(root, start, end) : null;
    if (!range) return;
    rangeByPrism.set(prismId, range);
    redraw();
    return () => {
      rangeByPrism.delete(prismId);
      redraw();
    };
  }, [contentRef, prismId, content, start, end, enabled]);
}

const peopleLabel = (count: number) =>
  count === 1 ? "1 person responded" : `${count} people responded`;

/** The note under the prism's text that names its top passage. */
export function TopPassageNote({ top }: { top: TopPassage }) {
  return (
    <p className="mt-4 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm" data-top-passage="">
      <span className="inline-flex items-center rounded-full bg-primary px-2.5 py-0.5 text-xs font-medium text-primary-foreground">
        Top passage
      </span>
      <q className="font-serif italic">{top.text}</q>
      <span className="text-muted-foreground">· {peopleLabel(top.count)}</span>
    </p>
  );
}
