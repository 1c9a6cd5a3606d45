// Password reset: asking for a link, and choosing a new password with it; and changing the
// password in Profile Settings.
import { z } from "zod";
import { authMessages } from "./auth.ts";
import { limits } from "./limits.ts";
import { text } from "./text.ts";
import { currentPassword } from "./user.ts";

export const passwordResetMessages = {
  loginRequired: "Please enter your username or email",
  requested: "If that account exists, we have sent a link to reset its password.",
  done: "Your password has been reset. You can sign in now.",
  invalidToken: "This reset link is invalid or has expired.",
  adminSent: "A password reset email has been sent to the user.",
  /** The admin's Reset Password on a server that cannot send e-mail: nothing was sent. */
  adminNoMail: "This site cannot send email, so no password reset email was sent.",
  /** Why the admin's Reset Password is unavailable on a server that cannot send e-mail. */
  adminCannotSend: "This site cannot send email, so no password reset email can be sent.",
  /** Forgot password? on a server that cannot send e-mail. */
  noMail: "This site cannot send email, so it cannot send you a reset link.",
  askAdmin: "Please ask an admin for help.",
  tooMany: "Too many reset requests. Please wait a few minutes and try again.",
} as const;

/** What POST /api/password-reset/request accepts: a username or an e-mail address. */
export const passwordResetRequestSchema = z.strictObject({
  login: text()
    .trim()
    .min(1, passwordResetMessages.loginRequired)
    .max(limits.emailMax, passwordResetMessages.loginRequired),
});
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestSchema>;

const password = text()
  .min(limits.passwordMin, authMessages.passwordMin)
  .max(limits.passwordMax, authMessages.passwordMax);

/** What POST /api/password-reset/confirm accepts. */
export const passwordResetConfirmSchema = z.strictObject({
  token: text().min(1, passwordResetMessages.invalidToken).max(200),
  password,
});

/** The Reset password form: the new password twice. */
export const passwordResetFormSchema = z
  .object({ password, confirmPassword: text() })
  .refine((v) => v.confirmPassword === v.password, {
    message: authMessages.passwordsDiffer,
    path: ["confirmPassword"],
  });
export type PasswordResetFormInput = z.infer<typeof passwordResetFormSchema>;

/** What PUT /api/user/password accepts: a Google-only account, choosing one, sends no current one. */
export const passwordChangeSchema = z.strictObject({ currentPassword, password });
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

/** The Change password form: the new password twice. */
export const passwordChangeFormSchema = passwordChangeSchema
  .extend({ confirmPassword: text() })
  .refine((v) => v.confirmPassword === v.password, {
    message: authMessages.passwordsDiffer,
    path: ["confirmPassword"],
  });
export type PasswordChangeFormInput = z.infer<typeof passwordChangeFormSchema>;

export const messageBodySchema = z.object({ message: z.string() });
