// Following a notification: mark it read, go to the prism owner's page, then open the annotation.
import { useLocation } from "wouter";
import type { Notification } from "../../../contract/notifications.ts";
import { requestOpenAnnotation } from "../annotations/open-annotation.ts";

const OPEN_AFTER_MS = 100;

export function useOpenNotification() {
  const [, navigate] = useLocation();
  return (notification: Notification) => {
    navigate(`/${notification.prismOwnerUsername}`);
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
