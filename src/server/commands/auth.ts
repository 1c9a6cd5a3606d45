// A member's credentials and sessions: registering, signing in and out, a new password (chosen by the
// member, or by a reset link), confirming who they are before connecting Google, and
// disconnecting it. Each is one transaction; when sessions end, their open streams end too, on
// every instance, once it has committed.
import type { RegisterInput } from "../../contract/auth.ts";
import type { UserRow } from "../db/schema.ts";
import { markActive } from "../features/auth/service.ts";
import { confirmReset } from "../features/password-reset/service.ts";
import {
  disconnectGoogle as forgetGoogle,
  changePassword as writePassword,
} from "../features/settings/service.ts";
import { registerMember } from "../features/users/service.ts";
import { hashPassword } from "../security/passwords.ts";
import { confirmSession, createSession, deleteSession } from "../security/session-store.ts";
import { hashToken } from "../security/tokens.ts";
import { commit, type WriteContext } from "./write.ts";

/** A visitor creates an account; answers it with its first session's token. */
export function register(
  write: WriteContext<null>,
  input: RegisterInput,
  userAgent: string | undefined,
): Promise<{ user: UserRow; token: string }> {
  return commit(write, async (tx) => {
    const user = await registerMember(tx, input);
    return { user, token: await createSession(tx, user.id, userAgent) };
  });
}

/**
 * A member whose credentials were checked signs in: a new session, and their last activity.
 * Answers the member as they now are, with the session's token.
 */
export function signIn(
  write: WriteContext,
  userAgent: string | undefined,
): Promise<{ user: UserRow; token: string }> {
  return commit(write, async (tx) => {
    const token = await createSession(tx, write.actor.id, userAgent);
    return { user: await markActive(tx, write.actor.id), token };
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

/** The member showed who they are again: this session may connect a Google account. */
export function confirmIdentity(write: WriteContext, sessionToken: string): Promise<void> {
  return commit(write, (tx) => confirmSession(tx, sessionToken));
}

/** The member disconnects Google (the route lets only one who has a password do it). */
export function disconnectGoogle(write: WriteContext): Promise<UserRow> {
  return commit(write, (tx) => forgetGoogle(tx, write.actor.id));
}
