// Credentials and sessions, called as the routes call them: a new session ends the one its browser
// came with; Google signs in (creating the member once) and connects only after the password;
// password resets are all or nothing, and no mail goes for a link that was never stored.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { catalystMessages } from "../../contract/catalyst.ts";
import { passwordResetMessages } from "../../contract/password-reset.ts";
import { auditLog, passwordResetTokens, sessions, users } from "../db/schema.ts";
import { isRecentlyConfirmed } from "../security/session-store.ts";
import { hashToken, newToken } from "../security/tokens.ts";
import { buildResetToken, buildUser } from "../test/builders.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { setupTestDatabase, signIn, TEST_ORIGIN, TEST_PASSWORD } from "../test/helpers.ts";
import { outbox, run } from "../test/write.ts";
import * as commands from "./auth.ts";

const t = setupTestDatabase();

/** A reset link's new password, as its route sets it, with its events. */
const confirmReset = (token: string, password: string) =>
  run(t.database, null, (write) => commands.confirmPasswordReset(write, token, password));

async function stateOf(userId: number) {
  const { db } = t.database;
  const [credentials] = await db
    .select({ password: users.password, googleId: users.googleId })
    .from(users)
    .where(eq(users.id, userId));
  return {
    ...credentials,
    tokens: await db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, userId))
      .orderBy(passwordResetTokens.id),
    sessions: (await db.select().from(sessions).where(eq(sessions.userId, userId))).length,
    audit: await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "user"), eq(auditLog.targetId, userId))),
  };
}

/** The session token of a cookie header that `signIn` wrote. */
const tokenOf = (headers: Record<string, string>) => headers.cookie?.split("=")[1] ?? "";

/** Whether the session of `token` is still there. */
async function sessionExists(token: string) {
  const rows = await t.database.db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)));
  return rows.length === 1;
}

/** The token of a reset link in a mail. */
const linkToken = (text: string | undefined) =>
  text?.match(/reset-password\?token=([\w-]+)/)?.[1] ?? "";

describe("register and signIn", () => {
  it("start a session and end the one the browser came with", async () => {
    const before = await buildUser(t.database);
    const previousToken = tokenOf(await signIn(t.database, before));
    const { result, events } = await run(t.database, null, (write) =>
      commands.register(
        write,
        {
          username: "new_member",
          email: "new_member@example.com",
          password: TEST_PASSWORD,
          firstName: "New",
          lastName: "Member",
        },
        { userAgent: "vitest", previousToken },
      ),
    );
    expect(result.user).toMatchObject({ username: "new_member" });
    expect(await sessionExists(result.token)).toBe(true);
    expect(await sessionExists(previousToken)).toBe(false);
    expect(events).toEqual([]);

    const signedIn = await run(t.database, result.user, (write) =>
      commands.signIn(write, { userAgent: "vitest", previousToken: result.token }),
    );
    expect(signedIn.result.user.lastActiveAt).toEqual(expect.any(Date));
    expect(await sessionExists(signedIn.result.token)).toBe(true);
    expect(await sessionExists(result.token)).toBe(false);
    expect(signedIn.events).toEqual([]);
  });
});

describe("signInWithGoogle", () => {
  const profile = (sub: string, email: string) => ({
    sub,
    email,
    email_verified: true,
    given_name: "Grace",
    family_name: "Hopper",
  });

  it("creates the member once, signs them in confirmed, and ends the browser's old session", async () => {
    const somebody = await buildUser(t.database);
    const previousToken = tokenOf(await signIn(t.database, somebody));
    const google = profile("google-grace", "grace@example.com");
    const first = await run(t.database, null, (write) =>
      commands.signInWithGoogle(write, google, { userAgent: "vitest", previousToken }),
    );
    expect(first.result).toEqual({ token: expect.any(String), created: true });
    expect(first.events).toEqual([]);
    expect(await sessionExists(previousToken)).toBe(false);
    // Signed in with Google just now: as good as a password given in this session.
    expect(await isRecentlyConfirmed(t.database.db, first.result?.token ?? "")).toBe(true);

    const again = await run(t.database, null, (write) =>
      commands.signInWithGoogle(write, google, { userAgent: "vitest", previousToken: undefined }),
    );
    expect(again.result).toEqual({ token: expect.any(String), created: false });
    const members = await t.database.db
      .select()
      .from(users)
      .where(eq(users.googleId, "google-grace"));
    expect(members).toHaveLength(1);
  });

  it("answers null for a deactivated member, starting no session and ending none", async () => {
    const user = await buildUser(t.database, {
      googleId: "google-gone",
      deactivatedAt: new Date(),
    });
    const somebody = await buildUser(t.database);
    const previousToken = tokenOf(await signIn(t.database, somebody));
    const { result } = await run(t.database, null, (write) =>
      commands.signInWithGoogle(write, profile("google-gone", user.email), {
        userAgent: "vitest",
        previousToken,
      }),
    );
    expect(result).toBeNull();
    expect((await stateOf(user.id)).sessions).toBe(0);
    expect(await sessionExists(previousToken)).toBe(true);
  });
});

