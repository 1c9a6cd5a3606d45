// Notifications on the wire: the tray and /notifications list, the unread count, paging.
import { z } from "zod";
import { annotationStatusSchema } from "./annotations.ts";

/**
 * A heart or a response on the recipient's prism; or, for the member who wrote a response, what
 * became of it: approved, rejected (not approved), or answered by the prism's owner; or a
 * teammate's new or edited prism, for members who asked (one line per prism while unread).
 */
export const notificationTypeSchema = z.enum([
  "heart",
  "annotation",
  "approved",
  "rejected",
  "reply",
  "team.prism",
]);

/** One notification as its recipient sees it; the actor's key never leaves the server. */
export const notificationSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  prismId: z.number().int(),
  type: notificationTypeSchema,
  /** Null for an anonymous actor: the page shows "Someone". */
  actorName: z.string().nullable(),
  /** How many notifications the line stands for: the hearts on one prism are one line. */
  actorCount: z.number().int().min(1),
  /** The newest actors' names, up to 3 (null for anonymous ones); the first is `actorName`. */
  actors: z.array(z.string().nullable()).max(3),
  read: z.boolean(),
  createdAt: z.string(),
  annotationId: z.number().int().nullable(),
  /**
   * Where its annotation stands (null for a heart): Approve and Reject are offered while it is
   * pending, whether the notification was read or not.
   */
  annotationStatus: annotationStatusSchema.nullable(),
  prismTitle: z.string(),
  prismOwnerUsername: z.string(),
  /**
   * What was written, so that a decision needs no second page: the first words of the response
   * (of the owner's reply, for a reply), and of the passage it answers (of the response, for a
   * reply); null for a heart.
   */
  quote: z.string().nullable(),
  passage: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** How much of a response, and of its passage, a notification quotes. */
export const notificationExcerpt = { quote: 140, passage: 80 } as const;

/** The unread count, and how many a mark-all-read changed. */
export const notificationCountSchema = z.object({ count: z.number().int() });
export type NotificationCount = z.infer<typeof notificationCountSchema>;

export const notificationMessages = {
  tooMany: "You're going through your notifications quickly. Please wait a minute and try again.",
};
