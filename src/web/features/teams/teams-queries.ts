// Teams: the member's list and creating one, a team's page and its owners' changes, invite links,
// joining by one, and leaving or removing a member.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  JoinedTeam,
  NewInvite,
  OpenInvite,
  Team,
  TeamInput,
  TeamPage,
  TeamSummary,
} from "../../../contract/teams.ts";
import { ApiError, api } from "../../lib/api.ts";

/**
 * The teams queries' keys. Kept here rather than in lib/query.ts, which every visitor's page loads:
 * only a signed-in member's teams pages use them.
 */
const teamKeys = {
  /** The signed-in member's teams (the prefix of the keys below). */
  all: ["teams"] as const,
  team: (slug: string) => ["teams", slug.toLowerCase()] as const,
  invites: (slug: string) => ["teams", slug.toLowerCase(), "invites"] as const,
};

const teamPath = (slug: string) => `/api/teams/${encodeURIComponent(slug)}`;

/** The signed-in member's teams, by name. */
export function useMyTeams() {
  return useQuery({
    queryKey: teamKeys.all,
    queryFn: ({ signal }) => api.get<TeamSummary[]>("/api/teams", { signal }),
  });
}

/** Creates a team named as given; the member is its owner. */
export function useCreateTeam(onCreated: (team: Team) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TeamInput) => api.post<Team>("/api/teams", input),
    onSuccess: async (team) => {
      await client.invalidateQueries({ queryKey: teamKeys.all });
      onCreated(team);
    },
  });
}

/**
 * The team's page, or null when the member is not in it (the same not-found page as for a team
 * that does not exist); any other failure leads to the /error page.
 */
export function useTeam(slug: string) {
  return useQuery({
    queryKey: teamKeys.team(slug),
    queryFn: async ({ signal, client, queryKey }): Promise<TeamPage | null> => {
      try {
        return await api.get<TeamPage>(teamPath(slug), {
          signal,
          errorPage: true,
          ownNotFound: true,
          shown: client.getQueryData(queryKey) !== undefined,
          failure: {
            title: "Error loading team",
            description: "We couldn't complete your request. Please try again later.",
          },
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/**
 * Tells the server the member opened the team's page: what their teammates changed is no longer
 * new to them on their next visit. The page on screen keeps its marks (nothing is refetched).
 */
export function useMarkTeamSeen(slug: string) {
  return useMutation({ mutationFn: () => api.post(`${teamPath(slug)}/seen`) });
}

/** The team's open invite links, newest first (its owners only). */
export function useOpenInvites(slug: string) {
  return useQuery({
    queryKey: teamKeys.invites(slug),
    queryFn: ({ signal }) => api.get<OpenInvite[]>(`${teamPath(slug)}/invites`, { signal }),
  });
}

/** Makes an invite link; its address is in the answer, this once. */
export function useCreateInvite(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<NewInvite>(`${teamPath(slug)}/invites`),
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.invites(slug) }),
  });
}

export function useRevokeInvite(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`${teamPath(slug)}/invites/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.invites(slug) }),
  });
}

/** Removes a member (owners), or leaves the team (the member naming themselves). */
export function useRemoveMember(slug: string, onRemoved?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (username: string) =>
      api.delete(`${teamPath(slug)}/members/${encodeURIComponent(username)}`),
    onSuccess: async () => {
      onRemoved?.();
      await client.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
}

/** Joins the team of the invite link whose token is `token` (already in it: nothing changes). */
export function useJoinTeam(token: string) {
  return useMutation({
    mutationFn: () => api.post<JoinedTeam>(`/api/invites/${encodeURIComponent(token)}`),
  });
}
