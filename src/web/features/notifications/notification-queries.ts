// A member's notifications: lists, the unread count, and what can be done with them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Notification, NotificationCount } from "../../../contract/notifications.ts";
import { api } from "../../lib/api.ts";
import { usePollInterval } from "../../lib/live.ts";
import { queryKeys } from "../../lib/query.ts";
import { toastDuration, toastError, toastSuccess } from "../../lib/toast.ts";
import { useCurrentUser } from "../auth/use-current-user.ts";

/** Spec §7: notification lists and the unread count poll every 30 s (unless the live stream is open). */
const POLL_MS = 30_000;

export function useNotificationList(limit: number, offset: number) {
  const { user } = useCurrentUser();
  return useQuery({
    queryKey: queryKeys.notificationPage(limit, offset),
    queryFn: ({ signal }) =>
      api.get<Notification[]>(`/api/notifications?limit=${limit}&offset=${offset}`, {
        errorPage: false,
        signal,
      }),
    enabled: user !== null,
    staleTime: POLL_MS,
    refetchInterval: usePollInterval(POLL_MS),
  });
}

export function useUnreadCount() {
  const { user } = useCurrentUser();
  return useQuery({
    queryKey: queryKeys.unreadCount,
    queryFn: ({ signal }) =>
      api.get<NotificationCount>("/api/notifications/unread-count", { errorPage: false, signal }),
    enabled: user !== null,
    staleTime: POLL_MS,
    refetchInterval: usePollInterval(POLL_MS),
  });
}

export function useNotificationActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications });

  const markRead = useMutation({
    mutationFn: (id: number) =>
      api.post<Notification>(`/api/notifications/${id}/read`, undefined, { errorPage: false }),
    onSuccess: () => refresh(),
    onError: (error) => toastError("Update failed", error.message),
  });
  const markAllRead = useMutation({
    mutationFn: () =>
      api.post<NotificationCount>("/api/notifications/read-all", undefined, { errorPage: false }),
    onError: (error) => toastError("Update failed", error.message),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete(`/api/notifications/${id}`, { errorPage: false }),
    onSuccess: () => refresh(),
    onError: (error) => toastError("Delete failed", error.message),
  });
  return { markRead, markAllRead, remove, refresh };
}

/** "liked your Prism" or "added an annotation to your Prism", after the actor's name. */
export function notificationVerb(notification: Notification): string {
  return notification.type === "annotation"
    ? "added an annotation to your Prism"
    : "liked your Prism";
}

export const allMarkedToast = () =>
  toastSuccess("All marked as read", undefined, toastDuration.quick);
