// A member's prisms and hearts: the queries, their polling, and the writes.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Audience } from "../../../contract/audiences.ts";
import type { HeartStatus, MoveDirection, Prism } from "../../../contract/prisms.ts";
import type { Responders } from "../../../contract/responders.ts";
import { ApiError, api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { usePollInterval } from "../../live/status.ts";

/** Spec §7: the prism list polls every 500 ms (a cheap 304) while no live stream is open. */
/** What a member's prism list is and where it comes from (the page reads it, sign-in fills it). */
export const prismsQuery = (username: string) =>
  queryOptions({
    queryKey: queryKeys.prisms(username),
    queryFn: ({ signal }) =>
      api.get<Prism[]>(`/api/prisms/${encodeURIComponent(username)}`, { signal }),
  });

export function usePrisms(username: string) {
  return useQuery({
    ...prismsQuery(username),
    staleTime: 0,
    refetchInterval: usePollInterval(500),
  });
}

/** Spec §7: heart status polls every 3 s while no live stream is open, and is fresh for 2 s. */
export function useHeartStatus(prismId: number) {
  return useQuery({
    queryKey: queryKeys.heart(prismId),
    queryFn: ({ signal }) => api.get<HeartStatus>(`/api/prisms/${prismId}/heart`, { signal }),
    staleTime: 2000,
    refetchInterval: usePollInterval(3000),
  });
}

export function useToggleHeart(prismId: number, username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<HeartStatus>(`/api/prisms/${prismId}/heart`),
    onSuccess: (status) => {
      queryClient.setQueryData(queryKeys.heart(prismId), status);
      void queryClient.invalidateQueries({ queryKey: queryKeys.prisms(username) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
    },
    onError: (error) => toastError("Error", error.message),
  });
}

export interface PrismDraft {
  title: string;
  content: string;
  audience: Audience;
}

export function usePrismWrites(username: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.prisms(username) });

  const create = useMutation({
    mutationFn: (draft: PrismDraft) => api.post<Prism>("/api/prisms", draft),
    onSuccess: async () => {
      await refresh();
      toastSuccess("prism created", "Your new prism has been added.");
    },
    onError: (error) => toastError("Error creating prism", error.message),
  });

  const update = useMutation({
    mutationFn: ({ id, ...draft }: PrismDraft & { id: number }) =>
      api.put<Prism>(`/api/prisms/${id}`, { id, ...draft }),
    onSuccess: async (prism) => {
      await refresh();
      void queryClient.invalidateQueries({ queryKey: queryKeys.heart(prism.id) });
      toastSuccess("prism updated", "Your changes have been saved.");
    },
    onError: (error) => toastError("Error updating prism", error.message),
  });

  const remove = useMutation({
    mutationFn: (id: number) => api.delete(`/api/prisms/${id}`),
    onSuccess: async () => {
      await refresh();
      toastSuccess("prism deleted", "The prism has been removed.");
    },
    onError: (error) => toastError("Error deleting prism", error.message),
  });

  const move = useMutation({
    mutationFn: async ({ id, direction }: { id: number; direction: MoveDirection }) => {
      try {
        return await api.put<Prism>(`/api/prisms/${id}/move`, { direction });
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 0;
        throw new Error(`Server returned ${status}: ${(error as Error).message}`);
      }
    },
    onSuccess: () => refresh(),
    onError: () =>
      toastError("Error moving prism", "Could not change the order. Please try again."),
  });

  const responders = useMutation({
    mutationFn: ({ id, responders }: { id: number; responders: Responders }) =>
      api.put<Prism>(`/api/prisms/${id}/responders`, { responders }),
    onSuccess: async () => {
      await refresh();
      toastSuccess("prism updated", "Your changes have been saved.");
    },
    onError: (error) => toastError("Error updating prism", error.message),
  });

  return { create, update, remove, move, responders };
}
