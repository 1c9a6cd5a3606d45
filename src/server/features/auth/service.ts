// Sign-in by username and password, and the member's last activity.
import { eq } from "drizzle-orm";
import { authMessages, type LoginInput } from "../../../contract/auth.ts";
import type { Executor } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema.ts";
import { HttpError, unauthorized } from "../../http-error.ts";
import { verifyPassword } from "../../security/passwords.ts";
import { findUserByUsername } from "../users/service.ts";

/** The member whose username and password match; 401 otherwise. */
export async function verifyCredentials(db: Executor, input: LoginInput): Promise<UserRow> {
  const user = await findUserByUsername(db, input.username);
  const matches = await verifyPassword(user?.password ?? null, input.password);
  if (!user || !matches) throw unauthorized(authMessages.wrongCredentials);
  if (user.deactivatedAt) throw new HttpError(401, authMessages.deactivated);
  return user;
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
