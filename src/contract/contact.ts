// The contact form: one schema for the form and the server.
import { z } from "zod";
import { limits } from "./limits.ts";
import { singleLine, text } from "./text.ts";

export const contactMessages = {
  name: "Name must be at least 2 characters.",
  email: "Please enter a valid email address.",
  subject: "Subject must be at least 2 characters.",
  message: "Message must be at least 10 characters.",
  tooMany: "You have sent several messages already. Please wait a few minutes and try again.",
} as const;

export const contactSchema = z.strictObject({
  name: singleLine()
    .trim()
    .min(2, contactMessages.name)
    .max(limits.nameMax, `Name must be at most ${limits.nameMax} characters.`),
  email: text()
    .trim()
    .max(limits.emailMax, contactMessages.email)
    .pipe(z.email(contactMessages.email)),
  subject: singleLine()
    .trim()
    .min(2, contactMessages.subject)
    .max(200, "Subject must be at most 200 characters."),
  message: text()
    .trim()
    .min(10, contactMessages.message)
    .max(5000, "Message must be at most 5,000 characters."),
});
export type ContactInput = z.infer<typeof contactSchema>;
export type ContactFormInput = z.input<typeof contactSchema>;
