// The Catalyst dashboard's data and the admins' actions, each with the toasts of spec §8. Every
// action refreshes everything the dashboard shows.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AnnotationStatus } from "../../../contract/annotations.ts";
import type {
  ActivityDay,
  AuditEntry,
  CatalystAnnotation,
  CatalystContactMessage,
  CatalystFederation,
  CatalystPrism,
  CatalystReport,
  CatalystStats,
  CatalystTeam,
  CatalystUser,
  DomainPolicy,
} from "../../../contract/catalyst.ts";
import type { Page } from "../../../contract/paging.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

/** Spec §9: the admin tables show ten rows a page. */
export const ADMIN_PAGE_SIZE = 10;

export type CatalystTable =
  | "users"
  | "prisms"
  | "teams"
  | "annotations"
  | "audit"
  | "contact-messages"
  | "reports";

/** What a row of each table is. */
export interface CatalystRows {
  users: CatalystUser;
  prisms: CatalystPrism;
  teams: CatalystTeam;
  annotations: CatalystAnnotation;
  audit: AuditEntry;
  "contact-messages": CatalystContactMessage;
  reports: CatalystReport;
}

export function useCatalystStats() {
  return useQuery({
    queryKey: queryKeys.catalystStats,
    queryFn: ({ signal }) => api.get<CatalystStats>("/api/analytics/stats", { signal }),
  });
}

export function useCatalystActivity() {
  return useQuery({
    queryKey: queryKeys.catalystActivity,
    queryFn: ({ signal }) => api.get<ActivityDay[]>("/api/analytics/activity", { signal }),
  });
}

/** The delivery queue and other servers' domains. */
export function useCatalystFederation() {
  return useQuery({
    queryKey: queryKeys.catalystFederation,
    queryFn: ({ signal }) => api.get<CatalystFederation>("/api/analytics/federation", { signal }),
  });
}

/**
 * One page (from 1) of an admin table, narrowed by `q` and `filters`; the last page stays up while
 * the next loads.
 */
export function useCatalystList<T extends CatalystTable>(
  table: T,
  page: number,
  q: string,
  filters: Record<string, string> = {},
) {
  const params = new URLSearchParams({
    limit: String(ADMIN_PAGE_SIZE),
    offset: String((page - 1) * ADMIN_PAGE_SIZE),
    ...filters,
  });
  if (q) params.set("q", q);
  return useQuery({
    queryKey: queryKeys.catalystList(table, page, q, new URLSearchParams(filters).toString()),
    queryFn: ({ signal }) =>
      api.get<Page<CatalystRows[T]>>(`/api/analytics/${table}?${params}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** An admin action: on success its toast and a refresh of the dashboard, on failure spec §8's toast. */
function useCatalystAction<V>(
  call: (variables: V) => Promise<unknown>,
  toasts: { success: [title: string, description?: string]; failure: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      toastSuccess(...toasts.success);
      await queryClient.invalidateQueries({ queryKey: queryKeys.catalyst });
    },
    onError: (error) => toastError(toasts.failure, error.message || "An error occurred"),
  });
}

export function useUserActions() {
  const setAdmin = useCatalystAction(
    ({ id, isAdmin }: { id: number; isAdmin: boolean }) =>
      api.put<CatalystUser>(`/api/analytics/users/${id}/admin`, { isAdmin }),
    { success: ["User updated"], failure: "Failed to update user" },
  );
  const deactivate = useCatalystAction(
    (id: number) => api.put<CatalystUser>(`/api/analytics/users/${id}/deactivate`),
    { success: ["User deactivated"], failure: "Failed to deactivate user" },
  );
  const reactivate = useCatalystAction(
    (id: number) => api.put<CatalystUser>(`/api/analytics/users/${id}/reactivate`),
    { success: ["User reactivated"], failure: "Failed to reactivate user" },
  );
  const resetPassword = useCatalystAction(
    (id: number) => api.post(`/api/analytics/users/${id}/reset-password`),
    {
      success: ["Password reset initiated", "A password reset email has been sent to the user."],
      failure: "Failed to reset password",
    },
  );
  const silence = useCatalystAction(
    ({ id, silenced }: { id: number; silenced: boolean }) =>
      api.put<CatalystUser>(`/api/analytics/users/${id}/silence`, { silenced }),
    { success: ["User updated"], failure: "Failed to update user" },
  );
  return { setAdmin, deactivate, reactivate, resetPassword, silence };
}

export function useDeletePrism() {
  return useCatalystAction((id: number) => api.delete(`/api/analytics/prisms/${id}`), {
    success: ["Prism deleted"],
    failure: "Failed to delete prism",
  });
}

export function useDeleteTeam() {
  return useCatalystAction((id: number) => api.delete(`/api/analytics/teams/${id}`), {
    success: ["Team deleted"],
    failure: "Failed to delete team",
  });
}

export function useAnnotationActions() {
  const setStatus = useCatalystAction(
    ({ id, status }: { id: number; status: AnnotationStatus }) =>
      api.put(`/api/prisms/0/annotations/${id}/status`, { status }),
    { success: ["Annotation status updated"], failure: "Failed to update annotation" },
  );
  const remove = useCatalystAction((id: number) => api.delete(`/api/analytics/annotations/${id}`), {
    success: ["Annotation deleted"],
    failure: "Failed to delete annotation",
  });
  return { setStatus, remove };
}

/** Limits, blocks or opens again another server's domain. */
export function useSetDomainPolicy() {
  return useCatalystAction(
    ({ domain, policy }: { domain: string; policy: DomainPolicy }) =>
      api.put(`/api/analytics/federation/domains/${encodeURIComponent(domain)}`, { policy }),
    { success: ["Domain updated"], failure: "Failed to update domain" },
  );
}

/** Dismisses a report another server sent (it stays listed, marked dismissed). */
export function useDismissReport() {
  return useCatalystAction((id: number) => api.put(`/api/analytics/reports/${id}/dismiss`), {
    success: ["Report dismissed"],
    failure: "Failed to dismiss report",
  });
}
