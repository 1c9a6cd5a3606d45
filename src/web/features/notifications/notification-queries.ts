// A member's notifications: lists, the unread count, and what can be done with them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Notification, NotificationCount } from "../../../contract/notifications.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { toastError } from "../../lib/toast.ts";
import { usePollInterval } from "../../live/status.ts";
import { useCurrentUser } from "../auth/auth-queries.ts";

/** Spec §7: notification lists and the unread count poll every 30 s (unless the live stream is open). */
const POLL_MS = 30_000;

/** What the tray and the page say when the list cannot be loaded (they offer Retry). */
export const LOAD_ERROR = "There was an error loading notifications. Please try again later.";

export function useNotificationList(limit: number, offset: number) {
  const { user } = useCurrentUser();
  return useQuery({
    queryKey: queryKeys.notificationPage(limit, offset),
    queryFn: ({ signal }) =>
      api.get<Notification[]>(`/api/notifications?limit=${limit}&offset=${offset}`, { signal }),
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
      api.get<NotificationCount>("/api/notifications/unread-count", { signal }),
    enabled: user !== null,
    staleTime: POLL_MS,
    refetchInterval: usePollInterval(POLL_MS),
  });
}

export function useNotificationActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
  /** Shows no unread notifications at once, without asking the server. */
  const clearUnreadCount = () => queryClient.setQueryData(queryKeys.unreadCount, { count: 0 });

  const markRead = useMutation({
    mutationFn: (id: number) => api.post<Notification>(`/api/notifications/${id}/read`),
    onSuccess: () => refresh(),
    onError: (error) => toastError("Update failed", error.message),
  });
  const markAllRead = useMutation({
    mutationFn: () => api.post<NotificationCount>("/api/notifications/read-all"),
    onError: (error) => toastError("Update failed", error.message),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete(`/api/notifications/${id}`),
    onSuccess: () => refresh(),
    onError: (error) => toastError("Delete failed", error.message),
  });
  return { markRead, markAllRead, remove, refresh, clearUnreadCount };
}
