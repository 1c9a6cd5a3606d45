// The member a profile page shows.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PublicUser } from "../../../contract/user.ts";
import { ApiError, api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";

/**
 * The member a page stands on, or null when there is none (the page's own not-found page, which
 * the server renders like any other page); a server error or no answer at all leads to the
 * /error page ("Error loading profile", with the server's message); a refetch that gets no answer
 * at all keeps the member the page shows.
 */
export const profileQuery = (username: string) =>
  queryOptions({
    queryKey: queryKeys.profile(username),
    queryFn: async ({ signal, client, queryKey }): Promise<PublicUser | null> => {
      try {
        return await api.get<PublicUser>(`/api/users/${encodeURIComponent(username)}`, {
          signal,
          errorPage: true,
          ownNotFound: true,
          shown: client.getQueryData(queryKey) !== undefined,
          failure: {
            title: "Error loading profile",
            description: "We couldn't complete your request. Please try again later.",
          },
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });

export function useProfile(username: string) {
  return useQuery(profileQuery(username));
}
