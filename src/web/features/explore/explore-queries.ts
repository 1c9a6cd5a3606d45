// The explore page's two lists, one page of ten at a time (spec §7, §9).
import { useQuery } from "@tanstack/react-query";
import type { ExplorePrism, ExploreUser } from "../../../contract/explore.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";

export const EXPLORE_PAGE_SIZE = 10;

export type ExploreTab = "people" | "prisms";

/** What a row of each tab shows. */
export interface ExploreEntries {
  people: ExploreUser;
  prisms: ExplorePrism;
}

const paths: Record<ExploreTab, string> = {
  people: "/api/explore/users",
  prisms: "/api/explore/prisms",
};

/** Page numbers start at 1. Failures stay on the page (inline message, Retry), never on /error. */
export function useExploreList<T extends ExploreTab>(tab: T, page: number) {
  const offset = (page - 1) * EXPLORE_PAGE_SIZE;
  return useQuery({
    queryKey: queryKeys.explore(tab, page),
    queryFn: ({ signal }) =>
      api.get<ExploreEntries[T][]>(`${paths[tab]}?limit=${EXPLORE_PAGE_SIZE}&offset=${offset}`, {
        signal,
      }),
  });
}
