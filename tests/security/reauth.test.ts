// A stolen session is not a stolen account: changing the e-mail or password, connecting or
// disconnecting Google and deleting the account ask again for the current password (a Google-only account
// confirms with Google instead), wrong guesses are limited per member, and the old address is
// told of an e-mail change.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { reauthMessages } from "../../src/contract/user.ts";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { sessions, type UserRow, users } from "../../src/server/db/schema.ts";
import { GOOGLE_STATE_COOKIE } from "../../src/server/features/auth/google.ts";
import { buildUser } from "../../src/server/test/builders.ts";
import { setupGoogleProvider } from "../../src/server/test/google-provider.ts";
import {
  cookieFrom,
  profileBody,
  send,
  signIn,
  TEST_ORIGIN,
  TEST_PASSWORD,
} from "../../src/server/test/helpers.ts";
import { setupMailTestApp } from "../../src/server/test/mail.ts";

const t = setupMailTestApp();

// Prism with Google sign-in at a local provider, on the same database.
const provider = setupGoogleProvider();
let google: App;

beforeAll(async () => {
  const config = loadConfig({
    APP_ORIGIN: TEST_ORIGIN,
    SEED: "none",
    NODE_ENV: "test",
    GOOGLE_CLIENT_ID: "prism-test",
    GOOGLE_CLIENT_SECRET: "secret",
    GOOGLE_ISSUER: provider.issuer(),
  });
  google = await buildApp({ config, database: t.database });
});

afterAll(async () => {
  await google?.close();
});

/** Through Google and back: `start` is /auth/google with its query; the callback's answer. */
async function googleFlow(start: string, sub: string, cookies: Record<string, string> = {}) {
  const claims = { sub, email: `${sub}@gmail.com`, email_verified: true };
  const { stateCookie, callback } = await provider.authorize(google, start, claims, cookies);
  return { state: stateCookie.value, callback };
}

function finish(callback: URL, cookies: Record<string, string>) {
  return google.inject({ method: "GET", url: `${callback.pathname}${callback.search}`, cookies });
}

const tokenOf = (headers: Record<string, string>) => headers.cookie?.split("=")[1] ?? "";

const row = async (user: UserRow) => {
  const [found] = await t.database.db.select().from(users).where(eq(users.id, user.id));
  return found;
};

const missing = { currentPassword: reauthMessages.currentPasswordRequired };
const wrong = { currentPassword: reauthMessages.currentPasswordWrong };

/** The four sensitive actions of a member who has a password and a connected Google account. */
const actions = {
  "changing the e-mail": {
    call: (app: App, user: UserRow, headers: Record<string, string>, extra: object) =>
      send(app, "PUT", "/api/user/profile", {
        headers,
        payload: profileBody(user, { email: `new-${user.username}@example.com`, ...extra }),
      }),
    ok: 200,
    unchanged: async (user: UserRow) => expect((await row(user))?.email).toBe(user.email),
  },
  "changing the password": {
    call: (app: App, _user: UserRow, headers: Record<string, string>, extra: object) =>
      send(app, "PUT", "/api/user/password", {
        headers,
        payload: { password: "a-new-secret", ...extra },
      }),
    ok: 200,
    unchanged: async (user: UserRow) => expect((await row(user))?.password).toBe(user.password),
  },
  "disconnecting Google": {
    call: (app: App, _user: UserRow, headers: Record<string, string>, extra: object) =>
      send(app, "DELETE", "/api/user/google", { headers, payload: extra }),
    ok: 200,
    unchanged: async (user: UserRow) => expect((await row(user))?.googleId).toBe(user.googleId),
  },
  "starting to connect Google": {
    call: (app: App, _user: UserRow, headers: Record<string, string>, extra: object) =>
      send(app, "POST", "/api/user/google", { headers, payload: extra }),
    ok: 204,
    unchanged: async (user: UserRow) => {
      const [session] = await t.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user.id));
      expect(session?.confirmedAt).toBeNull();
    },
  },
  "deleting the account": {
    call: (app: App, _user: UserRow, headers: Record<string, string>, extra: object) =>
      send(app, "DELETE", "/api/user/account", { headers, payload: extra }),
    ok: 204,
    unchanged: async (user: UserRow) => expect(await row(user)).toBeDefined(),
  },
};

