// Live updates: one Server-Sent Events stream per tab. While it is open, pages do not poll; the
// events tell the query cache what changed. When it drops, polling resumes at the spec's
// intervals and the stream reconnects with backoff.
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { HeartStatus } from "../../contract/prisms.ts";
import { queryKeys } from "../lib/query.ts";
import { setConnected } from "./status.ts";

const MAX_BACKOFF_MS = 30_000;

/** Opens the stream and keeps it open until the returned function is called. */
function connectLive(queryClient: QueryClient): () => void {
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let backoff = 1000;
  let stopped = false;

  const on = (type: string, handle: (data: Record<string, unknown>) => void) => {
    source?.addEventListener(type, (event) => {
      try {
        handle(JSON.parse((event as MessageEvent<string>).data || "{}"));
      } catch {
        // An unreadable event is skipped; the next poll or event catches up.
      }
    });
  };

  const open = () => {
    source = new EventSource("/api/events");
    source.onopen = () => {
      backoff = 1000;
      setConnected(true);
      // Whatever happened while we were away: refetch what is on screen.
      void queryClient.invalidateQueries({
        predicate: (q) => q.queryKey[0] !== queryKeys.currentUser[0],
      });
    };
    source.onerror = () => {
      setConnected(false);
      // EventSource retries by itself unless the server refused it; then we back off and retry.
      if (source?.readyState === EventSource.CLOSED && !stopped) {
        source.close();
        retry = setTimeout(open, backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    };
    on("prisms.changed", ({ username }) => {
      if (typeof username === "string")
        void queryClient.invalidateQueries({ queryKey: queryKeys.prisms(username) });
    });
    on("heart.changed", ({ prismId, heartsCount, username }) => {
      if (typeof prismId !== "number" || typeof heartsCount !== "number") return;
      // Show the new count at once, and refetch too: a status request already in flight when the
      // event arrived would otherwise land afterwards with the old count.
      queryClient.setQueryData<HeartStatus>(queryKeys.heart(prismId), (old) =>
        old ? { ...old, heartsCount } : old,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.heart(prismId) });
      if (typeof username === "string")
        void queryClient.invalidateQueries({ queryKey: queryKeys.prisms(username) });
    });
    on("annotation.changed", ({ prismId }) => {
      if (typeof prismId !== "number") return;
      void queryClient.invalidateQueries({ queryKey: queryKeys.annotations(prismId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.everyAnnotation });
    });
    const notificationsChanged = () =>
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
    on("notification.created", notificationsChanged);
    on("notifications.changed", notificationsChanged);
    // An admin deactivated this member: the server ends the stream; the page learns it is signed out.
    on(
      "sessions.ended",
      () => void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
    );
  };

  open();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
    setConnected(false);
  };
}

/** Keeps the tab's stream open, reopening it when the member signs in or out (notifications follow the member). */
export function useLiveUpdates(memberId: number | null) {
  const queryClient = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: memberId is the reason to reconnect
  useEffect(() => connectLive(queryClient), [queryClient, memberId]);
}
