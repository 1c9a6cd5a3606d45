// Every browser-storage key Prism uses, in one place.
export const storageKeys = {
  /** local storage: the page to return to after signing in. */
  lastPage: "prism:last-page",
  /** local storage: whether a visitor wants annotation highlights shown. */
  highlights: "prism:highlights",
  /** session storage: what the /error page should say. */
  errorContext: "prism:error-context",
  /** session storage: a toast to show after the page reloads. */
  flashToast: "prism:flash-toast",
  /** session storage: the version of Prism that reloaded the page when a script failed to load. */
  staleScriptReload: "prism:stale-script-reload",
} as const;

function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** Remembers where to come back to after signing in; /sign-in itself is never remembered. */
export function rememberPage(path: string) {
  if (path.startsWith("/sign-in")) return;
  safely(() => localStorage.setItem(storageKeys.lastPage, path), undefined);
}

/** The remembered page, forgotten as it is read. */
export function takeRememberedPage(): string | null {
  return safely(() => {
    const path = localStorage.getItem(storageKeys.lastPage);
    localStorage.removeItem(storageKeys.lastPage);
    return path?.startsWith("/") && !path.startsWith("//") ? path : null;
  }, null);
}

export interface ErrorContext {
  statusCode: number;
  title: string;
  description: string;
  message?: string;
  /** The page whose data failed to load, for the Retry button. */
  retryPath?: string;
}

export function saveErrorContext(context: ErrorContext) {
  safely(
    () => sessionStorage.setItem(storageKeys.errorContext, JSON.stringify(context)),
    undefined,
  );
}

export function readErrorContext(): Partial<ErrorContext> | null {
  return safely(() => {
    const raw = sessionStorage.getItem(storageKeys.errorContext);
    return raw ? (JSON.parse(raw) as Partial<ErrorContext>) : null;
  }, null);
}

export function clearErrorContext() {
  safely(() => sessionStorage.removeItem(storageKeys.errorContext), undefined);
}

export interface FlashToast {
  title: string;
  description?: string;
}

export function saveFlashToast(toast: FlashToast) {
  safely(() => sessionStorage.setItem(storageKeys.flashToast, JSON.stringify(toast)), undefined);
}

export function takeFlashToast(): FlashToast | null {
  return safely(() => {
    const raw = sessionStorage.getItem(storageKeys.flashToast);
    sessionStorage.removeItem(storageKeys.flashToast);
    return raw ? (JSON.parse(raw) as FlashToast) : null;
  }, null);
}

/**
 * Marks the reload that a page script's failure asks for; false when this tab already reloaded
 * for that reason while running this same `build` (or storage is unavailable): a reload that
 * brought no new version cannot help, and must not loop.
 */
export function claimStaleScriptReload(build: string): boolean {
  return safely(() => {
    if (sessionStorage.getItem(storageKeys.staleScriptReload) === build) return false;
    sessionStorage.setItem(storageKeys.staleScriptReload, build);
    return true;
  }, false);
}
