import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { sessions, users } from "../../db/schema.ts";
import { createSession } from "../../security/session-store.ts";
import { buildUser } from "../../test/builders.ts";
import { createTestDatabase } from "../../test/databases.ts";
import { setupGoogleProvider } from "../../test/google-provider.ts";
import { cookieFrom, TEST_ORIGIN, TEST_PASSWORD } from "../../test/helpers.ts";
import { GOOGLE_STATE_COOKIE } from "./google.ts";
import { usernameBase } from "./google-account.ts";

const provider = setupGoogleProvider();
let app: App;
let database: Database;
let drop: () => Promise<void> = async () => {};

beforeAll(async () => {
  const created = await createTestDatabase();
  database = created.database;
  drop = created.drop;
  app = await appWith(provider.issuer());
  await app.ready();
});

/** Prism on the test database, with Google sign-in at `issuer` (none when undefined). */
function appWith(issuer: string | undefined) {
  const google = issuer
    ? { GOOGLE_CLIENT_ID: "prism-test", GOOGLE_CLIENT_SECRET: "secret", GOOGLE_ISSUER: issuer }
    : {};
  const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test", ...google });
  return buildApp({ config, database });
}

afterAll(async () => {
  await app?.close();
  await drop();
});

const claims = (overrides: Record<string, unknown> = {}) => ({
  sub: "google-ada",
  email: "ada.lovelace@gmail.com",
  email_verified: true,
  given_name: "Ada",
  family_name: "Lovelace",
  name: "Ada Lovelace",
  picture: "https://lh3.googleusercontent.com/a/ada",
  ...overrides,
});

/** GET /auth/google, then the provider's authorize endpoint: the callback URL and state cookie. */
async function startFlow(tokenClaims: Record<string, unknown>, url = "/auth/google") {
  const { started: start, stateCookie, callback } = await provider.authorize(app, url, tokenClaims);
  expect(start.statusCode).toBe(302);
  return { start, stateCookie, callback };
}

function finishFlow(callback: URL, cookies: Record<string, string>) {
  return app.inject({
    method: "GET",
    url: `${callback.pathname}${callback.search}`,
    cookies,
  });
}

async function googleSignIn(tokenClaims: Record<string, unknown>, cookies = {}) {
  const { stateCookie, callback } = await startFlow(tokenClaims);
  return finishFlow(callback, { [GOOGLE_STATE_COOKIE]: stateCookie.value, ...cookies });
}

async function me(response: { cookies: { name: string; value: string }[] }) {
  return app.inject({ method: "GET", url: "/api/user", headers: cookieFrom(response) });
}

async function countUsers() {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}

const sessionCookie = (response: { cookies: { name: string; value: string }[] }) =>
  response.cookies.find((c) => c.name === "prism_session");

