// Resonance: what moved a prism's readers, read by its owner (the map, "This week"), and the
// beacon a reader's page sends to count the prisms it showed.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
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
export function useThisWeek() {
  return useQuery({
    queryKey: queryKeys.thisWeek,
    queryFn: ({ signal }) => api.get<ThisWeek>("/api/user/this-week", { signal }),
  });
}

/**
 * Tells the server, once per page, which prisms the page has shown (`prismIds`, once known), so it
 * can count a view; `send` is false for the owner's own page (and until the viewer is known).
 * Sent with `keepalive`, so a reader who leaves at once is still counted; a failure is no one's
 * concern but the count's.
 */
export function useViewsBeacon(prismIds: number[] | undefined, send: boolean) {
  const sent = useRef(false);
  const ids = prismIds?.join(",") ?? "";
  useEffect(() => {
    if (sent.current || !send || ids === "") return;
    sent.current = true;
    const prismIds = ids.split(",").map(Number);
    api.post("/api/prisms/views", { prismIds }, { keepalive: true }).catch(() => undefined);
  }, [ids, send]);
}
