// Annotations of a profile's prisms: one list per prism, fetched once, and the writes.
import { useMutation, useQueries, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import type { Annotation, AnnotationCreate } from "../../../contract/annotations.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { toastDuration, toastError, toastSuccess } from "../../lib/toast.ts";

/**
 * Every prism's annotation list, each fetched once; keyed by prism id. A failure is said once in a
 * toast (spec §8), and the prisms whose lists failed can be asked again.
 */
export function useProfileAnnotations(prismIds: number[]) {
  const queryClient = useQueryClient();
  const results = useQueries({
    queries: prismIds.map((prismId) => ({
      queryKey: queryKeys.annotations(prismId),
      queryFn: ({ signal }) =>
        api.get<Annotation[]>(`/api/prisms/${prismId}/annotations`, { signal }),
    })),
  });
  const byPrism = new Map<number, Annotation[]>();
  const failed = new Set<number>();
  prismIds.forEach((id, i) => {
    byPrism.set(id, results[i]?.data ?? []);
    if (results[i]?.isError) failed.add(id);
  });
  const anyFailed = failed.size > 0;
  useEffect(() => {
    if (anyFailed) toastError("Failed to fetch annotations");
  }, [anyFailed]);
  const retrying = results.some((r) => r.isError && r.isFetching);
  const retry = (prismId: number) =>
    void queryClient.refetchQueries({ queryKey: queryKeys.annotations(prismId), exact: true });
  return { byPrism, failed, retry, retrying };
}

/** Fetches one annotation afresh (a deep link names it); the promise fails when the request does. */
export function useFetchAnnotation() {
  const queryClient = useQueryClient();
  return useCallback(
    (id: number) =>
      queryClient.fetchQuery({
        queryKey: queryKeys.annotation(id),
        queryFn: ({ signal }) => api.get<Annotation>(`/api/annotations/${id}`, { signal }),
        staleTime: 0,
      }),
    [queryClient],
  );
}

export function useCreateAnnotation(onCreated: (annotation: Annotation) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AnnotationCreate) => api.post<Annotation>("/api/annotations", input),
    onSuccess: async (annotation) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.annotations(annotation.prismId) });
      toastSuccess("Annotation submitted", "Your response has been submitted successfully.");
      onCreated(annotation);
    },
    onError: (error) =>
      toastError(
        "Failed to submit annotation",
        error.message || "An unexpected error occurred. Please try again.",
        toastDuration.submitFailure,
      ),
  });
}

export function useDecideAnnotation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: "approved" | "rejected" }) =>
      api.put<Annotation>(`/api/annotations/${id}/status`, { status }),
    onSuccess: async (annotation) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.annotations(annotation.prismId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.annotation(annotation.id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.notifications }),
      ]);
      if (annotation.status === "approved") {
        toastSuccess(
          "Annotation approved",
          "The annotation has been approved and is now visible to others.",
        );
      } else {
        toastSuccess("Annotation rejected", "The annotation has been rejected.");
      }
    },
    onError: (_error, { status }) =>
      toastError(
        "Error",
        status === "approved"
          ? "Failed to approve annotation. Please try again."
          : "Failed to reject annotation. Please try again.",
      ),
  });
}
