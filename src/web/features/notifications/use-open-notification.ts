// Following a notification: mark it read, go to the prism owner's page (a teammate's prism: to
// that prism), then open the annotation.
import { useLocation } from "wouter";
import { prismLink } from "../../../contract/feeds.ts";
import type { Notification } from "../../../contract/notifications.ts";
import { requestOpenAnnotation } from "../annotations/open-annotation.ts";

const OPEN_AFTER_MS = 100;

export function useOpenNotification() {
  const [, navigate] = useLocation();
  return (notification: Notification) => {
    // A teammate's prism opens at that prism; anything else on the owner's page.
    navigate(
      notification.type === "team.prism"
        ? prismLink(notification.prismOwnerUsername, notification.prismId)
        : `/${notification.prismOwnerUsername}`,
    );
    const { annotationId } = notification;
    setTimeout(() => {
      if (annotationId !== null) {
        requestOpenAnnotation({
          annotationId,
          prismId: notification.prismId,
          username: notification.prismOwnerUsername,
        });
      }
    }, OPEN_AFTER_MS);
  };
}
