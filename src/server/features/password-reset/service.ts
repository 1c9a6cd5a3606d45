// Password reset: single-use links, valid one hour, of which only the SHA-256 is stored.
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { passwordResetMessages } from "../../../contract/password-reset.ts";
import type { Db, Executor } from "../../db/client.ts";
import { auditLog, passwordResetTokens, sessions, type UserRow, users } from "../../db/schema.ts";
import { badRequest, notFound } from "../../http-error.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { hashPassword } from "../auth/service.ts";
import { hashToken } from "../auth/sessions.ts";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The active member whose username or e-mail is `login` (case-insensitive), or null. */
export async function findMemberByLogin(db: Executor, login: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(
      and(
        or(
          sql`lower(${users.username}) = lower(${login})`,
          sql`lower(${users.email}) = lower(${login})`,
        ),
        isNull(users.deactivatedAt),
      ),
    )
    .limit(1);
  return user ?? null;
}

/** Stores a new reset token for the member and returns it; only its hash is kept. */
export async function createResetToken(db: Executor, userId: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(passwordResetTokens).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
  });
  return token;
}

export function resetLink(appOrigin: string, token: string): string {
  return `${appOrigin}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Creates a token for the member and e-mails them the link. */
export async function sendResetEmail(
  db: Executor,
  mailer: Mailer,
  appOrigin: string,
  user: UserRow,
): Promise<void> {
  const token = await createResetToken(db, user.id);
  const link = resetLink(appOrigin, token);
  await mailer.send({
    to: user.email,
    subject: "Reset your Prism password",
    text:
      `Hello ${user.firstName},\n\n` +
      `Someone asked to reset the password of your Prism account @${user.username}.\n` +
      `To choose a new password, open this link within one hour:\n\n${link}\n\n` +
      "The link works once. If you did not ask for this, you can ignore this e-mail; " +
      "your password stays as it is.\n",
  });
}

/**
 * Sets a new password with a valid, unexpired, unused token, uses the token up and signs the
 * member out everywhere. One transaction; a bad token is a 400.
 */
export async function confirmReset(db: Db, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
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
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
  });
}

/** An admin sends a member the reset e-mail; the act is written to the audit log. */
export async function adminResetPassword(
  db: Db,
  mailer: Mailer,
  appOrigin: string,
  actor: UserRow,
  userId: number,
): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound("User not found");
  await sendResetEmail(db, mailer, appOrigin, user);
  await db.insert(auditLog).values({
    actorId: actor.id,
    action: "user.reset-password",
    targetType: "user",
    targetId: user.id,
  });
}
