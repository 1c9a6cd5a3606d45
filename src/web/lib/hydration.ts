// Whether a page may show what only the browser knows: its clock, language and time zone, and what
// it keeps in storage. The server knows none of it, and the browser, taking over the HTML the
// server rendered, must first render the page exactly as the server did.
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False on the server and while the browser hydrates the server's HTML; true from the render
 * right after (React renders again at once), and from the start of a page the browser renders.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * Runs `work` in a task of its own once the browser is idle (within a second at most), and
 * returns what cancels it. What a page does once shown but need not do at once (reading storage,
 * whose first read loads the whole store) then does not lengthen the task that hydrates the
 * page, during which it cannot answer a tap.
 */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(work, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 0);
  return () => clearTimeout(handle);
}
