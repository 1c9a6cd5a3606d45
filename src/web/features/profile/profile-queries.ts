// The member a profile page shows.
import { useQuery } from "@tanstack/react-query";
import type { PublicUser } from "../../../contract/user.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";

/** The page handles a failure itself: its own not-found page for a 404, else a message. */
export function useProfile(username: string) {
  return useQuery({
    queryKey: queryKeys.profile(username),
    queryFn: () => api.get<PublicUser>(`/api/users/${encodeURIComponent(username)}`),
  });
}
