// The explore page's two lists, one page of ten at a time (spec §7, §9).
import { useQuery } from "@tanstack/react-query";
import type { ExplorePrism, ExploreUser } from "../../../contract/explore.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";

export const EXPLORE_PAGE_SIZE = 10;

export type ExploreTab = "people" | "prisms";

const offsetOf = (page: number) => (page - 1) * EXPLORE_PAGE_SIZE;

/** Page numbers start at 1. Failures stay on the page (inline message), never on /error. */
export function useExploreUsers(page: number) {
  return useQuery({
    queryKey: queryKeys.explore("people", page),
    queryFn: ({ signal }) =>
      api.get<ExploreUser[]>(
        `/api/explore/users?limit=${EXPLORE_PAGE_SIZE}&offset=${offsetOf(page)}`,
        { errorPage: false, signal },
      ),
  });
}

export function useExplorePrisms(page: number) {
  return useQuery({
    queryKey: queryKeys.explore("prisms", page),
    queryFn: ({ signal }) =>
      api.get<ExplorePrism[]>(
        `/api/explore/prisms?limit=${EXPLORE_PAGE_SIZE}&offset=${offsetOf(page)}`,
        { errorPage: false, signal },
      ),
  });
}