describe("GET /auth/google", () => {
  it.each([
    ["Google is not configured", undefined, "google-not-configured"],
    ["the provider cannot be reached", "http://127.0.0.1:1", "google-auth-failed"],
  ])("redirects with an error when %s", async (_case, issuer, error) => {
    const other = await appWith(issuer);
    try {
      const response = await other.inject({ method: "GET", url: "/auth/google" });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(`/auth/callback?error=${error}`);
    } finally {
      await other.close();
    }
  });

  it("sends the browser to the provider with PKCE, state and nonce in a short-lived cookie", async () => {
    const response = await app.inject({ method: "GET", url: "/auth/google" });
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(provider.issuer());
    const params = Object.fromEntries(location.searchParams);
    expect(params).toMatchObject({
      client_id: "prism-test",
      response_type: "code",
      scope: "openid email profile",
      redirect_uri: `${TEST_ORIGIN}/auth/google/callback`,
      code_challenge_method: "S256",
    });
    expect(params.state).toBeTruthy();
    expect(params.nonce).toBeTruthy();
    expect(params.code_challenge).toBeTruthy();
    const cookie = response.cookies.find((c) => c.name === GOOGLE_STATE_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/auth/google" });
    expect(cookie?.maxAge).toBe(600);
    expect(cookie?.value).not.toContain(params.code_challenge);
  });
});

describe("GET /auth/google/callback", () => {
  it("creates a Google member with a username from the e-mail and signs them in", async () => {
    const response = await googleSignIn(claims());
    expect(response.statusCode).toBe(302);
    // The account is new: its first screen is its own page (the callback page is told so).
    expect(response.headers.location).toBe("/auth/callback?welcome=1");
    expect(sessionCookie(response)).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(response.cookies.find((c) => c.name === GOOGLE_STATE_COOKIE)?.value).toBe("");

    const user = await me(response);
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({
      username: "adalovelace",
      email: "ada.lovelace@gmail.com",
      firstName: "Ada",
      lastName: "Lovelace",
      authProvider: "google",
    });
    const [row] = await database.db.select().from(users).where(eq(users.googleId, "google-ada"));
    expect(row).toMatchObject({
      password: null,
      profileImageUrl: "https://lh3.googleusercontent.com/a/ada",
    });
    expect(row?.lastActiveAt).toBeInstanceOf(Date);

    // Signing in again finds the same member.
    const before = await countUsers();
    const again = await googleSignIn(claims());
    expect(again.headers.location).toBe("/auth/callback");
    expect((await me(again)).json().username).toBe("adalovelace");
    expect(await countUsers()).toBe(before);
  });

  it("gives two people with the same local part distinct usernames", async () => {
    const response = await googleSignIn(
      claims({ sub: "google-ada-2", email: "Ada.Lovelace@example.org", name: undefined }),
    );
    expect(response.headers.location).toBe("/auth/callback?welcome=1");
    expect((await me(response)).json().username).toBe("adalovelace-2");

    const reserved = await googleSignIn(
      claims({ sub: "google-admin", email: "admin@example.org", given_name: undefined }),
    );
    expect((await me(reserved)).json()).toMatchObject({
      username: "admin-2",
      firstName: "Ada",
      lastName: "Lovelace",
    });
  });

  it("falls back to the e-mail for names and pads short usernames", async () => {
    const response = await googleSignIn({
      sub: "google-jo",
      email: "j.o@example.net",
      email_verified: true,
    });
    expect((await me(response)).json()).toMatchObject({
      username: "jomember",
      firstName: "j.o",
      lastName: "Member",
    });
    expect(usernameBase("Grace+Hopper.Très")).toBe("gracehoppertrs");
    expect(usernameBase("x".repeat(40))).toHaveLength(30);
  });

  it("never links itself to an existing account with a password, and explains why", async () => {
    const grace = await buildUser(database, { username: "grace_h", email: "grace@example.com" });
    const before = await countUsers();
    const response = await googleSignIn(
      claims({ sub: "google-grace", email: "Grace@Example.com", given_name: "G" }),
    );
    expect(response.headers.location).toBe("/auth/callback?error=google-account-exists");
    expect(sessionCookie(response)).toBeUndefined();
    expect(await countUsers()).toBe(before);
    const [row] = await database.db.select().from(users).where(eq(users.id, grace.id));
    expect(row?.googleId).toBeNull();
  });

  it("connects Google to the signed-in member from Profile Settings, and disconnects it", async () => {
    const ada = await buildUser(database, { username: "ada_conn", email: "ada.conn@example.com" });
    const token = await createSession(database.db, ada.id, "vitest");
    const session = { cookie: `prism_session=${token}` };
    // Connecting starts with the member's password (Profile Settings sends it first).
    const withPassword = (member: { cookie: string }) => ({
      ...member,
      origin: TEST_ORIGIN,
      "content-type": "application/json",
    });
    const reauth = JSON.stringify({ currentPassword: TEST_PASSWORD });
    const confirmed = await app.inject({
      method: "POST",
      url: "/api/user/google",
      headers: withPassword(session),
      payload: reauth,
    });
    expect(confirmed.statusCode).toBe(204);
    const { stateCookie, callback } = await startFlow(
      claims({ sub: "google-ada-conn", email: "someone.else@gmail.com" }),
      "/auth/google?connect=1",
    );
    const connected = await finishFlow(callback, {
      [GOOGLE_STATE_COOKIE]: stateCookie.value,
      prism_session: token,
    });
    expect(connected.headers.location).toBe("/profile?google=connected");
    const mine = await app.inject({ method: "GET", url: "/api/user", headers: session });
    expect(mine.json()).toMatchObject({ googleConnected: true, hasPassword: true });
    // Google now signs in to Ada's account.
    expect((await me(await googleSignIn(claims({ sub: "google-ada-conn" })))).json().username).toBe(
      "ada_conn",
    );
    // The same Google account cannot be connected to someone else.
    const bob = await buildUser(database, { username: "bob_conn" });
    const bobToken = await createSession(database.db, bob.id, "vitest");
    const bobConfirmed = await app.inject({
      method: "POST",
      url: "/api/user/google",
      headers: withPassword({ cookie: `prism_session=${bobToken}` }),
      payload: reauth,
    });
    expect(bobConfirmed.statusCode).toBe(204);
    const taken = await startFlow(claims({ sub: "google-ada-conn" }), "/auth/google?connect=1");
    const refused = await finishFlow(taken.callback, {
      [GOOGLE_STATE_COOKIE]: taken.stateCookie.value,
      prism_session: bobToken,
    });
    expect(refused.headers.location).toBe("/profile?google=google-already-linked");
    // Without a session, nothing is connected.
    const anonymous = await startFlow(claims({ sub: "google-nobody" }), "/auth/google?connect=1");
    const nobody = await finishFlow(anonymous.callback, {
      [GOOGLE_STATE_COOKIE]: anonymous.stateCookie.value,
    });
    expect(nobody.headers.location).toBe("/profile?google=google-auth-failed");
    // Disconnecting needs a password to sign in with.
    const disconnected = await app.inject({
      method: "DELETE",
      url: "/api/user/google",
      headers: withPassword(session),
      payload: reauth,
    });
    expect(disconnected.statusCode).toBe(200);
    expect(disconnected.json()).toMatchObject({ googleConnected: false });
    const googleOnly = await googleSignIn(claims({ sub: "google-only", email: "only@gmail.com" }));
    const refusedDisconnect = await app.inject({
      method: "DELETE",
      url: "/api/user/google",
      headers: { ...cookieFrom(googleOnly), origin: TEST_ORIGIN },
    });
    expect(refusedDisconnect.statusCode).toBe(400);
  });

  it("refuses an unverified e-mail that matches an existing member", async () => {
    // An account without a password (none is made so today) is linked only on a verified e-mail.
    const linus = await buildUser(database, {
      username: "linus_t",
      email: "linus@example.com",
      password: null,
    });
    const before = await countUsers();
    const response = await googleSignIn(
      claims({ sub: "google-linus", email: "linus@example.com", email_verified: false }),
    );
    expect(response.headers.location).toBe("/auth/callback?error=google-auth-failed");
    expect(sessionCookie(response)).toBeUndefined();
    expect(await countUsers()).toBe(before);
    const [row] = await database.db.select().from(users).where(eq(users.id, linus.id));
    expect(row?.googleId).toBeNull();
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, linus.id))).toEqual(
      [],
    );
  });

  it("fails on a wrong or missing state, a provider error and a missing e-mail", async () => {
    const before = await countUsers();
    const failed = "/auth/callback?error=google-auth-failed";

    const { stateCookie, callback } = await startFlow(claims({ sub: "google-x" }));
    const tampered = new URL(callback);
    tampered.searchParams.set("state", "not-the-state");
    const wrongState = await finishFlow(tampered, { [GOOGLE_STATE_COOKIE]: stateCookie.value });
    expect(wrongState.headers.location).toBe(failed);
    expect(sessionCookie(wrongState)).toBeUndefined();

    const second = await startFlow(claims({ sub: "google-x" }));
    expect((await finishFlow(second.callback, {})).headers.location).toBe(failed);

    const denied = new URL(second.callback);
    denied.search = `?error=access_denied&state=${second.callback.searchParams.get("state")}`;
    const deniedResponse = await finishFlow(denied, {
      [GOOGLE_STATE_COOKIE]: second.stateCookie.value,
    });
    expect(deniedResponse.headers.location).toBe(failed);

    const noEmail = await googleSignIn({ sub: "google-x", email: undefined });
    expect(noEmail.headers.location).toBe(failed);
    expect(await countUsers()).toBe(before);
  });

  it("refuses a deactivated member", async () => {
    await buildUser(database, {
      username: "gone_g",
      googleId: "google-gone",
      deactivatedAt: new Date(),
    });
    const response = await googleSignIn(claims({ sub: "google-gone", email: "gone@gmail.com" }));
    expect(response.headers.location).toBe("/auth/callback?error=account-deactivated");
    expect(sessionCookie(response)).toBeUndefined();
  });
});
