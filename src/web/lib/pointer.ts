// Whether the reader points with a finger (a phone or tablet) rather than a mouse: hints and
// placements that assume a keyboard or a mouse say something else on a touch screen.
import { useSyncExternalStore } from "react";

const COARSE = "(pointer: coarse)";

function query(): MediaQueryList | null {
  return typeof window !== "undefined" && typeof window.matchMedia === "function"
    ? window.matchMedia(COARSE)
    : null;
}

/** True when the primary pointer is coarse (a touch screen); read now, outside React. */
export function isCoarsePointer(): boolean {
  return query()?.matches ?? false;
}

/** True when the primary pointer is coarse (a touch screen), following changes. */
export function useCoarsePointer(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = query();
      list?.addEventListener("change", listener);
      return () => list?.removeEventListener("change", listener);
    },
    isCoarsePointer,
    () => false,
  );
}
