// E-mail notifications: the one-click unsubscribe every such message carries (RFC 8058).
import { z } from "zod";

/** The query of `POST /api/email/unsubscribe` and of the page its e-mails link to (`/unsubscribe`). */
export const unsubscribeQuerySchema = z.object({ token: z.string().max(200) });

export const emailMessages = {
  unsubscribed: "You will get no more e-mail notifications from Prism.",
  unknownToken: "This unsubscribe link is not valid",
  tooMany: "Too many unsubscribe requests. Please wait a few minutes and try again.",
} as const;
