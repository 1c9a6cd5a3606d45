// Page scripts are named by a hash of their content, so a tab opened before a new version was
// deployed asks for scripts that are gone. Such a failure reloads the page, which brings the new
// version, instead of showing "Component Error". Each version reloads a tab at most once: when a
// script fails again after a reload that brought no new version (the network, not a deployment),
// the error shows as before. Offline, the page waits for the connection and then reloads.
import { claimStaleScriptReload } from "../lib/storage.ts";

/** This version of Prism: the URL of this bundle, whose name carries the hash of its content. */
const build = import.meta.url;

/** Reloads the page unless this version already did in this tab; true when it reloads. */
function reloadOnce(): boolean {
  if (!navigator.onLine) {
    window.addEventListener("online", () => window.location.reload(), { once: true });
    return true;
  }
  if (!claimStaleScriptReload(build)) return false;
  window.location.reload();
  return true;
}

/** The page is going away: React keeps waiting rather than showing an error meanwhile. */
const reloading = () => new Promise<never>(() => {});

/** Loads a page's script; one that fails to load reloads the page once. */
export function loadPageScript<T>(load: () => Promise<T>): Promise<T> {
  return load().then(
    // Nothing comes back when the failure was answered with a reload (below).
    (module: T | undefined) => module ?? reloading(),
    (error: unknown) => {
      if (reloadOnce()) return reloading();
      throw error;
    },
  );
}

/**
 * Vite loads a page's script and the scripts and styles it shares with others, and reports a
 * failure of any with `vite:preloadError`; answered with a reload, the import gives nothing.
 */
export function reloadOnStalePreloads() {
  window.addEventListener("vite:preloadError", (event) => {
    if (reloadOnce()) event.preventDefault();
  });
}
