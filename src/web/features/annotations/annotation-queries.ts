// Annotations of a profile's prisms: one list per prism, fetched once, the writes, and an
// anonymous author's view of their own response.
import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import type {
  Annotation,
  AnnotationCreate,
  AnnotationCreated,
  ResponseStatus,
  ReviewAction,
  ReviewPage,
  ReviewStatus,
} from "../../../contract/annotations.ts";
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

/** A response as its author sees it by its private link (`token`), with where it stands. */
export function useResponseStatus(token: string) {
  return useQuery({
    queryKey: queryKeys.responseStatus(token),
    queryFn: ({ signal }) =>
      api.get<ResponseStatus>(`/api/responses/${encodeURIComponent(token)}`, { signal }),
    // The owner may decide or reply at any time: coming back to the tab shows it.
    refetchOnWindowFocus: true,
  });
}

/**
 * How a response is saved: Prism stores it (and the page's lists follow), unless a page saves it
 * its own way (the landing page's example prism).
 */
export type SaveAnnotation = (input: AnnotationCreate) => Promise<Annotation>;

export function useCreateAnnotation(
  onCreated: (annotation: Annotation) => void,
  save?: SaveAnnotation,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn:
      save ??
      (async (input: AnnotationCreate) => {
        const annotation = await api.post<AnnotationCreated>("/api/annotations", input);
        await queryClient.invalidateQueries({
          queryKey: queryKeys.annotations(annotation.prismId),
        });
        return annotation;
      }),
    onSuccess: (annotation) => {
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

/**
 * How an owner's decision is made: Prism stores it (and the page's lists follow), unless a page
 * decides its own way (the landing page's example prism).
 */
export type DecideAnnotation = (decision: Decision) => Promise<Annotation>;
interface Decision {
  id: number;
  status: "approved" | "rejected";
}

export function useDecideAnnotation(decide?: DecideAnnotation) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn:
      decide ??
      (async ({ id, status }: Decision) => {
        const annotation = await api.put<Annotation>(`/api/annotations/${id}/status`, { status });
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: queryKeys.annotations(annotation.prismId) }),
          queryClient.invalidateQueries({ queryKey: queryKeys.annotation(annotation.id) }),
          queryClient.invalidateQueries({ queryKey: queryKeys.notifications }),
          queryClient.invalidateQueries({ queryKey: queryKeys.review }),
        ]);
        return annotation;
      }),
    onSuccess: (annotation) => {
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

/**
 * A page of the owner's review queue (`status`: waiting for review, or the Spam folder): the
 * responses after the one `cursor` names, oldest first.
 */
export function useReviewQueue(status: ReviewStatus, cursor: number | null) {
  const query = new URLSearchParams({ status });
  if (cursor !== null) query.set("cursor", String(cursor));
  return useQuery({
    queryKey: queryKeys.reviewPage(status, cursor),
    queryFn: ({ signal }) => api.get<ReviewPage>(`/api/annotations/review?${query}`, { signal }),
  });
}

/** A decision on responses of the queue (on prisms `prismIds`), all at once; it answers how many. */
interface BulkDecision {
  ids: number[];
  action: ReviewAction;
  prismIds: number[];
}

/** The owner decides on responses of their queue at once: the queue, the prisms' lists and the tray follow. */
export function useBulkDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, action, prismIds }: BulkDecision) => {
      const { changed } = await api.post<{ changed: number }>("/api/annotations/bulk", {
        ids,
        action,
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.review }),
        queryClient.invalidateQueries({ queryKey: queryKeys.notifications }),
        ...[...new Set(prismIds)].map((prismId) =>
          queryClient.invalidateQueries({ queryKey: queryKeys.annotations(prismId) }),
        ),
      ]);
      return changed;
    },
    onError: (error, { action }) =>
      toastError(
        "Error",
        error.message ||
          (action === "approve"
            ? "Failed to approve annotation. Please try again."
            : action === "reject"
              ? "Failed to reject annotation. Please try again."
              : "The responses could not be moved. Please try again."),
      ),
  });
}

/** The owner's reply written, rewritten or taken back: the prism's lists and the tray follow. */
export function useOwnerReply(annotation: Pick<Annotation, "id" | "prismId">) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.annotations(annotation.prismId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.annotation(annotation.id) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.notifications }),
    ]);
  const save = useMutation({
    mutationFn: async (text: string) => {
      const saved = await api.put<Annotation>(`/api/annotations/${annotation.id}/reply`, { text });
      await refresh();
      return saved;
    },
    onSuccess: () => toastSuccess("Reply saved", "Your reply is shown under this response."),
    onError: (error) =>
      toastError(
        "Failed to save reply",
        error.message || "An unexpected error occurred. Please try again.",
      ),
  });
  const remove = useMutation({
    mutationFn: async () => {
      await api.delete(`/api/annotations/${annotation.id}/reply`);
      await refresh();
    },
    onSuccess: () => toastSuccess("Reply deleted"),
    onError: () => toastError("Error", "Failed to delete reply. Please try again."),
  });
  return { save, remove };
}
