// Members, as every feature needs them: finding one (usernames and e-mails ignore case),
// registering one, keeping usernames and e-mails unique, and their e-mail notification setting.
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { authMessages, type RegisterInput } from "../../../contract/auth.ts";
import type { EmailNotifications } from "../../../contract/user.ts";
import type { Db, Executor } from "../../db/client.ts";
import { pgErrorCode } from "../../db/client.ts";
import { sameIgnoringCase } from "../../db/ignoring-case.ts";
import { prepared } from "../../db/prepared.ts";
import { type UserRow, users } from "../../db/schema.ts";
import { conflict, notFound } from "../../http-error.ts";
import { hashPassword } from "../../security/passwords.ts";

/** The active member with this username, whatever its case. Prepared: every profile view asks. */
export async function findActiveUser(db: Db, username: string): Promise<UserRow | null> {
  const lookup = prepared(db, "active_user", () =>
    db
      .select()
      .from(users)
      .where(
        and(
          sameIgnoringCase(users.username, sql.placeholder("username")),
          isNull(users.deactivatedAt),
        ),
      )
      .limit(1)
      .prepare("active_user"),
  );
  const [user] = await lookup.execute({ username });
  return user ?? null;
}

/** The active member with this username, whatever its case; 404 when there is none. */
export async function getActiveUser(db: Db, username: string): Promise<UserRow> {
  const user = await findActiveUser(db, username);
  if (!user) throw notFound("User not found");
  return user;
}

/** The member with this username, whatever its case, active or not. */
export async function findUserByUsername(db: Executor, username: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sameIgnoringCase(users.username, username))
    .limit(1);
  return user ?? null;
}

/**
 * The active member whose username or e-mail is `login`, whatever its case. Prepared: every
 * reset request asks, for logins of no account too.
 */
export async function findActiveUserByLogin(db: Db, login: string): Promise<UserRow | null> {
  const lookup = prepared(db, "active_user_by_login", () => {
    const typed = sql.placeholder("login");
    return db
      .select()
      .from(users)
      .where(
        and(
          or(sameIgnoringCase(users.username, typed), sameIgnoringCase(users.email, typed)),
          isNull(users.deactivatedAt),
        ),
      )
      .limit(1)
      .prepare("active_user_by_login");
  });
  const [user] = await lookup.execute({ login });
  return user ?? null;
}

export async function findUserById(db: Executor, userId: number): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user ?? null;
}

/** Each member's username by id. */
export async function usernamesOf(db: Executor, userIds: number[]): Promise<Map<number, string>> {
  const rows = userIds.length
    ? await db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(inArray(users.id, userIds))
    : [];
  return new Map(rows.map((row) => [row.id, row.username]));
}

/** 409 naming each field (username, email) that another member already has. */
export async function assertAvailable(
  db: Executor,
  fields: { username?: string; email?: string },
  exceptUserId?: number,
): Promise<void> {
  const clauses = [];
  if (fields.username) clauses.push(sameIgnoringCase(users.username, fields.username));
  if (fields.email) clauses.push(sameIgnoringCase(users.email, fields.email));
  const taken = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(or(...clauses));
  const errors: Record<string, string> = {};
  for (const row of taken) {
    if (row.id === exceptUserId) continue;
    if (fields.username && row.username.toLowerCase() === fields.username.toLowerCase()) {
      errors.username = authMessages.usernameTaken;
    }
    if (fields.email && row.email.toLowerCase() === fields.email.toLowerCase()) {
      errors.email = authMessages.emailTaken;
    }
  }
  const first = Object.values(errors)[0];
  if (first) throw conflict(first, errors);
}

/** Maps a unique violation that raced past `assertAvailable` to the same 409. */
function uniqueViolationToConflict(error: unknown): never {
  if (pgErrorCode(error) === "23505") {
    const text = String((error as { cause?: unknown }).cause ?? error);
    if (text.includes("email")) {
      throw conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
    }
    throw conflict(authMessages.usernameTaken, { username: authMessages.usernameTaken });
  }
  throw error;
}

/** Runs an insert or update of members (checked by `assertAvailable` first); the row it wrote. */
export async function writeUser(write: PromiseLike<UserRow[]>): Promise<UserRow | undefined> {
  try {
    const [user] = await write;
    return user;
  } catch (error) {
    uniqueViolationToConflict(error);
  }
}

/** A new member with a username and password (registration, and its diagnostic test). */
export async function registerUser(db: Executor, input: RegisterInput): Promise<UserRow> {
  await assertAvailable(db, { username: input.username, email: input.email });
  const password = await hashPassword(input.password);
  const user = await writeUser(
    db
      .insert(users)
      .values({
        username: input.username,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        password,
        lastActiveAt: new Date(),
      })
      .returning(),
  );
  if (!user) throw new Error("insert returned no row");
  return user;
}

/** Deletes a member; what is theirs goes with them by cascade. */
export async function deleteUser(db: Executor, userId: number): Promise<{ username: string }> {
  const [deleted] = await db
    .delete(users)
    .where(eq(users.id, userId))
    .returning({ username: users.username });
  if (!deleted) throw notFound("Account not found");
  return deleted;
}

/**
 * The columns to set with a member's new e-mail notification setting: turning e-mail back on (from "never") starts
 * from now, so nothing made while it was off is mailed later.
 */
export function emailSetting(value: EmailNotifications) {
  return {
    emailNotifications: value,
    mailSince: sql`case when ${users.emailNotifications} = 'never' and ${value} <> 'never'
      then now() else ${users.mailSince} end`,
  };
}
