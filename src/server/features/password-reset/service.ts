// Password reset: single-use links, valid one hour, of which only the SHA-256 is stored.
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { passwordResetMessages } from "../../../contract/password-reset.ts";
import { oneLine } from "../../../contract/text.ts";
import type { Executor } from "../../db/client.ts";
import { passwordResetTokens, type UserRow, users } from "../../db/schema.ts";
import { escapeHtml } from "../../escape.ts";
import { badRequest } from "../../http-error.ts";
import { mailButton, mailHtml } from "../../mail/layout.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { deleteSessionsOf } from "../../security/session-store.ts";
import { hashToken, newToken } from "../../security/tokens.ts";

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Stores a new reset token for the member and returns it; only its hash is kept. */
export async function createResetToken(db: Executor, userId: number): Promise<string> {
  const token = newToken();
  await db.insert(passwordResetTokens).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
  });
  return token;
}

function resetLink(appOrigin: string, token: string): string {
  return `${appOrigin}/reset-password?token=${encodeURIComponent(token)}`;
}

/** E-mails the member the link of a reset token. */
export async function mailResetLink(
  mailer: Mailer,
  appOrigin: string,
  user: UserRow,
  token: string,
): Promise<void> {
  const link = resetLink(appOrigin, token);
  const hello = `Hello ${oneLine(user.firstName)},`;
  const asked = `Someone asked to reset the password of your Prism account @${user.username}.`;
  const ignore =
    "The link works once. If you did not ask for this, you can ignore this e-mail; " +
    "your password stays as it is.";
  await mailer.send({
    to: user.email,
    subject: "Reset your Prism password",
    text: `${hello}\n\n${asked}\nTo choose a new password, open this link within one hour:\n\n${link}\n\n${ignore}\n`,
    html: mailHtml([
      `<p>${escapeHtml(hello)}</p>`,
      `<p>${escapeHtml(asked)} To choose a new password, open this link within one hour:</p>`,
      mailButton("Choose a new password", link),
      `<p>${escapeHtml(ignore)}</p>`,
    ]),
  });
}

/**
 * Sets a new password with a valid, unexpired, unused token, uses the token up together with
 * every other link the member still has, and signs the member out everywhere, inside the caller's
 * transaction (the password hashed before it); a bad token is a 400. Returns the member's id.
 */
export async function confirmReset(
  tx: Executor,
  token: string,
  passwordHash: string,
): Promise<number> {
  const [row] = await tx
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  if (!row) throw badRequest(passwordResetMessages.invalidToken);
  const [user] = await tx
    .update(users)
    .set({ password: passwordHash })
    .where(eq(users.id, row.userId))
    .returning({ id: users.id });
  if (!user) throw badRequest(passwordResetMessages.invalidToken);
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
  await deleteSessionsOf(tx, user.id);
  return user.id;
}

/** Forgets reset tokens that can no longer be used (expired or used); returns how many. */
export async function deleteSpentResetTokens(db: Executor): Promise<number> {
  const deleted = await db
    .delete(passwordResetTokens)
    .where(or(isNotNull(passwordResetTokens.usedAt), lt(passwordResetTokens.expiresAt, sql`now()`)))
    .returning({ id: passwordResetTokens.id });
  return deleted.length;
}
