import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authMessages } from "../../../contract/auth.ts";
import { sessions, users } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { cookieFrom, send, setupTestApp, signIn, TEST_PASSWORD } from "../../test/helpers.ts";

const t = setupTestApp();

const registration = (overrides: Record<string, unknown> = {}) => ({
  username: "ada_l",
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  password: "analytical",
  ...overrides,
});

const register = (payload: object | string, headers: Record<string, string> = {}) =>
  send(t.app, "POST", "/api/register", { payload, headers });

const login = (payload: object, options: { headers?: Record<string, string>; ip?: string } = {}) =>
  send(t.app, "POST", "/api/login", {
    payload,
    headers: options.headers,
    remoteAddress: options.ip,
  });

const me = (headers: Record<string, string> = {}) => send(t.app, "GET", "/api/user", { headers });

async function countUsers() {
  const [row] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}

describe("POST /api/register", () => {
  it("creates the member, signs them in and never returns the password hash", async () => {
    const response = await register(registration());
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ username: "ada_l", email: "ada@example.com", isAdmin: false });
    expect(body).not.toHaveProperty("password");
    expect(response.body).not.toContain("argon2");
    const cookie = response.cookies.find((c) => c.name === "prism_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");

    const signedIn = await me(cookieFrom(response));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().username).toBe("ada_l");
  });

  it("answers 409 naming the field for a username or email taken in any case", async () => {
    const byName = await register(registration({ username: "ADA_L", email: "other@example.com" }));
    expect(byName.statusCode).toBe(409);
    expect(byName.json()).toEqual({
      message: authMessages.usernameTaken,
      errors: { username: authMessages.usernameTaken },
    });
    const byEmail = await register(
      registration({ username: "someone_else", email: "ADA@Example.com" }),
    );
    expect(byEmail.statusCode).toBe(409);
    expect(byEmail.json().errors).toEqual({ email: authMessages.emailTaken });
  });

  it.each([
    ["username", { username: "ab" }, authMessages.usernameMin],
    ["username", { username: "a".repeat(31) }, authMessages.usernameMax],
    ["username", { username: "no spaces" }, authMessages.usernameFormat],
    ["username", { username: "Explore" }, authMessages.usernameReserved],
    ["username", { username: "sign-in" }, authMessages.usernameReserved],
    ["username", { username: "OEmbed" }, authMessages.usernameReserved],
    ["username", { username: "embed" }, authMessages.usernameReserved],
    ["username", { username: "Teams" }, authMessages.usernameReserved],
    ["username", { username: "invites" }, authMessages.usernameReserved],
    ["email", { email: "not-an-email" }, "Invalid email address"],
    ["firstName", { firstName: "  " }, "First name is required"],
    ["lastName", { lastName: "" }, "Last name is required"],
    ["password", { password: "12345" }, authMessages.passwordMin],
    ["password", { password: "x".repeat(1025) }, authMessages.passwordMax],
    ["firstName", { firstName: "x".repeat(101) }, "First name must be at most 100 characters"],
  ])("rejects a bad %s with 400 and changes nothing", async (field, overrides, message) => {
    const before = await countUsers();
    const response = await register(
      registration({ username: "fresh_name", email: "fresh@example.com", ...overrides }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toBe(message);
    expect(await countUsers()).toBe(before);
  });

  it("rejects an unknown field, malformed JSON and an oversized body with 400", async () => {
    const before = await countUsers();
    const unknown = await register(
      registration({ username: "u_unknown", email: "u1@example.com", isAdmin: true }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual({ isAdmin: "Unknown field: isAdmin" });

    const malformed = await register('{"username": "x",');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: "The request body is not valid JSON" });

    const huge = await register(
      registration({ username: "u_huge", email: "u2@example.com", firstName: "x".repeat(300_000) }),
    );
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toMatch(/too large/);
    expect(await countUsers()).toBe(before);
  });

  it("refuses cross-site and non-JSON writes", async () => {
    const crossSite = await register(
      registration({ username: "evil_one", email: "evil@example.com" }),
      { origin: "https://evil.example" },
    );
    expect(crossSite.statusCode).toBe(403);
    const form = await t.app.inject({
      method: "POST",
      url: "/api/register",
      headers: { origin: "http://localhost:3000", "content-type": "text/plain" },
      payload: JSON.stringify(registration({ username: "form_one", email: "form@example.com" })),
    });
    expect(form.statusCode).toBe(415);
    expect(await t.database.db.select().from(users).where(eq(users.username, "evil_one"))).toEqual(
      [],
    );
  });
});

