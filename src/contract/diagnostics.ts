// Diagnostics (/api/db-check…) and the error-handling demo (/api/demo/…): what they answer.
import { z } from "zod";
import { text } from "./text.ts";

/** Every diagnostic answers this: whether the check passed, what it found, and why it failed. */
export const diagnosticResultSchema = z.object({
  status: z.enum(["ok", "error"]),
  message: z.string(),
  error: z.string().optional(),
  /** The registration test's member (created, then rolled back). */
  user: z.object({ username: z.string(), email: z.string() }).optional(),
});
export type DiagnosticResult = z.infer<typeof diagnosticResultSchema>;

/** The registration test's body: the registration form's fields, checked by `registerSchema`. */
export const registrationTestSchema = z.object({
  username: text().max(1000),
  email: text().max(1000),
  password: text().max(1000),
  firstName: text().max(1000),
  lastName: text().max(1000),
});
export type RegistrationTestInput = z.infer<typeof registrationTestSchema>;

export const diagnosticMessages = {
  connected: "Database connection works",
  connectionFailed: "Database connection failed",
  registrationWorks: "Registration flow works: the member was created and then rolled back",
  registrationRejected: "Registration flow rejected the test member",
  registrationFailed: "Registration flow failed",
  connectionReset: "Connection reset: the database connection was closed and opened again",
  resetFailed: "Connection reset failed",
  demoSuccess: "It works",
  demoNotFound: "The demo resource does not exist",
  demoServerError: "A simulated server error",
} as const;