describe("sensitive actions ask for the current password", () => {
  it.each(Object.entries(actions))(
    "%s: missing or wrong answers 400 on currentPassword and changes nothing; the right one succeeds",
    async (_name, action) => {
      const user = await buildUser(t.database, { googleId: `google-${Math.random()}` });
      const headers = await signIn(t.database, user);
      for (const [extra, errors] of [
        [{}, missing],
        [{ currentPassword: "" }, missing],
        [{ currentPassword: "not-the-password" }, wrong],
      ] as const) {
        const refused = await action.call(t.app, user, headers, extra);
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().errors).toEqual(errors);
        await action.unchanged(user);
      }
      const done = await action.call(t.app, user, headers, { currentPassword: TEST_PASSWORD });
      expect(done.statusCode, done.body).toBe(action.ok);
    },
  );

  it("a bodiless account deletion is refused the same way", async () => {
    const user = await buildUser(t.database);
    const refused = await t.app.inject({
      method: "DELETE",
      url: "/api/user/account",
      headers: { ...(await signIn(t.database, user)), origin: TEST_ORIGIN },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual(missing);
    expect(await row(user)).toBeDefined();
  });

  it("changes that are not sensitive need no password: names, links, pre-approve, the same e-mail", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const saved = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: profileBody(user, {
        firstName: "Octavia",
        displayName: "Oct",
        websiteUrl: "https://octavia.example",
        preapproveMembers: true,
      }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await row(user)).toMatchObject({
      firstName: "Octavia",
      displayName: "Oct",
      websiteUrl: "https://octavia.example",
      preapproveMembers: true,
      email: user.email,
    });
  });

  it("connecting Google goes through only after the password was given in this session", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const session = { prism_session: tokenOf(headers) };
    // A connection whose state cookie was rewritten from a sign-in, without the password first.
    const forged = await googleFlow("/auth/google", "google-forged");
    const [state, nonce, verifier] = forged.state.split(".");
    const refused = await finish(forged.callback, {
      [GOOGLE_STATE_COOKIE]: [state, nonce, verifier, "connect"].join("."),
      ...session,
    });
    expect(refused.headers.location).toBe("/profile?google=google-auth-failed");
    expect((await row(user))?.googleId).toBeNull();

    const confirmed = await send(google, "POST", "/api/user/google", {
      headers,
      payload: { currentPassword: TEST_PASSWORD },
    });
    expect(confirmed.statusCode).toBe(204);
    const flow = await googleFlow("/auth/google?connect=1", "google-connected");
    const connected = await finish(flow.callback, {
      [GOOGLE_STATE_COOKIE]: flow.state,
      ...session,
    });
    expect(connected.headers.location).toBe("/profile?google=connected");
    expect((await row(user))?.googleId).toBe("google-connected");
  });
});

