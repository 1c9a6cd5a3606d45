// Toasts with the spec's durations: 3 s for confirmations and failures alike, 2 s for quick ones
// (refresh, mark all read), and the spec's 5 s for a failed annotation submit.
// The toast library loads with the first toast, not with every page's first script; offline it
// cannot load (and a page script that fails to load reloads the page once back online), so a toast
// while offline before the library is here is not shown: the page says that it is offline.
import { useSyncExternalStore } from "react";

export const toastDuration = { short: 3000, quick: 2000, submitFailure: 5000 } as const;

let sonner: Promise<typeof import("sonner")> | null = null;
const wanted = new Set<() => void>();

/** Shows a toast once the library is here; none while offline before it is. */
function show(toast: (library: typeof import("sonner")) => void) {
  if (!sonner) {
    // (Node, where the unit tests run, has no navigator.)
    if (globalThis.navigator?.onLine === false) return;
    sonner = import("sonner");
    for (const notify of wanted) notify();
  }
  void sonner.then(toast);
}

/** Whether a toast has been shown yet: the layout mounts the toaster from then on. */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(
    (notify) => {
      wanted.add(notify);
      return () => wanted.delete(notify);
    },
    () => sonner !== null,
    () => false,
  );
}

export function toastSuccess(
  title: string,
  description?: string,
  duration: number = toastDuration.short,
) {
  show(({ toast }) => toast.success(title, { description, duration }));
}

export function toastError(
  title: string,
  description?: string,
  duration: number = toastDuration.short,
) {
  show(({ toast }) => toast.error(title, { description, duration }));
}
