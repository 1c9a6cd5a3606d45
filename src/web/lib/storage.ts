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
