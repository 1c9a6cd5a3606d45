// The member a profile page shows.
import { useQuery } from "@tanstack/react-query";
import type { PublicUser } from "../../../contract/user.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";

/**
 * The member a page stands on: a missing one gets the page's own not-found page; a server error
 * or no answer at all, the /error page ("Error loading profile", with the server's message).
 */
export function useProfile(username: string) {
  return useQuery({
    queryKey: queryKeys.profile(username),
    queryFn: ({ signal }) =>
      api.get<PublicUser>(`/api/users/${encodeURIComponent(username)}`, {
        signal,
        errorPage: true,
        ownNotFound: true,
        failure: {
          title: "Error loading profile",
          description: "We couldn't complete your request. Please try again later.",
        },
      }),
  });
}
