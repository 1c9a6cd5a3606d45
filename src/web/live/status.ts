// Whether the live event stream is open, and the polling that stands in for it while it is down.
import { useSyncExternalStore } from "react";

/**
 * Connecting (a page just opened, or its member changed: its data is fresh, from the server or
 * just fetched), open, or down (the stream failed: pages poll until it is back).
 */
export type LiveState = "connecting" | "open" | "down";

let state: LiveState = "connecting";
const listeners = new Set<() => void>();

export function setLiveState(next: LiveState) {
  if (state === next) return;
  state = next;
  for (const listener of listeners) listener();
}

function useLiveState(): LiveState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => "connecting",
  );
}

/** A query's polling interval: the spec's interval while the stream is down, else none. */
export function usePollInterval(ms: number): number | false {
  return useLiveState() === "down" ? ms : false;
}
