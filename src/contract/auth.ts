// Sign-in and registration: one schema each, used by the forms and the server.
import { z } from "zod";
import { isReservedUsername, limits } from "./limits.ts";
import { text } from "./text.ts";
import { emailField, firstNameField, lastNameField } from "./user.ts";

export const authMessages = {
  usernameMin: "Username must be at least 3 characters",
  usernameMax: `Username must be at most ${limits.usernameMax} characters`,
  usernameFormat: "Username can only contain letters, numbers, _ and -",
  usernameReserved: "This username is not available",
  passwordMin: "Password must be at least 6 characters",
  passwordMax: `Password must be at most ${limits.passwordMax} characters`,
  passwordsDiffer: "Passwords do not match",
  usernameTaken: "Username is already taken",
  emailTaken: "Email is already registered",
  wrongCredentials: "Invalid username or password",
  deactivated: "This account has been deactivated",
  tooManyAttempts: "Too many sign-in attempts. Please wait a few minutes and try again.",
  tooManyRegistrations: "Too many accounts were created from your network. Please try again later.",
  notSignedIn: "You are not signed in",
  /** Where a Google sign-in, connection or confirmation lands on a server without Google. */
  googleNotConfigured: "Google sign-in is not available on this server.",
} as const;

const password = text()
  .min(limits.passwordMin, authMessages.passwordMin)
  .max(limits.passwordMax, authMessages.passwordMax);

export const loginSchema = z.strictObject({
  username: text()
    .trim()
    .min(limits.usernameMin, authMessages.usernameMin)
    .max(limits.usernameMax, authMessages.usernameMax),
  password,
});
export type LoginInput = z.infer<typeof loginSchema>;

const usernameField = text()
  .trim()
  .min(limits.usernameMin, authMessages.usernameMin)
  .max(limits.usernameMax, authMessages.usernameMax)
  .regex(/^[A-Za-z0-9_-]+$/, authMessages.usernameFormat)
  .refine((v) => !isReservedUsername(v), authMessages.usernameReserved);

/** What POST /api/register accepts. */
export const registerSchema = z.strictObject({
  username: usernameField,
  email: emailField,
  firstName: firstNameField,
  lastName: lastNameField,
  password,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The Create account form: the same fields plus a confirmation that is never sent. */
export const registerFormSchema = registerSchema
  .extend({ confirmPassword: text() })
  .refine((v) => v.confirmPassword === v.password, {
    message: authMessages.passwordsDiffer,
    path: ["confirmPassword"],
  });
export type RegisterFormInput = z.infer<typeof registerFormSchema>;
