// A member's credentials and sessions: registering, signing in (with a password or Google) and
// out, a new password (chosen by the member, or by a reset link, which a visitor or an admin asks
// to be mailed), confirming who they are, and connecting or disconnecting Google. Each is one
// transaction; when sessions end, their open streams end too, on every instance, once it has
// committed; mail goes once it has committed.
import type { RegisterInput } from "../../contract/auth.ts";
import { catalystMessages } from "../../contract/catalyst.ts";
import { passwordResetMessages } from "../../contract/password-reset.ts";
import { recordAudit } from "../audit.ts";
import type { Executor } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import {
  findOrCreateUser,
  type GoogleProfile,
  connectGoogle as linkGoogle,
} from "../features/auth/google-account.ts";
import { markActive } from "../features/auth/service.ts";
import {
  confirmReset,
  createResetToken,
  mailResetLink,
} from "../features/password-reset/service.ts";
import {
  disconnectGoogle as forgetGoogle,
  changePassword as writePassword,
} from "../features/settings/service.ts";
import { findUserById, registerUser } from "../features/users/service.ts";
import { conflict, notFound } from "../http-error.ts";
import { hashPassword } from "../security/passwords.ts";
import {
  confirmSession,
  createSession,
  deleteSession,
  isRecentlyConfirmed,
} from "../security/session-store.ts";
import { hashToken } from "../security/tokens.ts";
import { commit, type MailingWrite, type WriteContext } from "./write.ts";

/** The browser a session starts in. */
export interface Browser {
  userAgent: string | undefined;
  /** The token of the session it came with, if any: signing in ends that one. */
  previousToken: string | undefined;
}

/** A new session for the member in `browser`, which leaves the session it came with behind. */
async function startSession(tx: Executor, userId: number, browser: Browser, confirmed = false) {
  if (browser.previousToken) await deleteSession(tx, browser.previousToken);
  return createSession(tx, userId, browser.userAgent, confirmed);
}

/** A visitor creates an account; answers it with its first session's token. */
export function register(
  write: WriteContext<null>,
  input: RegisterInput,
  browser: Browser,
): Promise<{ user: UserRow; token: string }> {
  return commit(write, async (tx) => {
    const user = await registerUser(tx, input);
    return { user, token: await startSession(tx, user.id, browser) };
  });
}

/**
 * A member whose credentials were checked signs in: a new session, and their last activity.
 * Answers the member as they now are, with the session's token.
 */
export function signIn(
  write: WriteContext,
  browser: Browser,
): Promise<{ user: UserRow; token: string }> {
  return commit(write, async (tx) => {
    const token = await startSession(tx, write.actor.id, browser);
    return { user: await markActive(tx, write.actor.id), token };
  });
}

/**
 * A visitor signs in with the Google account of `profile`, whose member is created on first use.
 * Answers the session's token and whether the member was created; null, changing nothing, for a
 * deactivated member.
 */
export function signInWithGoogle(
  write: WriteContext<null>,
  profile: GoogleProfile,
  browser: Browser,
): Promise<{ token: string; created: boolean } | null> {
  return commit(write, async (tx) => {
    const { user, created } = await findOrCreateUser(tx, profile);
    if (user.deactivatedAt) return null;
    await markActive(tx, user.id);
    // A Google sign-in is as good as a password given just now.
    return { token: await startSession(tx, user.id, browser, true), created };
  });
}

/** Ends the session of `token`; a signed-in member's streams from it end on every process. */
export function signOut(write: WriteContext<UserRow | null>, token: string): Promise<void> {
  return commit(write, async (tx, record) => {
    await deleteSession(tx, token);
    if (write.actor) {
      record({ type: "sessions.ended", userId: write.actor.id, session: hashToken(token) });
    }
  });
}

/**
 * The member sets a new password (the hash made before the transaction, which it would hold
 * open): every other session of theirs ends, this one stays.
 */
export async function changePassword(
  write: WriteContext,
  sessionToken: string,
  password: string,
): Promise<UserRow> {
  const passwordHash = await hashPassword(password);
  return commit(write, async (tx, record) => {
    const user = await writePassword(tx, write.actor.id, sessionToken, passwordHash);
    record({ type: "sessions.ended", userId: user.id });
    return user;
  });
}

/** A reset link's new password: the member is signed out everywhere. */
export async function confirmPasswordReset(
  write: WriteContext<null>,
  token: string,
  password: string,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  return commit(write, async (tx, record) => {
    record({ type: "sessions.ended", userId: await confirmReset(tx, token, passwordHash) });
  });
}

/**
 * The member connects the Google account `googleId`: only in a session where they gave their
 * password just before (confirmIdentity), and not when they have one connected already.
 */
export function connectGoogle(
  write: WriteContext,
  sessionToken: string,
  googleId: string,
): Promise<void> {
  return commit(write, async (tx) => {
    // The flow's state cookie is the browser's to rewrite: what allows the connection is the
    // password given in this session just before, by a member without Google (so not a session
    // that a Google sign-in confirmed).
    if (write.actor.googleId !== null || !(await isRecentlyConfirmed(tx, sessionToken))) {
      throw new Error("connecting Google needs the password first");
    }
    await linkGoogle(tx, write.actor.id, googleId);
  });
}

/** The member showed who they are again: this session may connect a Google account. */
export function confirmIdentity(write: WriteContext, sessionToken: string): Promise<void> {
  return commit(write, (tx) => confirmSession(tx, sessionToken));
}

/** The member disconnects Google (the route lets only one who has a password do it). */
export function disconnectGoogle(write: WriteContext): Promise<UserRow> {
  return commit(write, (tx) => forgetGoogle(tx, write.actor.id));
}

/**
 * A visitor asked for a reset link for `user` (the account the login they typed names): a new
 * link, mailed once it is stored.
 */
export async function requestPasswordReset(
  write: MailingWrite<null>,
  user: UserRow,
): Promise<void> {
  const token = await commit(write, (tx) => createResetToken(tx, user.id));
  await mailResetLink(write.mail.mailer, write.mail.appOrigin, user, token);
}

/**
 * An admin sends a member a reset link: the link and the audit log's line are written in one
 * transaction, and the mail goes once it has committed. A 409, writing nothing, when this server
 * cannot send mail; a 404 for no member.
 */
export async function resetPasswordAsAdmin(write: MailingWrite, userId: number): Promise<void> {
  const { mailer, appOrigin } = write.mail;
  if (!mailer.canSend) throw conflict(passwordResetMessages.adminNoMail);
  const { user, token } = await commit(write, async (tx) => {
    const user = await findUserById(tx, userId);
    if (!user) throw notFound(catalystMessages.userNotFound);
    const token = await createResetToken(tx, user.id);
    await recordAudit(tx, write.actor, {
      action: "user.reset-password",
      targetType: "user",
      targetId: user.id,
      target: `@${user.username}`,
    });
    return { user, token };
  });
  await mailResetLink(mailer, appOrigin, user, token);
}
