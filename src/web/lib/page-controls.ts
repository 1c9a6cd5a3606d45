// Controls a page lends to the site header: the profile's highlights toggle also appears in the
// small-screen menu.
import { useSyncExternalStore } from "react";

export interface HighlightsControl {
  count: number;
  on: boolean;
  toggle: () => void;
}

let highlights: HighlightsControl | null = null;
const listeners = new Set<() => void>();

export function setHighlightsControl(control: HighlightsControl | null) {
  highlights = control;
  for (const listener of listeners) listener();
}

export function useHighlightsControl(): HighlightsControl | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => highlights,
    () => null,
  );
}
