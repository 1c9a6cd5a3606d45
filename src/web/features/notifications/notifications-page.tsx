// /notifications: every notification, ten to a page, with what can be done about each.
import { Check, RefreshCw, Trash2 } from "lucide-react";
import { useState } from "react";
import type { Notification } from "../../../contract/notifications.ts";
import { Button } from "../../components/ui/button.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { toastDuration, toastSuccess } from "../../lib/toast.ts";
import { DecisionButtons } from "../annotations/decision-buttons.tsx";
import {
  LOAD_ERROR,
  useNotificationActions,
  useNotificationList,
  useUnreadCount,
} from "./notification-queries.ts";
import { NotificationText } from "./notification-text.tsx";
import { NotificationRowsSkeleton } from "./notifications-skeleton.tsx";
import { useOpenNotification } from "./use-open-notification.ts";

const PAGE_SIZE = 10;

export function NotificationsPage() {
  const [page, setPage] = useState(0);
  const list = useNotificationList(PAGE_SIZE, page * PAGE_SIZE);
  const unread = useUnreadCount();
  const actions = useNotificationActions();
  const openNotification = useOpenNotification();
  const unreadCount = unread.data?.count ?? 0;
  const items = list.data ?? [];

  async function handleRefresh() {
    await Promise.all([list.refetch(), unread.refetch()]);
    toastSuccess("Refreshed", undefined, toastDuration.quick);
  }

  function handleOpen(notification: Notification) {
    if (!notification.read) actions.markRead.mutate(notification.id);
    openNotification(notification);
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-semibold tracking-tight">Notifications</h1>
        <div className="flex gap-2">
          {unreadCount > 0 ? (
            <Button
              variant="outline"
              size="sm"
              disabled={actions.markAllRead.isPending}
              onClick={() =>
                actions.markAllRead.mutate(undefined, {
                  onSuccess: async () => {
                    await actions.refresh();
                    toastSuccess("All marked as read", undefined, toastDuration.quick);
                  },
                })
              }
            >
              <Check aria-hidden="true" /> Mark all as read
            </Button>
          ) : null}
          <Button variant="outline" size="sm" onClick={handleRefresh} disabled={list.isFetching}>
            <RefreshCw aria-hidden="true" /> Refresh
          </Button>
        </div>
      </div>

      <div className="mt-8">
        {list.isPending ? (
          <NotificationRowsSkeleton />
        ) : list.isError ? (
          <LoadError
            message={LOAD_ERROR}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        ) : items.length === 0 ? (
          <EmptyState
            title="No notifications yet"
            description="Notifications will appear when someone interacts with your Prisms"
          />
        ) : (
          <ul className="divide-y divide-border rounded-2xl border border-border">
            {items.map((notification) => (
              <li
                key={notification.id}
                className={`flex flex-col gap-3 p-4 sm:flex-row sm:items-center ${notification.read ? "" : "bg-primary/5"}`}
              >
                <a
                  href={`/${notification.prismOwnerUsername}`}
                  onClick={(event) => {
                    event.preventDefault();
                    handleOpen(notification);
                  }}
                  className="min-w-0 flex-1 rounded-md text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {notification.read ? null : <span className="sr-only">Unread: </span>}
                  <NotificationText notification={notification} />
                </a>
                <div className="flex flex-wrap gap-2">
                  {notification.type === "annotation" &&
                  notification.annotationId !== null &&
                  notification.annotationStatus === "pending" ? (
                    <DecisionButtons
                      annotationId={notification.annotationId}
                      className="flex flex-wrap gap-2"
                      labels={{ approve: "Approve Annotation", reject: "Reject Annotation" }}
                    />
                  ) : null}
                  {notification.type !== "annotation" && !notification.read ? (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => actions.markRead.mutate(notification.id)}
                    >
                      Mark as read
                    </Button>
                  ) : null}
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Delete notification about "${notification.prismTitle}"`}
                    onClick={() => actions.remove.mutate(notification.id)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>

      <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-4">
        <Button
          variant="outline"
          size="sm"
          disabled={page === 0}
          onClick={() => setPage((p) => p - 1)}
        >
          Previous
        </Button>
        <span className="text-sm text-muted-foreground">Page {page + 1}</span>
        <Button
          variant="outline"
          size="sm"
          disabled={items.length < PAGE_SIZE}
          onClick={() => setPage((p) => p + 1)}
        >
          Next
        </Button>
      </nav>
    </div>
  );
}
