import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authMessages } from "../../../contract/auth.ts";
import { passwordResetMessages as messages } from "../../../contract/password-reset.ts";
import { auditLog, passwordResetTokens, users } from "../../db/schema.ts";
import { hashToken } from "../../security/tokens.ts";
import { buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn, TEST_PASSWORD } from "../../test/helpers.ts";
import { decodedMail, setupMailTestApp } from "../../test/mail.ts";

const t = setupMailTestApp();
/** The same app on a server that has no outgoing mail (no SMTP_URL). */
const noMail = setupTestApp();
const { received } = t;

/** The mails one address received so far. */
const mailsTo = (address: string) =>
  received.filter((m) => m.to.includes(address)).map((m) => decodedMail(m.raw));

/** Waits for the `count`th reset mail to an address and returns the token of its link. */
async function tokenMailedTo(address: string, count = 1): Promise<string> {
  const mails = await t.arrivedAt(address, count);
  const mail = decodedMail(mails[count - 1]?.raw ?? "");
  expect(mail).toContain("Subject: Reset your Prism password");
  const match = mail.match(/http:\/\/localhost:3000\/reset-password\?token=([A-Za-z0-9_-]{43})/);
  expect(match).not.toBeNull();
  return match?.[1] ?? "";
}

let address = 0;
const nextAddress = () => `10.9.0.${++address}`;

/** A write from an address of its own, so that no rate limit is shared between calls. */
const post = (url: string, payload: object) =>
  send(t.app, "POST", url, { payload, remoteAddress: nextAddress() });

const requestReset = (login: string) => post("/api/password-reset/request", { login });

const confirm = (token: string, password: string) =>
  post("/api/password-reset/confirm", { token, password });

const login = (username: string, password: string) => post("/api/login", { username, password });

describe("POST /api/password-reset/request", () => {
  it("answers 202 and e-mails a link whose token is stored only as a hash, valid one hour", async () => {
    const user = await buildUser(t.database);
    const response = await requestReset(user.username.toUpperCase());
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: messages.requested });
    const token = await tokenMailedTo(user.email);
    const [row] = await t.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(row?.tokenHash).toBe(hashToken(token));
    expect(row?.usedAt).toBeNull();
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it("accepts the e-mail address too, whatever its case", async () => {
    const user = await buildUser(t.database);
    expect((await requestReset(user.email.toUpperCase())).statusCode).toBe(202);
    await tokenMailedTo(user.email);
  });

  it("answers the same for an unknown or deactivated account and sends nothing", async () => {
    const deactivated = await buildUser(t.database, { deactivatedAt: new Date() });
    const before = received.length;
    const unknown = await requestReset("nobody_at_all");
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual({ message: messages.requested });
    expect((await requestReset(deactivated.username)).statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.length).toBe(before);
  });

  it("rejects an empty login", async () => {
    const response = await requestReset("  ");
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.login).toBe(messages.loginRequired);
  });
});

describe("POST /api/password-reset/confirm", () => {
  it("sets the new password, uses the token up and signs every session out", async () => {
    const user = await buildUser(t.database);
    const session = await signIn(t.database, user);
    await requestReset(user.username);
    const token = await tokenMailedTo(user.email);

    const response = await confirm(token, "a-brand-new-secret");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: messages.done });

    const me = await t.app.inject({ method: "GET", url: "/api/user", headers: session });
    expect(me.statusCode).toBe(401);
    expect((await login(user.username, "a-brand-new-secret")).statusCode).toBe(200);
    const old = await login(user.username, TEST_PASSWORD);
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toBe(authMessages.wrongCredentials);
    const [row] = await t.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(row?.usedAt).toBeInstanceOf(Date);

    const again = await confirm(token, "yet-another-secret");
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(messages.invalidToken);
    expect((await login(user.username, "a-brand-new-secret")).statusCode).toBe(200);
  });

  it("voids the member's other outstanding links when one is used", async () => {
    const user = await buildUser(t.database);
    await requestReset(user.username);
    const first = await tokenMailedTo(user.email);
    await requestReset(user.email);
    const second = await tokenMailedTo(user.email, 2);
    expect(second).not.toBe(first);
    expect((await confirm(second, "the-second-secret")).statusCode).toBe(200);
    const stale = await confirm(first, "the-first-secret");
    expect(stale.statusCode).toBe(400);
    expect((await login(user.username, "the-second-secret")).statusCode).toBe(200);
  });

  it("refuses an expired token and leaves the password as it was", async () => {
    const user = await buildUser(t.database);
    await requestReset(user.username);
    const token = await tokenMailedTo(user.email);
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.tokenHash, hashToken(token)));
    const response = await confirm(token, "a-brand-new-secret");
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(messages.invalidToken);
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it("refuses an unknown token", async () => {
    const response = await confirm("bogus", "a-brand-new-secret");
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(messages.invalidToken);
  });

  it("holds the new password to the sign-up rules", async () => {
    const response = await confirm("whatever", "12345");
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.password).toBe(authMessages.passwordMin);
  });
});

describe("POST /api/analytics/users/:id/reset-password", () => {
  const adminReset = (id: number | string, headers: Record<string, string> = {}) =>
    send(t.app, "POST", `/api/analytics/users/${id}/reset-password`, { headers });

  it("is for admins only", async () => {
    const target = await buildUser(t.database);
    expect((await adminReset(target.id)).statusCode).toBe(401);
    const member = await buildUser(t.database);
    expect((await adminReset(target.id, await signIn(t.database, member))).statusCode).toBe(403);
    const admin = await buildUser(t.database, { isAdmin: true });
    expect((await adminReset(999_999, await signIn(t.database, admin))).statusCode).toBe(404);
    expect(mailsTo(target.email)).toHaveLength(0);
  });

  it("e-mails the member a working link and writes the audit log", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const target = await buildUser(t.database);
    const response = await adminReset(target.id, await signIn(t.database, admin));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: messages.adminSent });
    const token = await tokenMailedTo(target.email);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.reset-password"), eq(auditLog.targetId, target.id)));
    expect(audit).toEqual([
      expect.objectContaining({ actorId: admin.id, targetType: "user", targetId: target.id }),
    ]);
    expect((await confirm(token, "chosen-by-member")).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row?.password).toMatch(/^\$argon2id\$/);
    expect((await login(target.username, "chosen-by-member")).statusCode).toBe(200);
  });

  it("without outgoing mail, says that no e-mail went out, and writes no link or audit line", async () => {
    const admin = await buildUser(noMail.database, { isAdmin: true });
    const target = await buildUser(noMail.database);
    const response = await send(
      noMail.app,
      "POST",
      `/api/analytics/users/${target.id}/reset-password`,
      {
        headers: await signIn(noMail.database, admin),
      },
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: messages.adminNoMail });
    const links = await noMail.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, target.id));
    expect(links).toEqual([]);
    const audit = await noMail.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, target.id));
    expect(audit).toEqual([]);
  });
});

describe("POST /api/password-reset/request without outgoing mail", () => {
  it("answers as it always does, so that the answer never tells whether an account exists", async () => {
    const member = await buildUser(noMail.database);
    for (const login of [member.username, "nobody_at_all"]) {
      const response = await send(noMail.app, "POST", "/api/password-reset/request", {
        payload: { login },
        remoteAddress: nextAddress(),
      });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: messages.requested });
    }
  });
});
