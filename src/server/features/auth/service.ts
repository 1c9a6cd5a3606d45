// Sign-in by username and password, and the member's last activity.
import { eq } from "drizzle-orm";
import { authMessages } from "../../../contract/auth.ts";
import type { Executor } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema.ts";
import { HttpError, unauthorized } from "../../http-error.ts";
import { verifyPassword } from "../../security/passwords.ts";

/**
 * The account when `password` is its password, else null, after the same work whether or not
 * there is an account; 401 for a deactivated one.
 */
export async function verifyCredentials(
  account: UserRow | null,
  password: string,
): Promise<UserRow | null> {
  const matches = await verifyPassword(account?.password ?? null, password);
  if (!account || !matches) return null;
  if (account.deactivatedAt) throw new HttpError(401, authMessages.deactivated);
  return account;
}

export async function markActive(db: Executor, userId: number): Promise<UserRow> {
  const [user] = await db
    .update(users)
    .set({ lastActiveAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  if (!user) throw unauthorized();
  return user;
}
