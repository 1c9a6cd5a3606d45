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
