// The signed-in member (null when signed out), refetched on focus as the spec asks.
import { useQuery } from "@tanstack/react-query";
import type { CurrentUser } from "../../../contract/user.ts";
import { ApiError, api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";

export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await api.get<CurrentUser>("/api/user", { errorPage: false });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useCurrentUser() {
  const query = useQuery({
    queryKey: queryKeys.currentUser,
    queryFn: fetchCurrentUser,
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: true,
    retry: 3,
    retryDelay: 1000,
  });
  return { user: query.data ?? null, isLoading: query.isPending, query };
}
