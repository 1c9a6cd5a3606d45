import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authMessages } from "../../../contract/auth.ts";
import { diagnosticMessages } from "../../../contract/diagnostics.ts";
import { type App, buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { createTestDatabase } from "../../test/databases.ts";
import { jsonHeaders, setupTestApp, signIn, TEST_ORIGIN } from "../../test/helpers.ts";

const ctx = setupTestApp();

const countUsers = async (database: Database) => {
  const [row] = await database.db.select({ n: count() }).from(users);
  return row?.n ?? 0;
};

const member = (overrides: Record<string, string> = {}) => ({
  username: "diag_tester",
  email: "diag_tester@example.com",
  password: "test-password",
  firstName: "Diag",
  lastName: "Tester",
  ...overrides,
});

const registrationFlow = (app: App, payload: object, headers: Record<string, string> = {}) =>
  app.inject({
    method: "POST",
    url: "/api/db-check/registration-flow",
    headers: jsonHeaders(headers),
    payload,
  });

describe("GET /api/db-check", () => {
  it("pings the database and answers ok", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/db-check" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", message: diagnosticMessages.connected });
  });
});

describe("POST /api/db-check/registration-flow", () => {
  it("registers the member for real, then rolls it back", async () => {
    const before = await countUsers(ctx.database);
    const response = await registrationFlow(ctx.app, member());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "ok",
      message: "Registration flow works: the member was created and then rolled back",
      user: { username: "diag_tester", email: "diag_tester@example.com" },
    });
    expect(await countUsers(ctx.database)).toBe(before);
    const profile = await ctx.app.inject({ method: "GET", url: "/api/users/diag_tester" });
    expect(profile.statusCode).toBe(404);
    // Rolled back, so the same member can be tested again.
    expect((await registrationFlow(ctx.app, member())).json().status).toBe("ok");
  });

  it("reports a taken username as an error and changes nothing", async () => {
    const taken = await buildUser(ctx.database);
    const before = await countUsers(ctx.database);
    const response = await registrationFlow(ctx.app, member({ username: taken.username }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "error",
      message: diagnosticMessages.registrationRejected,
      error: authMessages.usernameTaken,
    });
    expect(await countUsers(ctx.database)).toBe(before);
  });

  it("reports invalid input with the registration form's message", async () => {
    const response = await registrationFlow(ctx.app, member({ password: "123" }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "error", error: authMessages.passwordMin });
  });

  it("answers 400 when a field is missing", async () => {
    const { lastName: _lastName, ...partial } = member();
    expect((await registrationFlow(ctx.app, partial)).statusCode).toBe(400);
  });
});

describe("POST /api/db-check/reset", () => {
  /** A session setting: it lives exactly as long as the connection that set it. */
  const probe = async () => {
    const [row] = await ctx.database.db
      .select({ value: sql<string | null>`current_setting('prism.probe', true)` })
      .from(users)
      .limit(1);
    return row?.value ?? null;
  };

  it("closes the database connection and opens a fresh one, deleting nothing", async () => {
    await buildUser(ctx.database);
    const before = await countUsers(ctx.database);
    await ctx.database.db
      .select({ set: sql`set_config('prism.probe', 'the old connection', false)` })
      .from(users)
      .limit(1);

    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/db-check/reset",
      headers: { origin: TEST_ORIGIN },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", message: diagnosticMessages.connectionReset });
    expect(await probe()).toBeNull();
    expect(await countUsers(ctx.database)).toBe(before);
  });
});

describe("/api/demo", () => {
  it.each([
    ["success", 200, { message: "It works" }],
    ["not-found", 404, { message: diagnosticMessages.demoNotFound }],
    ["server-error", 500, { message: "A simulated server error" }],
  ])("GET /api/demo/%s answers %i", async (name, status, body) => {
    const response = await ctx.app.inject({ method: "GET", url: `/api/demo/${name}` });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
  });
});

describe("in production", () => {
  let app: App;
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase());
    const config = loadConfig({
      NODE_ENV: "production",
      APP_ORIGIN: TEST_ORIGIN,
      SEED: "none",
      APP_SECRET: "a-production-secret-of-at-least-32-chars",
      DATABASE_URL: "pglite:memory",
    });
    app = await buildApp({ config, database });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  const calls = [
    ["GET", "/api/db-check", undefined],
    ["POST", "/api/db-check/registration-flow", member({ username: "prod_tester" })],
    ["POST", "/api/db-check/reset", undefined],
  ] as const;

  it.each(calls)("%s %s needs a signed-in admin", async (method, url, payload) => {
    const send = (headers: Record<string, string>) =>
      app.inject({
        method,
        url,
        headers: payload ? jsonHeaders(headers) : { origin: TEST_ORIGIN, ...headers },
        payload,
      });
    expect((await send({})).statusCode).toBe(401);
    const plain = await buildUser(database);
    expect((await send(await signIn(database, plain))).statusCode).toBe(403);
    const admin = await buildUser(database, { isAdmin: true });
    const allowed = await send(await signIn(database, admin));
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().status).toBe("ok");
  });

  it("keeps the error demo open", async () => {
    const response = await app.inject({ method: "GET", url: "/api/demo/success" });
    expect(response.statusCode).toBe(200);
  });
});
