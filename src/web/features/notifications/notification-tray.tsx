// The bell beside the member menu: the unread count, and the five newest notifications.
import { Bell } from "lucide-react";
import { useState } from "react";
import { useLocation } from "wouter";
import type { Notification } from "../../../contract/notifications.ts";
import { Button } from "../../components/ui/button.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "../../components/ui/popover.tsx";
import { DecisionButtons } from "../annotations/decision-buttons.tsx";
import {
  LOAD_ERROR,
  useNotificationActions,
  useNotificationList,
  useUnreadCount,
} from "./notification-queries.ts";
import { NotificationText } from "./notification-text.tsx";
import { useOpenNotification } from "./use-open-notification.ts";

const TRAY_SIZE = 5;
const VIEW_ALL_DELAY_MS = 50;

export function NotificationTray() {
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount();
  const list = useNotificationList(TRAY_SIZE, 0);
  const { markAllRead, clearUnreadCount } = useNotificationActions();
  const [, navigate] = useLocation();
  const openNotification = useOpenNotification();
  const count = unread.data?.count ?? 0;
  const badge = count > 99 ? "99+" : String(count);

  // Opening the tray marks everything read, but it keeps showing what was unread when it opened
  // (with the approve and reject controls) until it closes. It reads the newest list first, so
  // that what it marks read is what it shows.
  const [unreadAtOpen, setUnreadAtOpen] = useState<Set<number> | null>(null);
  const wasUnread = (notification: Notification) =>
    unreadAtOpen?.has(notification.id) ?? !notification.read;

  async function handleOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setUnreadAtOpen(null);
      return;
    }
    const { data, isError } = await list.refetch();
    // Nothing is marked read that could not be shown.
    if (isError) return;
    const unreadIds = new Set((data ?? []).filter((n) => !n.read).map((n) => n.id));
    setUnreadAtOpen(unreadIds);
    if (unreadIds.size > 0 || count > 0) {
      markAllRead.mutate(undefined, { onSuccess: clearUnreadCount });
    }
  }

  /** A decided annotation's notification no longer offers the controls. */
  function settle(notification: Notification) {
    setUnreadAtOpen((ids) => new Set([...(ids ?? [])].filter((id) => id !== notification.id)));
  }

  function handleItem(notification: Notification) {
    setOpen(false);
    openNotification(notification);
  }

  return (
    <Popover modal open={open} onOpenChange={(next) => void handleOpenChange(next)}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={count > 0 ? `Notifications, ${badge} unread` : "Notifications"}
        >
          <Bell aria-hidden="true" />
          {count > 0 ? (
            <span
              aria-hidden="true"
              className="absolute right-1 top-1 inline-flex min-w-5 items-center justify-center rounded-full bg-rose-800 px-1 text-[11px] font-semibold text-white"
            >
              {badge}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        aria-label="Notifications"
        className="flex max-h-[400px] w-[350px] max-w-[calc(100vw-1rem)] flex-col overflow-hidden"
      >
        <div className="border-b border-border px-4 py-3 font-semibold">Notifications</div>
        <div className="flex-1 overflow-y-auto">
          {list.isPending ? (
            <p className="px-4 py-6 text-center text-sm text-muted-foreground">Loading...</p>
          ) : list.isError ? (
            <LoadError
              message={LOAD_ERROR}
              onRetry={() => void list.refetch()}
              retrying={list.isFetching}
              compact
              className="m-3"
            />
          ) : !list.data?.length ? (
            <p className="px-4 py-6 text-center text-sm text-muted-foreground">
              No notifications yet
            </p>
          ) : (
            <ul>
              {list.data.map((notification) => (
                <li key={notification.id} className="border-b border-border last:border-b-0">
                  <a
                    href={`/${notification.prismOwnerUsername}`}
                    onClick={(event) => {
                      event.preventDefault();
                      handleItem(notification);
                    }}
                    className={`block px-4 py-3 text-sm hover:bg-muted focus-visible:bg-muted focus-visible:outline-none ${wasUnread(notification) ? "bg-primary/5" : ""}`}
                  >
                    <NotificationText notification={notification} />
                  </a>
                  {notification.type === "annotation" &&
                  wasUnread(notification) &&
                  notification.annotationId !== null &&
                  notification.annotationStatus === "pending" ? (
                    <DecisionButtons
                      annotationId={notification.annotationId}
                      className="flex gap-2 px-4 pb-3"
                      onDecided={() => settle(notification)}
                    />
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="border-t border-border p-2">
          <Button variant="ghost" className="w-full" asChild>
            <a
              href="/notifications"
              onClick={(event) => {
                event.preventDefault();
                setOpen(false);
                setTimeout(() => navigate("/notifications"), VIEW_ALL_DELAY_MS);
              }}
            >
              View all notifications
            </a>
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