describe("connectGoogle", () => {
  it("connects Google in a session where the member just gave their password", async () => {
    const user = await buildUser(t.database);
    const token = tokenOf(await signIn(t.database, user));
    await run(t.database, user, (write) => commands.confirmIdentity(write, token));
    const { events } = await run(t.database, user, (write) =>
      commands.connectGoogle(write, token, "google-connected"),
    );
    expect(events).toEqual([]);
    expect((await stateOf(user.id)).googleId).toBe("google-connected");
  });

  it("refuses, changing nothing, without the password first or when Google is connected already", async () => {
    const user = await buildUser(t.database);
    const token = tokenOf(await signIn(t.database, user));
    await expect(
      run(t.database, user, (write) => commands.connectGoogle(write, token, "google-new")),
    ).rejects.toThrow("connecting Google needs the password first");
    expect((await stateOf(user.id)).googleId).toBeNull();

    const connected = await buildUser(t.database, { googleId: "google-had" });
    const theirs = tokenOf(await signIn(t.database, connected));
    await run(t.database, connected, (write) => commands.confirmIdentity(write, theirs));
    await expect(
      run(t.database, connected, (write) => commands.connectGoogle(write, theirs, "google-new")),
    ).rejects.toThrow("connecting Google needs the password first");
    expect((await stateOf(connected.id)).googleId).toBe("google-had");
  });
});

/** A member signed in once, with two reset links outstanding; the first one's token. */
async function userWithLinks() {
  const user = await buildUser(t.database);
  await signIn(t.database, user);
  const token = newToken();
  await buildResetToken(t.database, { userId: user.id, tokenHash: hashToken(token) });
  await buildResetToken(t.database, { userId: user.id });
  return { user, token };
}

describe("confirmPasswordReset", () => {
  it("sets the password, uses up every link of the member, and signs them out everywhere", async () => {
    const { user, token } = await userWithLinks();
    const { events } = await confirmReset(token, "a-brand-new-secret");
    const after = await stateOf(user.id);
    expect(after.password).not.toBe(user.password);
    expect(after.tokens.map((row) => row.usedAt)).toEqual([expect.any(Date), expect.any(Date)]);
    expect(after.sessions).toBe(0);
    expect(events).toEqual([{ type: "sessions.ended", userId: user.id }]);
    await expect(confirmReset(token, "again-and-again")).rejects.toMatchObject({
      statusCode: 400,
      message: passwordResetMessages.invalidToken,
    });
  });

  it("changes nothing when signing the member out fails: password and links stay as they were", async () => {
    const { user, token } = await userWithLinks();
    const before = await stateOf(user.id);
    await refuseWrites(t.database, "sessions", "delete");
    await expectRefused(confirmReset(token, "a-brand-new-secret"));
    expect(await stateOf(user.id)).toEqual(before);
  });
});

describe("requestPasswordReset", () => {
  it("stores a link for the member, valid one hour, and mails it to them once stored", async () => {
    const user = await buildUser(t.database);
    const { mail, sent } = outbox();
    const { events } = await run(t.database, null, (write) =>
      commands.requestPasswordReset({ ...write, mail }, user),
    );
    expect(events).toEqual([]);
    expect(sent.map((message) => [message.to, message.subject])).toEqual([
      [user.email, "Reset your Prism password"],
    ]);
    expect(sent[0]?.text).toContain(`${TEST_ORIGIN}/reset-password?token=`);
    const [row] = (await stateOf(user.id)).tokens;
    expect(row?.tokenHash).toBe(hashToken(linkToken(sent[0]?.text)));
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it("sends nothing when the link cannot be stored", async () => {
    const user = await buildUser(t.database);
    const { mail, sent } = outbox();
    await refuseWrites(t.database, "password_reset_tokens", "insert");
    await expectRefused(
      run(t.database, null, (write) => commands.requestPasswordReset({ ...write, mail }, user)),
    );
    expect(sent).toEqual([]);
  });
});

describe("resetPasswordAsAdmin", () => {
  /** The admin's reset as its route makes it, on a server whose mail is `mail`. */
  const resetAsAdmin = (admin: typeof users.$inferSelect, userId: number, box = outbox()) =>
    run(t.database, admin, (write) =>
      commands.resetPasswordAsAdmin({ ...write, mail: box.mail }, userId),
    );

  it("stores a link, audits it and mails it to the member", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const user = await buildUser(t.database);
    const box = outbox();
    const { events } = await resetAsAdmin(admin, user.id, box);
    expect(events).toEqual([]);
    const after = await stateOf(user.id);
    expect(after.audit).toEqual([
      expect.objectContaining({ actorId: admin.id, action: "user.reset-password" }),
    ]);
    expect(box.sent.map((message) => message.to)).toEqual([user.email]);
    expect(after.tokens.map((row) => row.tokenHash)).toEqual([
      hashToken(linkToken(box.sent[0]?.text)),
    ]);
  });

  it("sends nothing and stores no link when the audit line cannot be written", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const user = await buildUser(t.database);
    const box = outbox();
    await refuseWrites(t.database, "audit_log", "insert");
    await expectRefused(resetAsAdmin(admin, user.id, box));
    expect((await stateOf(user.id)).tokens).toEqual([]);
    expect(box.sent).toEqual([]);
  });

  it("answers 409, writing nothing, on a server that cannot send mail; 404 for no member", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const user = await buildUser(t.database);
    await expect(resetAsAdmin(admin, user.id, outbox({ canSend: false }))).rejects.toMatchObject({
      statusCode: 409,
      message: passwordResetMessages.adminNoMail,
    });
    const after = await stateOf(user.id);
    expect(after.tokens).toEqual([]);
    expect(after.audit).toEqual([]);
    await expect(resetAsAdmin(admin, 2 ** 31 - 1)).rejects.toMatchObject({
      statusCode: 404,
      message: catalystMessages.userNotFound,
    });
  });
});
