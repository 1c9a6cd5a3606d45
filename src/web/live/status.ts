// Whether the live event stream is open, and the polling that stands in for it while it is not.
import { useSyncExternalStore } from "react";

let connected = false;
const listeners = new Set<() => void>();

export function setConnected(value: boolean) {
  if (connected === value) return;
  connected = value;
  for (const listener of listeners) listener();
}

/** True while the event stream is open. */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => connected,
    () => false,
  );
}

/** A query's polling interval: none while the stream is open, else the spec's interval. */
export function usePollInterval(ms: number): number | false {
  return useLiveConnected() ? false : ms;
}
