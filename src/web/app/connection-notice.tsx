// Says so while the browser is offline, and brings the page up to date once it is back online:
// TanStack Query holds its requests while offline and refetches stale data on reconnecting;
// requests that failed as the connection dropped are tried again here.
import { useQueryClient } from "@tanstack/react-query";
import { WifiOff } from "lucide-react";
import { useEffect, useSyncExternalStore } from "react";

function subscribe(listener: () => void) {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

export function ConnectionNotice() {
  const online = useOnline();
  const queryClient = useQueryClient();
  useEffect(() => {
    const retryFailed = () =>
      void queryClient.refetchQueries({ predicate: (query) => query.state.status === "error" });
    window.addEventListener("online", retryFailed);
    return () => window.removeEventListener("online", retryFailed);
  }, [queryClient]);

  // The live region is always there, so that what appears in it is announced.
  return (
    <div role="status" aria-live="polite">
      {online ? null : (
        <p className="flex items-center justify-center gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950">
          <WifiOff aria-hidden="true" className="size-4 shrink-0" />
          You are offline. This page will catch up by itself when the connection returns.
        </p>
      )}
    </div>
  );
}
