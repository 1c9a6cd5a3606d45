// A prism's history, for its owner: its versions, one version's content, and restoring one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Prism } from "../../../contract/prisms.ts";
import type { Revision, RevisionSummary } from "../../../contract/revisions.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

export function useRevisions(prismId: number) {
  return useQuery({
    queryKey: queryKeys.revisions(prismId),
    queryFn: ({ signal }) =>
      api.get<RevisionSummary[]>(`/api/prisms/${prismId}/revisions`, { signal }),
    // A save elsewhere (another tab) adds versions: the list is read each time it is shown.
    staleTime: 0,
  });
}

/** One version's content; a kept version never changes. */
export function useRevision(prismId: number, number: number | undefined) {
  return useQuery({
    queryKey: queryKeys.revision(prismId, number ?? 0),
    queryFn: ({ signal }) =>
      api.get<Revision>(`/api/prisms/${prismId}/revisions/${number}`, { signal }),
    enabled: number !== undefined,
  });
}

export function useRestoreRevision(prismId: number, username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (number: number) =>
      api.post<Prism>(`/api/prisms/${prismId}/revisions/${number}/restore`),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.prisms(username) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.revisions(prismId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.heart(prismId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.annotations(prismId) }),
      ]);
      toastSuccess("prism updated", "Your changes have been saved.");
    },
    onError: (error) => toastError("Error updating prism", error.message),
  });
}
