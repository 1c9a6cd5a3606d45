// The way into the annotation dialog from a selection: whatever made it (a mouse drag, a
// long-press on a phone, Shift and the arrow keys), a selection inside the prism shows a small
// Respond button beside it. The selection itself is left alone, so it can still be copied.
import { MessageSquareQuote } from "lucide-react";
import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { isCoarsePointer } from "../../lib/pointer.ts";
import { toastError } from "../../lib/toast.ts";
import { snapToWords } from "./snap-to-words.ts";
import { plainTextOf, rangeFor, selectionWithin, type TextSelection } from "./text-offsets.ts";

/** Room between the selection and the button; on a touch screen, room for the selection handles. */
const GAP = 6;
const GAP_BELOW_HANDLES = 28;
/** The button's size before it has been measured (a small button with an icon). */
const ESTIMATE = { width: 100, height: 32 };

interface Shown {
  /** The selected passage in whole words; offsets of -1 when it runs out of the prism. */
  passage: TextSelection;
  left: number;
  top: number;
}

/** Where the button goes, in the container's coordinates: beside the passage, never over it. */
function place(
  container: HTMLElement,
  content: HTMLElement,
  range: Range,
  button: HTMLElement | null,
) {
  const box = container.getBoundingClientRect();
  const bounds = content.getBoundingClientRect();
  const lines = Array.from(range.getClientRects()).filter(
    (rect) =>
      (rect.width > 0 || rect.height > 0) && rect.bottom >= bounds.top && rect.top <= bounds.bottom,
  );
  const first = lines.length ? lines.reduce((a, b) => (b.top < a.top ? b : a)) : bounds;
  const last = lines.length ? lines.reduce((a, b) => (b.bottom > a.bottom ? b : a)) : bounds;
  const width = button?.offsetWidth || ESTIMATE.width;
  const height = button?.offsetHeight || ESTIMATE.height;
  // A phone's own selection menu sits above the selection, so the button goes below it there;
  // with a mouse it goes above, unless the passage starts at the top of the prism.
  const touch = isCoarsePointer();
  const above = !touch && first.top - box.top >= height + GAP;
  const line = above ? first : last;
  const centre = (line.left + line.right) / 2 - box.left;
  return {
    left: Math.min(Math.max(centre - width / 2, 0), Math.max(box.width - width, 0)),
    top: above
      ? first.top - box.top - height - GAP
      : last.bottom - box.top + (touch ? GAP_BELOW_HANDLES : GAP),
  };
}

/** The page's selection inside `content`, snapped to whole words, with the range it spans. */
function selectedPassage(content: HTMLElement): { passage: TextSelection; range: Range } | null {
  const selection = document.getSelection();
  if (!selection || selection.isCollapsed || !selection.rangeCount) return null;
  const range = selection.getRangeAt(0);
  const exact = selectionWithin(content, range);
  const passage =
    exact && exact.selectionStart >= 0
      ? snapToWords(plainTextOf(content), exact.selectionStart, exact.selectionEnd)
      : exact;
  return passage ? { passage, range } : null;
}

/**
 * The prism's rendered content (`children`, whose element is `contentRef`) with the Respond button
 * for a selection inside it. `onRespond` receives the passage in whole words.
 */
export function SelectionRespond({
  contentRef,
  enabled,
  onRespond,
  children,
}: {
  contentRef: RefObject<HTMLElement | null>;
  enabled: boolean;
  onRespond: (passage: TextSelection) => void;
  children: ReactNode;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [shown, setShown] = useState<Shown | null>(null);

  useEffect(() => {
    if (!enabled) return;
    function update() {
      const content = contentRef.current;
      const container = containerRef.current;
      const selected = content ? selectedPassage(content) : null;
      if (!content || !container || !selected) return setShown(null);
      const { passage, range } = selected;
      const words =
        passage.selectionStart >= 0
          ? rangeFor(content, passage.selectionStart, passage.selectionEnd)
          : null;
      setShown({ passage, ...place(container, content, words ?? range, buttonRef.current) });
    }

    // A mouse drag shows the button once the button is released; a finger's long-press and its
    // handles, and the keyboard, change the selection without a pointer of the page's own.
    let dragging = false;
    let frame = 0;
    const schedule = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(update);
    };
    const handlePointerDown = (event: PointerEvent) => {
      if (event.pointerType !== "mouse" || buttonRef.current?.contains(event.target as Node))
        return;
      dragging = true;
      setShown(null);
    };
    const handlePointerUp = (event: PointerEvent) => {
      if (event.pointerType === "mouse") dragging = false;
      schedule();
    };
    const handleSelectionChange = () => {
      if (!dragging) schedule();
    };
    document.addEventListener("pointerdown", handlePointerDown);
    document.addEventListener("pointerup", handlePointerUp);
    document.addEventListener("pointercancel", handlePointerUp);
    document.addEventListener("selectionchange", handleSelectionChange);
    window.addEventListener("resize", schedule);
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("pointerdown", handlePointerDown);
      document.removeEventListener("pointerup", handlePointerUp);
      document.removeEventListener("pointercancel", handlePointerUp);
      document.removeEventListener("selectionchange", handleSelectionChange);
      window.removeEventListener("resize", schedule);
      setShown(null);
    };
  }, [enabled, contentRef]);

  function handleRespond() {
    if (!shown) return;
    // The button follows the selection a frame late; a key pressed sooner answers what is
    // selected now.
    const content = contentRef.current;
    const passage = (content ? selectedPassage(content)?.passage : null) ?? shown.passage;
    if (!(passage.selectionStart >= 0 && passage.selectionEnd > passage.selectionStart)) {
      toastError(
        "Selection Error",
        "Could not determine precise text position. Please try selecting the text again.",
      );
      return;
    }
    onRespond(passage);
  }

  return (
    <div ref={containerRef} className="relative">
      {children}
      {shown ? (
        <Button
          ref={buttonRef}
          variant={null}
          size="sm"
          className="absolute z-10 bg-primary text-primary-foreground shadow-md hover:bg-primary-hover"
          style={{ left: shown.left, top: shown.top }}
          // Pressing the button must not take the selection away (it is what the reader answers).
          onMouseDown={(event) => event.preventDefault()}
          onClick={handleRespond}
        >
          <MessageSquareQuote aria-hidden="true" /> Respond
        </Button>
      ) : null}
    </div>
  );
}
