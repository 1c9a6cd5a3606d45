// The owner's resonance map of one open prism: heat over the stretches responses cover (approved
// and pending), a legend, the sentence that says it in words, and the passages as a list whose
// items mark their stretch in the text and say their counts, so that neither colour nor a mouse
// is needed. Over the text itself, a pointer or a tap shows the count of the stretch beneath it.
// Loaded only when the owner turns Resonance on.
import { type RefObject, useEffect, useId, useMemo, useState } from "react";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { PassageCount } from "../../../contract/resonance.ts";
import { LoadError } from "../../components/ui/load-error.tsx";
import { cn } from "../../lib/cn.ts";
import { useHeatHighlights } from "./heat-highlights.ts";
import {
  HEAT_LEVELS,
  type Passage,
  passagesOf,
  quoteOf,
  resonanceSummary,
  responsesLabel,
} from "./passages.ts";
import { useResonance } from "./resonance-queries.ts";

const NO_SEGMENTS: PassageCount[] = [];

/** The legend's swatch of a level: the same colours as the highlight (styles.css). */
const SWATCH: Record<number, string> = {
  1: "bg-[var(--heat-1)]",
  2: "bg-[var(--heat-2)]",
  3: "bg-[var(--heat-3)]",
  4: "bg-[var(--heat-4)]",
};

const countOf = (passage: Passage) =>
  passage.most === passage.least
    ? responsesLabel(passage.most)
    : `${passage.least}–${passage.most} responses`;

export function ResonanceMap({
  prism,
  contentRef,
}: {
  prism: { id: number; title: string; content: string };
  /** The prism's rendered content, which the heat is drawn over. */
  contentRef: RefObject<HTMLElement | null>;
}) {
  const resonance = useResonance(prism.id);
  const segments = resonance.data?.segments ?? NO_SEGMENTS;
  const plainText = useMemo(() => htmlToPlainText(prism.content), [prism.content]);
  const passages = useMemo(() => passagesOf(segments), [segments]);
  const [marked, setMarked] = useState<Passage | null>(null);
  const segmentAt = useHeatHighlights(contentRef, prism.id, prism.content, segments, marked);
  const [pointed, setPointed] = useState<{
    count: number;
    x: number;
    y: number;
    /** The page's scroll when the pointer was read. */
    scrollX: number;
    scrollY: number;
  } | null>(null);
  const summaryId = useId();
  const headingId = useId();

  // A pointer over the text (or a tap on it) shows the count of the stretch beneath it.
  useEffect(() => {
    const root = contentRef.current;
    if (!root) return;
    const show = (event: MouseEvent) => {
      const segment = segmentAt(event.clientX, event.clientY);
      setPointed(
        segment
          ? {
              count: segment.count,
              x: event.clientX,
              y: event.clientY,
              scrollX: window.scrollX,
              scrollY: window.scrollY,
            }
          : null,
      );
    };
    // A mouse that leaves the text takes the count away; a finger does not: it never hovered, and
    // once it has tapped, browsers say it left (Chromium says its mouse did too, at 0, 0) while
    // the count it showed should stay until the next tap or a scroll.
    const hide = (event: PointerEvent) => {
      if (event.pointerType !== "touch") setPointed(null);
    };
    // A scroll moves the words from under the count. Its event comes a frame after it, so one that
    // arrives after the pointer was read may be of a scroll made before: that one changes nothing.
    const scrolled = () =>
      setPointed((now) =>
        now && now.scrollX === window.scrollX && now.scrollY === window.scrollY ? now : null,
      );
    root.addEventListener("mousemove", show);
    root.addEventListener("click", show);
    root.addEventListener("pointerleave", hide);
    window.addEventListener("scroll", scrolled, { passive: true });
    return () => {
      root.removeEventListener("mousemove", show);
      root.removeEventListener("click", show);
      root.removeEventListener("pointerleave", hide);
      window.removeEventListener("scroll", scrolled);
    };
  }, [contentRef, segmentAt]);

  if (resonance.isError) {
    return (
      <LoadError
        compact
        className="mt-6"
        message="Could not load this prism's resonance."
        onRetry={() => void resonance.refetch()}
        retrying={resonance.isFetching}
      />
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      aria-describedby={resonance.data ? summaryId : undefined}
      className="mt-6 rounded-xl border border-border bg-muted/40 p-4"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
        <h3 id={headingId} className="text-sm font-semibold">
          Resonance
        </h3>
        <ul aria-label="Legend: responses per stretch" className="flex flex-wrap gap-3 text-xs">
          {HEAT_LEVELS.map(({ level, label }) => (
            <li key={level} className="flex items-center gap-1.5">
              <span
                aria-hidden="true"
                className={cn(
                  "inline-block h-3 w-5 rounded-sm border border-border",
                  SWATCH[level],
                )}
              />
              {label}
            </li>
          ))}
        </ul>
      </div>
      {resonance.isPending ? (
        <p role="status" className="mt-3 text-sm text-muted-foreground">
          Loading resonance…
        </p>
      ) : (
        <>
          <p id={summaryId} data-testid="resonance-summary" className="mt-3 text-sm">
            {resonanceSummary(segments, plainText)}
          </p>
          {passages.length > 0 ? (
            <ol aria-label="Passages and their responses" className="mt-3 grid gap-1">
              {passages.map((passage) => {
                const quote = quoteOf(plainText, passage.start, passage.end);
                const isMarked = marked?.start === passage.start;
                return (
                  <li key={passage.start}>
                    <button
                      type="button"
                      // A tap (or Enter) marks the stretch as focus does; it stays marked until
                      // the list item loses focus.
                      onClick={() => setMarked(passage)}
                      onFocus={() => setMarked(passage)}
                      onMouseEnter={() => setMarked(passage)}
                      onMouseLeave={() => setMarked(null)}
                      onBlur={() => setMarked(null)}
                      className={cn(
                        "flex w-full cursor-pointer items-baseline justify-between gap-3 rounded-md px-2 py-1 text-left text-sm hover:bg-background focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                        isMarked && "bg-background",
                      )}
                    >
                      <span className="min-w-0 font-serif italic">‘{quote}’</span>
                      <span className="shrink-0 text-xs font-medium text-muted-foreground">
                        {countOf(passage)}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ol>
          ) : null}
        </>
      )}
      {pointed ? (
        <div
          role="tooltip"
          style={{ left: pointed.x, top: pointed.y - 8 }}
          className="pointer-events-none fixed z-50 -translate-x-1/2 -translate-y-full rounded-md bg-foreground px-2 py-1 text-xs text-background shadow"
        >
          {responsesLabel(pointed.count)}
        </div>
      ) : null}
    </section>
  );
}
