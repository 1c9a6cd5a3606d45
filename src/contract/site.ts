// What this server offers that needs a service it may lack: Google sign-in and outgoing mail.
// Pages hide or explain what depends on one that is not configured, instead of pretending.
import { z } from "zod";

/** What GET /api/site answers: the same for everyone, until the server restarts. */
export const siteServicesSchema = z.object({
  /** Google sign-in is configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET). */
  googleSignIn: z.boolean(),
  /** The server can send e-mail (SMTP_URL): password reset links, contact messages, notices. */
  outgoingMail: z.boolean(),
});
export type SiteServices = z.infer<typeof siteServicesSchema>;
