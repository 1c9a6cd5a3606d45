// Server-side sessions: an opaque token in a cookie, only its SHA-256 in the database.
import { and, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Db, Executor } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { sessions, type UserRow, users } from "../db/schema.ts";
import { hashToken, newToken } from "./tokens.ts";

export const SESSION_COOKIE = "prism_session";
export const SESSION_IDLE_DAYS = 30;
/** However active, a session ends this long after sign-in. */
export const SESSION_MAX_DAYS = 90;
/** A session and its member are marked active at most this often. */
export const TOUCH_AFTER_MS = 60_000;

/** A new session; `confirmed` when the sign-in itself confirms the member (Google). */
export async function createSession(
  db: Executor,
  userId: number,
  userAgent: string | undefined,
  confirmed = false,
): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    userAgent: userAgent?.slice(0, 300),
    confirmedAt: confirmed ? sql`now()` : null,
  });
  return token;
}

/** How long a confirmation stands for a change that needs one. */
const CONFIRMED_FOR_MINUTES = 10;

/** Notes that the member just showed again who they are in this session. */
export async function confirmSession(db: Executor, token: string): Promise<void> {
  await db
    .update(sessions)
    .set({ confirmedAt: sql`now()` })
    .where(eq(sessions.tokenHash, hashToken(token)));
}

/** True when the member showed again who they are in this session within the last 10 minutes. */
export async function isRecentlyConfirmed(db: Executor, token: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, hashToken(token)),
        gt(sessions.confirmedAt, sql`now() - make_interval(mins => ${CONFIRMED_FOR_MINUTES})`),
      ),
    );
  return row !== undefined;
}

export async function deleteSession(db: Executor, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Signs a member out everywhere, or everywhere but in the session of `keepToken`. */
export async function deleteSessionsOf(
  db: Executor,
  userId: number,
  keepToken?: string,
): Promise<void> {
  const others = keepToken ? ne(sessions.tokenHash, hashToken(keepToken)) : undefined;
  await db.delete(sessions).where(and(eq(sessions.userId, userId), others));
}

const idleCutoff = () => sql`now() - make_interval(days => ${SESSION_IDLE_DAYS})`;
const ageCutoff = () => sql`now() - make_interval(days => ${SESSION_MAX_DAYS})`;

/** A session's member, and the times that say how long what was read stays true. */
export interface ResolvedSession {
  user: UserRow;
  lastSeenAt: Date;
  createdAt: Date;
}

/**
 * The member behind a session token, or null when the token is unknown, idle for 30 days, older
 * than 90 days or belongs to a deactivated account. Marks the session and the member active at most once a minute.
 */
export async function resolveSession(db: Db, token: string): Promise<UserRow | null> {
  return (await lookupSession(db, hashToken(token)))?.user ?? null;
}

/** `resolveSession` by the token's SHA-256, with the session's times. */
export async function lookupSession(db: Db, tokenHash: string): Promise<ResolvedSession | null> {
  const lookup = prepared(db, "session_user", () =>
    db
      .select({
        user: users,
        sessionId: sessions.id,
        lastSeenAt: sessions.lastSeenAt,
        createdAt: sessions.createdAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder("tokenHash")),
          gt(sessions.lastSeenAt, idleCutoff()),
          gt(sessions.createdAt, ageCutoff()),
          isNull(users.deactivatedAt),
        ),
      )
      .limit(1)
      .prepare("session_user"),
  );
  const [row] = await lookup.execute({ tokenHash });
  if (!row) return null;
  const { user, sessionId, lastSeenAt, createdAt } = row;
  if (Date.now() - lastSeenAt.getTime() <= TOUCH_AFTER_MS) return { user, lastSeenAt, createdAt };
  const now = new Date();
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
  await db
    .update(users)
    .set({ lastActiveAt: now })
    .where(
      and(
        eq(users.id, user.id),
        or(
          isNull(users.lastActiveAt),
          lt(users.lastActiveAt, new Date(now.getTime() - TOUCH_AFTER_MS)),
        ),
      ),
    );
  return { user: { ...user, lastActiveAt: now }, lastSeenAt: now, createdAt };
}

/** Forgets sessions idle for longer than the limit or older than the lifetime; returns how many. */
export async function deleteExpiredSessions(db: Executor): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(or(lt(sessions.lastSeenAt, idleCutoff()), lt(sessions.createdAt, ageCutoff())))
    .returning({ id: sessions.id });
  return deleted.length;
}