describe("changing the password", () => {
  it("signs the member out everywhere else, keeps this session, and the new password signs in", async () => {
    const user = await buildUser(t.database);
    const here = await signIn(t.database, user);
    const elsewhere = await signIn(t.database, user);
    const changed = await send(t.app, "PUT", "/api/user/password", {
      headers: here,
      payload: { currentPassword: TEST_PASSWORD, password: "a-new-secret" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const me = (headers: Record<string, string>) =>
      t.app.inject({ method: "GET", url: "/api/user", headers });
    expect((await me(here)).statusCode).toBe(200);
    expect((await me(elsewhere)).statusCode).toBe(401);
    const login = (password: string) =>
      send(t.app, "POST", "/api/login", { payload: { username: user.username, password } });
    expect((await login(TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login("a-new-secret")).statusCode).toBe(200);
  });

  it("refuses a new password that is too short, and changes nothing", async () => {
    const user = await buildUser(t.database);
    const refused = await send(t.app, "PUT", "/api/user/password", {
      headers: await signIn(t.database, user),
      payload: { currentPassword: TEST_PASSWORD, password: "short" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ password: "Password must be at least 6 characters" });
    expect((await row(user))?.password).toBe(user.password);
  });
});

describe("the old address is told of an e-mail change", () => {
  it("with the new address masked, and no link that lets anyone in", async () => {
    const user = await buildUser(t.database, { email: "octavia.old@example.com" });
    const headers = await signIn(t.database, user);
    const changed = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: profileBody(user, {
        email: "thief.new@evil.example",
        currentPassword: TEST_PASSWORD,
      }),
    });
    expect(changed.statusCode).toBe(200);
    const notice = await vi.waitFor(
      () => {
        const mail = t.received.find((m) => m.to.includes("octavia.old@example.com"));
        if (!mail) throw new Error("no notice yet");
        return mail;
      },
      { timeout: 30_000, interval: 50 },
    );
    const text = notice.raw.replace(/=\r?\n/g, "");
    expect(text).toContain("t***@evil.example");
    expect(text).not.toContain("thief.new");
    expect(text).not.toMatch(/token=|reset-password/);
    expect(t.received.some((m) => m.to.includes("thief.new@evil.example"))).toBe(false);
  });
});

describe("guessing the current password", () => {
  it("is limited per member: 5 wrong guesses in 15 minutes, then 429 even for the right one", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const guess = (currentPassword: string) =>
      send(t.app, "DELETE", "/api/user/account", { headers, payload: { currentPassword } });
    // Right passwords are not guesses: they give their try back.
    const other = await buildUser(t.database, { googleId: "google-guess" });
    const otherHeaders = await signIn(t.database, other);
    for (let i = 0; i < 6; i++) {
      const email = `again-${i}-${other.username}@example.com`;
      const saved = await send(t.app, "PUT", "/api/user/profile", {
        headers: otherHeaders,
        payload: profileBody(other, { email, currentPassword: TEST_PASSWORD }),
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    for (let i = 0; i < 5; i++) {
      expect((await guess(`wrong-${i}`)).statusCode).toBe(400);
    }
    const limited = await guess(TEST_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: reauthMessages.tooManyGuesses });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(await row(user)).toBeDefined();
    // Another member's guesses are their own.
    const disconnected = await send(t.app, "DELETE", "/api/user/google", {
      headers: otherHeaders,
      payload: { currentPassword: TEST_PASSWORD },
    });
    expect(disconnected.statusCode).toBe(200);
  });
});

describe("a Google-only account confirms with Google", () => {
  const googleOnly = (sub: string) =>
    buildUser(t.database, { password: null, authProvider: "google", googleId: sub });

  it("is refused without a recent Google sign-in, and told to confirm with Google", async () => {
    const user = await googleOnly("google-only-1");
    const headers = await signIn(t.database, user);
    const refused = await send(google, "DELETE", "/api/user/account", {
      headers,
      payload: { currentPassword: "anything" },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(reauthMessages.confirmWithGoogle);
    const email = await send(google, "PUT", "/api/user/profile", {
      headers,
      payload: profileBody(user, { email: "elsewhere@example.com" }),
    });
    expect(email.statusCode).toBe(403);
    expect(await row(user)).toMatchObject({ email: user.email });

    // A confirmation older than ten minutes is no confirmation.
    await t.database.db
      .update(sessions)
      .set({ confirmedAt: new Date(Date.now() - 11 * 60 * 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await send(google, "DELETE", "/api/user/account", { headers })).statusCode).toBe(403);
    expect(await row(user)).toBeDefined();
  });

  it("is allowed in a session that a Google sign-in just started", async () => {
    const user = await googleOnly("google-only-2");
    const flow = await googleFlow("/auth/google", "google-only-2");
    const signedIn = await finish(flow.callback, { [GOOGLE_STATE_COOKIE]: flow.state });
    expect(signedIn.headers.location).toBe("/auth/callback");
    const email = await send(google, "PUT", "/api/user/profile", {
      headers: cookieFrom(signedIn),
      payload: profileBody(user, { email: "confirmed@example.com" }),
    });
    expect(email.statusCode, email.body).toBe(200);
    expect((await row(user))?.email).toBe("confirmed@example.com");
    // Choosing a password needs no current one.
    const chosen = await send(google, "PUT", "/api/user/password", {
      headers: cookieFrom(signedIn),
      payload: { password: "a-chosen-secret" },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ hasPassword: true });
  });

  it("confirms an older session through Confirm with Google, back to Profile Settings", async () => {
    const user = await googleOnly("google-only-3");
    const headers = await signIn(t.database, user);
    const session = { prism_session: tokenOf(headers) };
    // Another Google account does not confirm this member.
    const other = await googleFlow("/auth/google?confirm=1", "google-someone-else");
    const notYours = await finish(other.callback, {
      [GOOGLE_STATE_COOKIE]: other.state,
      ...session,
    });
    expect(notYours.headers.location).toBe("/profile?google=google-wrong-account");
    expect((await send(google, "DELETE", "/api/user/account", { headers })).statusCode).toBe(403);

    const flow = await googleFlow("/auth/google?confirm=1", "google-only-3");
    const confirmed = await finish(flow.callback, {
      [GOOGLE_STATE_COOKIE]: flow.state,
      ...session,
    });
    expect(confirmed.headers.location).toBe("/profile?google=confirmed");
    const deleted = await send(google, "DELETE", "/api/user/account", { headers });
    expect(deleted.statusCode).toBe(204);
    expect(await row(user)).toBeUndefined();
  });

  it("cannot do it where Google is not configured, and is told why", async () => {
    const user = await googleOnly("google-only-4");
    const refused = await send(t.app, "DELETE", "/api/user/account", {
      headers: await signIn(t.database, user),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(reauthMessages.googleUnavailable);
    expect(await row(user)).toBeDefined();
  });
});
