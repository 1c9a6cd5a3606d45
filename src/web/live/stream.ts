// Live updates: one Server-Sent Events stream per tab. While it is open, pages do not poll; the
// events tell the query cache what changed. When it drops, polling resumes at the spec's
// intervals and the stream reconnects with backoff.
import { type QueryClient, type QueryFilters, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { HeartStatus } from "../../contract/prisms.ts";
import type { ThisWeek } from "../../contract/resonance.ts";
import type { CurrentUser } from "../../contract/user.ts";
import { setHeardEvent } from "../lib/api.ts";
import { takeRenderedStamp } from "../lib/page-data.ts";
import { queryKeys } from "../lib/query.ts";
import { setLiveState } from "./status.ts";

const MAX_BACKOFF_MS = 30_000;

/**
 * Refetches what a change may have left out of date. A request already on its way may have been
 * answered before the change, and TanStack Query hands a query's first request to an
 * invalidation instead of asking again (it restarts only the requests of queries that already
 * have data): the requests of queries on screen are cancelled first, so every answer they show
 * comes after the change (a one-off fetch, such as a deep link's annotation, is left to finish).
 * `show` may put what the event says in the cache meanwhile.
 */
async function refetchAfterChange(
  queryClient: QueryClient,
  filters: QueryFilters,
  show?: () => void,
) {
  await queryClient.cancelQueries({ ...filters, type: "active" });
  show?.();
  await queryClient.invalidateQueries(filters);
}

/** Opens the stream and keeps it open until the returned function is called. */
function connectLive(queryClient: QueryClient): () => void {
  let since = takeRenderedStamp();
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let backoff = 1000;
  let stopped = false;

  const on = (type: string, handle: (data: Record<string, unknown>) => void) => {
    source?.addEventListener(type, (event) => {
      setHeardEvent((event as MessageEvent<string>).lastEventId);
      try {
        handle(JSON.parse((event as MessageEvent<string>).data || "{}"));
      } catch {
        // An unreadable event is skipped; the next poll or event catches up.
      }
    });
  };

  const open = () => {
    // The first stream asks for the changes since the server rendered the page; a later one has
    // data that the page's stamp does not describe.
    const resuming = Boolean(since);
    source = new EventSource(
      since ? `/api/events?since=${encodeURIComponent(since)}` : "/api/events",
    );
    since = null;
    source.onopen = () => {
      backoff = 1000;
      setLiveState("open");
    };
    source.onerror = () => {
      setLiveState("down");
      // EventSource retries by itself unless the server refused it; then we back off and retry.
      // It would ask again for the changes since the render: that stream is reopened without.
      if (source && (resuming || source.readyState === EventSource.CLOSED) && !stopped) {
        source.close();
        retry = setTimeout(open, backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    };
    // Whatever happened while we were away: refetch what is on screen. A rendered page's first
    // stream instead hears, after this, the events since the render (`resumed`), which refetch
    // only what they touch; unless the server no longer knows them all (another process or
    // boot, or too long ago), and then everything is refetched too.
    on("live.ready", ({ resumed }) => {
      if (resumed === true) return;
      void refetchAfterChange(queryClient, {
        predicate: (q) => q.queryKey[0] !== queryKeys.currentUser[0],
      });
    });
    const refetch = (queryKey: readonly unknown[]) =>
      void refetchAfterChange(queryClient, { queryKey });
    // The owner's resonance map and "This week" follow changes to their own prisms alone: every
    // page hears every member's events.
    const isViewer = (username: string) =>
      queryClient
        .getQueryData<CurrentUser | null>(queryKeys.currentUser)
        ?.username.toLowerCase() === username.toLowerCase();
    const weekShows = (prismId: number) =>
      queryClient
        .getQueryData<ThisWeek>(queryKeys.thisWeek)
        ?.prisms.some((prism) => prism.id === prismId) ?? false;
    on("prisms.changed", ({ username }) => {
      if (typeof username !== "string") return;
      refetch(queryKeys.prisms(username));
      // An edit moves the stretches responses cover.
      if (isViewer(username)) {
        refetch(queryKeys.everyResonance);
        refetch(queryKeys.thisWeek);
      }
    });
    on("heart.changed", ({ prismId, heartsCount, username }) => {
      if (typeof prismId !== "number" || typeof heartsCount !== "number") return;
      const queryKey = queryKeys.heart(prismId);
      // The new count shows at once; the refetch brings whether the viewer's own heart is in it.
      void refetchAfterChange(queryClient, { queryKey }, () =>
        queryClient.setQueryData<HeartStatus>(queryKey, (old) =>
          old ? { ...old, heartsCount } : old,
        ),
      );
      if (typeof username === "string") refetch(queryKeys.prisms(username));
      refetch(queryKeys.resonance(prismId));
      if (weekShows(prismId)) refetch(queryKeys.thisWeek);
    });
    on("annotation.changed", ({ prismId }) => {
      if (typeof prismId !== "number") return;
      refetch(queryKeys.annotations(prismId));
      refetch(queryKeys.everyAnnotation);
      refetch(queryKeys.review);
      refetch(queryKeys.resonance(prismId));
      if (weekShows(prismId)) refetch(queryKeys.thisWeek);
    });
    const notificationsChanged = () => refetch(queryKeys.notifications);
    on("notification.created", notificationsChanged);
    on("notifications.changed", notificationsChanged);
    // An admin deactivated this member: the server ends the stream; the page learns it is signed out.
    on("sessions.ended", () => refetch(queryKeys.currentUser));
  };

  open();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
    setLiveState("connecting");
  };
}

/** Keeps the tab's stream open, reopening it when the member signs in or out (notifications follow the member). */
export function useLiveUpdates(userId: number | null) {
  const queryClient = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: userId is the reason to reconnect
  useEffect(() => connectLive(queryClient), [queryClient, userId]);
}
