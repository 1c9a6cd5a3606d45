// Teams: joining one by its invite link.
import { useMutation } from "@tanstack/react-query";
import type { JoinedTeam } from "../../../contract/teams.ts";
import { api } from "../../lib/api.ts";

/** Joins the team of the invite link whose token is `token` (already in it: nothing changes). */
export function useJoinTeam(token: string) {
  return useMutation({
    mutationFn: () => api.post<JoinedTeam>(`/api/invites/${encodeURIComponent(token)}`),
  });
}
