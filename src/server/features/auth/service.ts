// Registration and sign-in by username and password.
import { hash, verify } from "@node-rs/argon2";
import { eq, or, sql } from "drizzle-orm";
import { authMessages, type LoginInput, type RegisterInput } from "../../../contract/auth.ts";
import type { Executor } from "../../db/client.ts";
import { pgErrorCode } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema.ts";
import { conflict, HttpError, unauthorized } from "../../http-error.ts";

// argon2id with the library's defaults (19 MiB, t=2), OWASP's recommended minimum.
export const hashPassword = (password: string) => hash(password);

// A hash of a random string, verified when the username is unknown so that both paths cost the same.
const dummyHash = hash("prism-timing-equaliser");

const lower = (column: typeof users.username | typeof users.email, value: string) =>
  sql`lower(${column}) = lower(${value})`;

export async function findUserByUsername(db: Executor, username: string): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(lower(users.username, username)).limit(1);
  return user ?? null;
}

/** 409 naming each field (username, email) that another member already has. */
export async function assertAvailable(
  db: Executor,
  fields: { username?: string; email?: string },
  exceptUserId?: number,
): Promise<void> {
  const clauses = [];
  if (fields.username) clauses.push(lower(users.username, fields.username));
  if (fields.email) clauses.push(lower(users.email, fields.email));
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
export function uniqueViolationToConflict(error: unknown): never {
  if (pgErrorCode(error) === "23505") {
    const text = String((error as { cause?: unknown }).cause ?? error);
    if (text.includes("email")) {
      throw conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
    }
    throw conflict(authMessages.usernameTaken, { username: authMessages.usernameTaken });
  }
  throw error;
}

export async function registerUser(db: Executor, input: RegisterInput): Promise<UserRow> {
  await assertAvailable(db, { username: input.username, email: input.email });
  const password = await hashPassword(input.password);
  try {
    const [user] = await db
      .insert(users)
      .values({
        username: input.username,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        password,
        lastActiveAt: new Date(),
      })
      .returning();
    if (!user) throw new Error("insert returned no row");
    return user;
  } catch (error) {
    uniqueViolationToConflict(error);
  }
}

/** The member whose username and password match; 401 otherwise. */
export async function verifyCredentials(db: Executor, input: LoginInput): Promise<UserRow> {
  const user = await findUserByUsername(db, input.username);
  if (!user?.password) {
    await verify(await dummyHash, input.password);
    throw unauthorized(authMessages.wrongCredentials);
  }
  if (!(await verify(user.password, input.password))) {
    throw unauthorized(authMessages.wrongCredentials);
  }
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
