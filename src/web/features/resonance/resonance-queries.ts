// Resonance: what moved a prism's readers, read by its owner (the map, "This week"), and the
// beacon a reader's page sends to count the prisms it showed them.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Resonance, ThisWeek } from "../../../contract/resonance.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";

/** One prism's resonance map, while its owner has it on; live events refetch it. */
export function useResonance(prismId: number) {
  return useQuery({
    queryKey: queryKeys.resonance(prismId),
    queryFn: ({ signal }) => api.get<Resonance>(`/api/prisms/${prismId}/resonance`, { signal }),
  });
}

/** The signed-in member's week against the one before, and each prism's most responded passage. */
export const thisWeekQuery = queryOptions({
  queryKey: queryKeys.thisWeek,
  queryFn: ({ signal }) => api.get<ThisWeek>("/api/user/this-week", { signal }),
});

export function useThisWeek() {
  return useQuery(thisWeekQuery);
}

/** How long prisms shown wait to be sent together: a reader opening a few sends one beacon. */
const BATCH_MS = 1000;

/** Visibility steps the observer reports, so a prism taller than the screen is seen to fill it. */
const STEPS = Array.from({ length: 11 }, (_, i) => i / 10);

/** Whether an open prism is shown: half of it in view, or enough of it to fill half the screen. */
function shown(entry: IntersectionObserverEntry): boolean {
  const screen = entry.rootBounds?.height ?? window.innerHeight;
  return entry.intersectionRatio >= 0.5 || entry.intersectionRect.height >= screen / 2;
}

/**
 * Tells the server which prisms the page has shown a reader: the open one (`openId`), once half of
 * it is in view, each once per page. Those shown within a second go in one beacon, and what waits
 * goes when the reader leaves. `send` is false for the owner's own page (and until the viewer is
 * known). Sent with `keepalive`, so a reader who leaves at once is still counted; a failure is no
 * one's concern but the count's.
 */
export function useViewsBeacon(openId: number | null, send: boolean) {
  const [beacon] = useState(viewsBatch);
  useEffect(() => {
    window.addEventListener("pagehide", beacon.flush);
    return () => {
      window.removeEventListener("pagehide", beacon.flush);
      beacon.flush();
    };
  }, [beacon]);
  useEffect(() => {
    if (!send || openId === null || beacon.has(openId)) return;
    const content = document.getElementById(`prism-${openId}-content`);
    if (!content) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some(shown)) return;
        observer.disconnect();
        beacon.add(openId);
      },
      { threshold: STEPS },
    );
    observer.observe(content);
    return () => observer.disconnect();
  }, [beacon, openId, send]);
}

/** The prisms a page has shown, and those of them still to be sent. */
function viewsBatch() {
  const seen = new Set<number>();
  let waiting: number[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  function flush() {
    clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return;
    const prismIds = waiting;
    waiting = [];
    api.post("/api/prisms/views", { prismIds }, { keepalive: true }).catch(() => undefined);
  }
  return {
    flush,
    has: (prismId: number) => seen.has(prismId),
    add(prismId: number) {
      seen.add(prismId);
      waiting.push(prismId);
      timer ??= setTimeout(flush, BATCH_MS);
    },
  };
}
