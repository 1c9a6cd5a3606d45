// The phone the small-screen stories run on: 360 × 740 CSS px, touch, a mobile user agent and
// viewport meta handling (Playwright's Pixel 5 profile, narrowed to the smallest common width).
import { devices, type Locator } from "@playwright/test";

export const phone = {
  ...devices["Pixel 5"],
  viewport: { width: 360, height: 740 },
  screen: { width: 360, height: 740 },
};

/**
 * Selects, in the first paragraph of a prism's content (`content`), from `from` characters into
 * the word `startWord` to `to` characters into the word `endWord`, as a phone's long-press and
 * handles do: the finger's pointer and touch events around a selection that the page's own APIs
 * make (the browser then fires selectionchange itself). Answers the selection's box on the screen.
 */
export async function touchSelect(
  content: Locator,
  [startWord, from]: [string, number],
  [endWord, to]: [string, number],
) {
  return content.evaluate(
    (root, { startWord, from, endWord, to }) => {
      const text = root.querySelector("p")?.firstChild;
      if (!(text instanceof Text)) throw new Error("no text");
      const range = document.createRange();
      range.setStart(text, text.data.indexOf(startWord) + from);
      range.setEnd(text, text.data.indexOf(endWord) + to);
      const box = range.getBoundingClientRect();
      const target = text.parentElement as HTMLElement;
      const point = { clientX: box.left + 2, clientY: box.top + box.height / 2 };
      const finger = new Touch({ identifier: 1, target, ...point });
      const pointer = { bubbles: true, pointerType: "touch", isPrimary: true, pointerId: 1 };
      target.dispatchEvent(new PointerEvent("pointerdown", { ...pointer, ...point }));
      target.dispatchEvent(
        new TouchEvent("touchstart", {
          bubbles: true,
          touches: [finger],
          targetTouches: [finger],
          changedTouches: [finger],
        }),
      );
      const selection = document.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      target.dispatchEvent(new TouchEvent("touchend", { bubbles: true, changedTouches: [finger] }));
      target.dispatchEvent(new PointerEvent("pointerup", { ...pointer, ...point }));
      return { top: box.top, bottom: box.bottom, left: box.left, right: box.right };
    },
    { startWord, from, endWord, to },
  );
}
