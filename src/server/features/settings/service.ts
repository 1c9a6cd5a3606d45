// A member's own profile settings.
import { and, eq } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { oneLine } from "../../../contract/text.ts";
import type { ProfileUpdate } from "../../../contract/user.ts";
import type { Executor } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema.ts";
import { escapeHtml } from "../../escape.ts";
import { notFound } from "../../http-error.ts";
import { mailHtml } from "../../mail/layout.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { deleteSessionsOf } from "../../security/session-store.ts";
import { assertAvailable, emailSetting, writeUser } from "../users/service.ts";

const orNull = (value: string) => (value === "" ? null : value);

/** The member's account with `values` set; 404 when it is gone. */
async function updateAccount(
  db: Executor,
  userId: number,
  values: PgUpdateSetSource<typeof users>,
): Promise<UserRow> {
  const user = await writeUser(
    db.update(users).set(values).where(eq(users.id, userId)).returning(),
  );
  if (!user) throw notFound("Account not found");
  return user;
}

export async function updateProfile(
  db: Executor,
  userId: number,
  input: ProfileUpdate,
): Promise<UserRow> {
  await assertAvailable(db, { email: input.email }, userId);
  const [current] = await db
    .select({ websiteUrl: users.websiteUrl })
    .from(users)
    .where(eq(users.id, userId));
  const websiteUrl = orNull(input.websiteUrl);
  // A new website is not verified until it has been checked.
  const websiteChanged = current !== undefined && current.websiteUrl !== websiteUrl;
  return updateAccount(db, userId, {
    ...(websiteChanged && { websiteVerified: false, websiteCheckedAt: null }),
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    displayName: orNull(input.displayName),
    websiteUrl,
    twitterUrl: orNull(input.twitterUrl),
    linkedinUrl: orNull(input.linkedinUrl),
    preapproveMembers: input.preapproveMembers,
    preapproveTeammates: input.preapproveTeammates,
    notifyTeamPrisms: input.notifyTeamPrisms,
    anonymousResponses: input.anonymousResponses,
    anonymousLinks: input.anonymousLinks,
    watchedWords: input.watchedWords,
    federated: input.federated,
    approveFollowers: input.approveFollowers,
    listed: input.listed,
    ...(input.emailNotifications && emailSetting(input.emailNotifications)),
  });
}

/**
 * Records whether the member's website links back, checked just now; nothing when the member
 * changed or removed the website meanwhile (that one is checked on its own).
 */
export async function recordWebsiteCheck(
  db: Executor,
  userId: number,
  websiteUrl: string,
  verified: boolean,
): Promise<UserRow | undefined> {
  return writeUser(
    db
      .update(users)
      .set({ websiteVerified: verified, websiteCheckedAt: new Date() })
      .where(and(eq(users.id, userId), eq(users.websiteUrl, websiteUrl)))
      .returning(),
  );
}

/** Disconnects Google (the route lets only a member who has a password do it). */
export function disconnectGoogle(db: Executor, userId: number): Promise<UserRow> {
  return updateAccount(db, userId, { googleId: null });
}

/**
 * Sets a new password (hashed before the transaction, which the hashing would hold open) and
 * signs the member out everywhere but in this session, inside the caller's transaction.
 */
export async function changePassword(
  tx: Executor,
  userId: number,
  sessionToken: string,
  passwordHash: string,
): Promise<UserRow> {
  const user = await updateAccount(tx, userId, { password: passwordHash });
  await deleteSessionsOf(tx, userId, sessionToken);
  return user;
}

/** "thief.new@evil.example" → "t***@evil.example": enough to recognise, not to write to. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/**
 * Tells the old address that the account's e-mail changed, naming the new one masked. It carries
 * no link: whoever holds the new address must not get in through it.
 */
export async function mailEmailChanged(
  mailer: Mailer,
  appOrigin: string,
  before: UserRow,
  newEmail: string,
): Promise<void> {
  const hello = `Hello ${oneLine(before.firstName)},`;
  const changed =
    `The e-mail address of your Prism account @${before.username} was changed to ` +
    `${maskEmail(newEmail)}. Messages about the account, such as password resets, go there ` +
    "from now on.";
  const notYou =
    "If you did not make this change, someone else may be using your account: tell us through " +
    `the contact form at ${appOrigin}/contact.`;
  await mailer.send({
    to: before.email,
    subject: "The e-mail address of your Prism account was changed",
    text: `${hello}\n\n${changed}\n\n${notYou}\n`,
    html: mailHtml([hello, changed, notYou].map((line) => `<p>${escapeHtml(line)}</p>`)),
  });
}
