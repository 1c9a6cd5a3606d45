// What a member looks like on the wire, and the profile-settings form.
import { z } from "zod";
import { limits } from "./limits.ts";
import { singleLine, text } from "./text.ts";
import { isHttpUrl } from "./url.ts";

const optionalText = z.string().nullable();

/**
 * When Prism e-mails a member about new responses to review and replies to theirs: each at once,
 * in one digest a day, or not at all.
 */
export const emailNotificationsSchema = z.enum(["immediately", "daily", "never"]);
export type EmailNotifications = z.infer<typeof emailNotificationsSchema>;

/**
 * What a member asks of responses to their prisms written without an account: the person check
 * (responses the spam score finds doubtful go to Spam), every one held for their review (the
 * score never sets one aside), or none at all (members only).
 */
export const anonymousResponsesSchema = z.enum(["check", "hold", "members"]);
export type AnonymousResponses = z.infer<typeof anonymousResponsesSchema>;

/** What a link in a response written without an account does: nothing, holds it, or makes it spam. */
export const anonymousLinksSchema = z.enum(["allowed", "held", "spam"]);
export type AnonymousLinks = z.infer<typeof anonymousLinksSchema>;

/** Watched words: at most this many, each at most WATCHED_WORD_MAX characters. */
export const WATCHED_WORDS_MAX = 50;
export const WATCHED_WORD_MAX = 60;

/**
 * Words or phrases that hold a response for review, matched as whole words in any case; blank
 * entries are dropped and repeats kept once.
 */
export const watchedWordsSchema = z
  .array(
    singleLine()
      .trim()
      .max(WATCHED_WORD_MAX, `Watched words must be at most ${WATCHED_WORD_MAX} characters each`),
  )
  .max(WATCHED_WORDS_MAX, `Watch at most ${WATCHED_WORDS_MAX} words`)
  .transform((words) => [...new Set(words.filter((word) => word !== ""))]);

/** Fields anyone may see. Never the email, password hash or Google id. */
export const publicUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: optionalText,
  websiteUrl: optionalText,
  twitterUrl: optionalText,
  linkedinUrl: optionalText,
  profileImageUrl: optionalText,
  /** The website links back to this member's Prism page with rel="me", as last checked. */
  websiteVerified: z.boolean(),
  /** The member takes responses from signed-in members only (Profile Settings' "Members only"). */
  membersOnly: z.boolean(),
  /** Search engines may index the member's page and explore shows it; unlisted, only its link leads there. */
  listed: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** The signed-in member's own view of themselves. */
export const currentUserSchema = publicUserSchema.extend({
  email: z.string(),
  isAdmin: z.boolean(),
  authProvider: z.enum(["local", "google"]),
  /** A Google account is connected (it signs in to this account). */
  googleConnected: z.boolean(),
  /** The member can sign in with a password (and so may disconnect Google). */
  hasPassword: z.boolean(),
  /** When the website was last checked for its rel="me" link back; null until it has been. */
  websiteCheckedAt: z.string().nullable(),
  lastActiveAt: z.string().nullable(),
  createdAt: z.string(),
  /** Responses by signed-in members to this member's prisms are approved at once. */
  preapproveMembers: z.boolean(),
  /** Responses by members who share a team with this member are approved at once. */
  preapproveTeammates: z.boolean(),
  /** The member is told when a teammate writes or edits a prism. */
  notifyTeamPrisms: z.boolean(),
  emailNotifications: emailNotificationsSchema,
  anonymousResponses: anonymousResponsesSchema,
  anonymousLinks: anonymousLinksSchema,
  watchedWords: z.array(z.string()),
  /** The member may be followed from the fediverse (ActivityPub). */
  federated: z.boolean(),
  /** Follows from the fediverse wait for the member to accept them (else they are accepted at once). */
  approveFollowers: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** Path parameter of a username (looked up, so any text without control characters). */
export const usernameParam = text().max(100);

export const profileMessages = {
  googleOnly:
    "Google is how you sign in: choose a password first (Forgot password? on the sign-in page).",
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  invalidEmail: "Invalid email address",
  invalidUrl: "Must be a valid URL",
} as const;

/** An optional http(s) link: empty means "none". */
const optionalUrl = text()
  .trim()
  .max(limits.urlMax, `Must be at most ${limits.urlMax} characters`)
  .refine((v) => v === "" || isHttpUrl(v), profileMessages.invalidUrl);

export const emailField = text()
  .trim()
  .max(limits.emailMax, `Email must be at most ${limits.emailMax} characters`)
  .pipe(z.email(profileMessages.invalidEmail));

export const firstNameField = singleLine()
  .trim()
  .min(1, profileMessages.firstNameRequired)
  .max(limits.nameMax, `First name must be at most ${limits.nameMax} characters`);
export const lastNameField = singleLine()
  .trim()
  .min(1, profileMessages.lastNameRequired)
  .max(limits.nameMax, `Last name must be at most ${limits.nameMax} characters`);

/**
 * What the four sensitive actions (changing the e-mail or password, connecting or disconnecting
 * Google, deleting the account) answer when the member has not shown again who they are.
 */
export const reauthMessages = {
  currentPasswordRequired: "Enter your current password",
  currentPasswordWrong: "The current password is not correct",
  tooManyGuesses: "Too many wrong passwords. Please wait 15 minutes and try again.",
  confirmWithGoogle:
    "Confirm with Google first: this change needs a Google sign-in from the last 10 minutes.",
  googleUnavailable:
    "This change needs a Google sign-in to confirm it, and Google sign-in is not available on this server.",
} as const;

/** The member's current password, sent with a sensitive change; checked by the server. */
export const currentPassword = text()
  .max(limits.passwordMax, reauthMessages.currentPasswordWrong)
  .optional();

/** The body of a sensitive action that changes nothing else (connect, disconnect, delete). */
export const reauthSchema = z.strictObject({ currentPassword });
export type ReauthInput = z.infer<typeof reauthSchema>;

export const profileUpdateSchema = z.strictObject({
  firstName: firstNameField,
  lastName: lastNameField,
  email: emailField,
  displayName: singleLine()
    .trim()
    .max(limits.nameMax, `Display name must be at most ${limits.nameMax} characters`),
  websiteUrl: optionalUrl,
  twitterUrl: optionalUrl,
  linkedinUrl: optionalUrl,
  /** Left out by clients that do not show it: the setting stays as it is. */
  preapproveMembers: z.boolean().optional(),
  /** Left out by clients that do not show it: the setting stays as it is. */
  preapproveTeammates: z.boolean().optional(),
  /** Left out by clients that do not show it: the setting stays as it is. */
  notifyTeamPrisms: z.boolean().optional(),
  /** Left out by clients that do not show it: the setting stays as it is. */
  emailNotifications: emailNotificationsSchema.optional(),
  /** Left out by clients that do not show it: the setting stays as it is. */
  anonymousResponses: anonymousResponsesSchema.optional(),
  /** Left out by clients that do not show it: the setting stays as it is. */
  anonymousLinks: anonymousLinksSchema.optional(),
  /** Left out by clients that do not show it: the list stays as it is. */
  watchedWords: watchedWordsSchema.optional(),
  federated: z.boolean().optional(),
  /** Left out by clients that do not show it: the setting stays as it is. */
  approveFollowers: z.boolean().optional(),
  listed: z.boolean().optional(),
  /** Needed when the e-mail changes. */
  currentPassword,
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
