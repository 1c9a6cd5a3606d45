// Page scripts are named by a hash of their content, so a tab opened before a new version was
// deployed asks for scripts that are gone. Such a failure reloads the page, which brings the new
// version, instead of showing "Component Error". Each version reloads a tab at most once: when a
// script fails again after a reload that brought no new version (the network, not a deployment),
// the error shows as before. Offline, the page waits for the connection and then reloads.
// Every part of the app that loads on demand (a page, a dialog, the owner's parts) is declared with
// `lazyComponent`, so none of them can skip that reload.
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
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
function loadPageScript<T>(load: () => Promise<T>): Promise<T> {
  return load().then(
    // Nothing comes back when the failure was answered with a reload (below).
    (module: T | undefined) => module ?? reloading(),
    (error: unknown) => {
      if (reloadOnce()) return reloading();
      throw error;
    },
  );
}

/** The props of a component (nothing of what is not one). */
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/**
 * The component `name` of the script `load` brings, loaded when first rendered, or ahead with
 * `preload`: a part the server rendered is hydrated once its code is here, so that nothing on it
 * waits (a click on a part not yet hydrated would be lost), and once loaded it renders at once
 * (a thenable that answers synchronously, so React.lazy does not suspend).
 */
export function lazyComponent<M, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<ComponentType<PropsOf<M[K]>>> & { preload: () => Promise<void> } {
  type Loaded = ComponentType<PropsOf<M[K]>>;
  let loaded: Loaded | undefined;
  const preload = async () => {
    const module = await loadPageScript(load);
    if (module[name] === undefined) throw new Error(`The script loaded exports no ${name}`);
    loaded = module[name] as Loaded;
  };
  const component = lazy(() => {
    const ready = loaded;
    if (!ready) return preload().then(() => ({ default: loaded as Loaded }));
    const now = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable that answers at once lets React.lazy render a loaded part without suspending
      then: (resolve: (module: { default: Loaded }) => void) => resolve({ default: ready }),
    };
    return now as unknown as Promise<{ default: Loaded }>;
  });
  return Object.assign(component, { preload });
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