describe("POST /api/login", () => {
  it("signs in with the right password and rotates the session", async () => {
    const user = await buildUser(t.database, { username: "grace_h" });
    const old = await signIn(t.database, user);
    const response = await login(
      { username: "GRACE_H", password: TEST_PASSWORD },
      { headers: old },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username: "grace_h", email: "grace_h@example.com" });
    expect(response.json()).not.toHaveProperty("password");
    const fresh = cookieFrom(response);
    expect(fresh.cookie).not.toBe(old.cookie);
    const oldMe = await me(old);
    expect(oldMe.statusCode).toBe(401);
    const newMe = await me(fresh);
    expect(newMe.statusCode).toBe(200);
  });

  it("answers 401 for a wrong password or an unknown username, alike", async () => {
    await buildUser(t.database, { username: "linus_t" });
    const wrong = await login({ username: "linus_t", password: "not-the-password" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: authMessages.wrongCredentials });
    const unknown = await login({ username: "nobody_here", password: "whatever1" });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: authMessages.wrongCredentials });
  });

  it("validates the sign-in form's rules", async () => {
    const response = await login({ username: "ab", password: "12345" });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      username: authMessages.usernameMin,
      password: authMessages.passwordMin,
    });
  });

  it("refuses a deactivated account", async () => {
    await buildUser(t.database, { username: "gone_away", deactivatedAt: new Date() });
    const response = await login({ username: "gone_away", password: TEST_PASSWORD });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(authMessages.deactivated);
  });

  it("limits guesses at a username from one address without locking its owner out", async () => {
    await buildUser(t.database, { username: "target_user" });
    const attempt = (password: string, ip: string) =>
      login({ username: "target_user", password }, { ip });
    for (let i = 0; i < 5; i++) {
      expect((await attempt(`wrong-${i}`, "10.0.0.1")).statusCode).toBe(401);
    }
    const limited = await attempt(TEST_PASSWORD, "10.0.0.1");
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: authMessages.tooManyAttempts });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // The owner, elsewhere, still signs in.
    expect((await attempt(TEST_PASSWORD, "10.0.0.2")).statusCode).toBe(200);
  });

  it("counts an attempt before the password is checked, so concurrent guesses cannot slip through", async () => {
    await buildUser(t.database, { username: "rushed_user" });
    const answers = await Promise.all(
      Array.from({ length: 19 }, (_, i) =>
        login({ username: "rushed_user", password: `guess-${i}` }, { ip: "10.0.3.1" }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(14);
  });

  it("clears an address's tries when the right password is given", async () => {
    await buildUser(t.database, { username: "forgetful" });
    const attempt = (password: string) =>
      login({ username: "forgetful", password }, { ip: "10.0.4.1" });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect((await attempt(`typo-${i}`)).statusCode).toBe(401);
      expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
    }
  });

  it("limits one address guessing across usernames, and a username guessed from everywhere", async () => {
    const spray = (username: string) =>
      login({ username, password: "wrong-password" }, { ip: "10.9.9.9" });
    for (let i = 0; i < 50; i++) expect((await spray(`spray_${i}`)).statusCode).toBe(401);
    expect((await spray("spray_last")).statusCode).toBe(429);
    await buildUser(t.database, { username: "popular" });
    const from = (n: number) =>
      login({ username: "popular", password: "wrong-password" }, { ip: `10.8.0.${n}` });
    for (let n = 0; n < 50; n++) expect((await from(n)).statusCode).toBe(401);
    expect((await from(200)).statusCode).toBe(429);
  });
});

describe("sessions", () => {
  it("GET /api/user answers 401 when signed out", async () => {
    const response = await me();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: authMessages.notSignedIn });
  });

  it("logout deletes the session so the cookie no longer works", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const logout = await send(t.app, "POST", "/api/logout", { headers });
    expect(logout.statusCode).toBe(204);
    const cleared = logout.cookies.find((c) => c.name === "prism_session");
    expect(cleared?.value).toBe("");
    expect((await me(headers)).statusCode).toBe(401);
    const left = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(left).toEqual([]);
  });

  it("a session idle for 30 days has expired; activity keeps it alive", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const day = 24 * 60 * 60 * 1000;
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 29 * day) })
      .where(eq(sessions.userId, user.id));
    await t.app.sessionCache.caughtUp();
    expect((await me(headers)).statusCode).toBe(200);
    const [touched] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.id));
    expect(Date.now() - (touched?.lastSeenAt.getTime() ?? 0)).toBeLessThan(60_000);

    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * day) })
      .where(eq(sessions.userId, user.id));
    // Written straight into the table, as another process would: heard before the next read.
    await t.app.sessionCache.caughtUp();
    expect((await me(headers)).statusCode).toBe(401);
  });

  it("updates lastActiveAt at most once a minute", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await t.database.db
      .update(users)
      .set({ lastActiveAt: tenMinutesAgo })
      .where(eq(users.id, user.id));
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: tenMinutesAgo })
      .where(eq(sessions.userId, user.id));
    await t.app.sessionCache.caughtUp();
    await me(headers);
    const [first] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(first?.lastActiveAt?.getTime()).toBeGreaterThan(tenMinutesAgo.getTime());
    await me(headers);
    const [second] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(second?.lastActiveAt?.getTime()).toBe(first?.lastActiveAt?.getTime());
  });

  it("ignores the session of a deactivated member", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    await t.database.db
      .update(users)
      .set({ deactivatedAt: new Date() })
      .where(eq(users.id, user.id));
    await t.app.sessionCache.caughtUp();
    expect((await me(headers)).statusCode).toBe(401);
  });
});
