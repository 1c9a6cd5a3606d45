// The query client's defaults and the one list of query keys.

import { QueryClient } from "@tanstack/react-query";
import type { ReviewStatus } from "../../contract/annotations.ts";
import { holdsRenderedAnswer } from "./page-data.ts";

/** A query client with the spec's defaults: one per browser tab, one per server-rendered page. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Spec §7: "other data: never stale, no retry, no refetch on focus".
      queries: {
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
        refetchOnWindowFocus: false,
        // Data the server rendered the page with is current until the live stream says otherwise,
        // which it may say before the part showing the data has mounted (the bell loads with the
        // member menu, after the stream has opened): an answer the stream has made out of date is
        // fetched when its part mounts.
        refetchOnMount: (query) => query.state.isInvalidated || !holdsRenderedAnswer(query),
      },
      mutations: { retry: false },
    },
  });
}

export const queryKeys = {
  currentUser: ["user"] as const,
  siteServices: ["site"] as const,
  profile: (username: string) => ["users", username.toLowerCase()] as const,
  prisms: (username: string) => ["prisms", username.toLowerCase()] as const,
  heart: (prismId: number) => ["heart", prismId] as const,
  /** A prism's versions (the prefix of `revision`). */
  revisions: (prismId: number) => ["revisions", prismId] as const,
  revision: (prismId: number, number: number) => ["revisions", prismId, number] as const,
  annotations: (prismId: number) => ["annotations", prismId] as const,
  /** Every prism's resonance map (the prefix of `resonance`). */
  everyResonance: ["resonance"] as const,
  /** What moved a prism's readers, for its owner (the resonance map). */
  resonance: (prismId: number) => ["resonance", prismId] as const,
  /** The signed-in member's "This week". */
  thisWeek: ["this-week"] as const,
  /** Every single-annotation query (the prefix of `annotation`). */
  everyAnnotation: ["annotation"] as const,
  annotation: (id: number) => ["annotation", id] as const,
  /** Every page of the owner's review queue (the prefix of `reviewPage`). */
  review: ["review"] as const,
  /** A page of the owner's review queue, after the response `cursor` names (null: the first). */
  reviewPage: (status: ReviewStatus, cursor: number | null) => ["review", status, cursor] as const,
  /** An anonymous author's response, by the token of its private status link. */
  responseStatus: (token: string) => ["response-status", token] as const,
  notifications: ["notifications"] as const,
  notificationPage: (limit: number, offset: number) =>
    ["notifications", "list", limit, offset] as const,
  unreadCount: ["notifications", "unread-count"] as const,
  explore: (tab: "people" | "prisms", page: number) => ["explore", tab, page] as const,
  /** The signed-in member's followers on the fediverse. */
  followers: ["followers"] as const,
  /** Everything the Catalyst dashboard shows (the prefix of the keys below). */
  catalyst: ["catalyst"] as const,
  catalystStats: ["catalyst", "stats"] as const,
  catalystActivity: ["catalyst", "activity"] as const,
  catalystFederation: ["catalyst", "federation"] as const,
  catalystList: (
    table: "users" | "prisms" | "teams" | "annotations" | "audit" | "contact-messages" | "reports",
    page: number,
    q: string,
    filters = "",
  ) => ["catalyst", table, page, q, filters] as const,
};
