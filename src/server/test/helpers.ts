// A fresh database for a test file, Prism's app on it, and the headers of a signed-in client.
import { afterAll, beforeAll } from "vitest";
import { htmlToPlainText } from "../../contract/plain-text.ts";
import { type App, buildApp } from "../app.ts";
import { Versions } from "../cache/versions.ts";
import { type Config, loadConfig } from "../config.ts";
import type { Database, Db } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import { EventBus } from "../live/bus.ts";
import { signedVisitorId, VISITOR_COOKIE } from "../plugins/visitor.ts";
import { createSession, SESSION_COOKIE } from "../security/session-store.ts";
import { createTestDatabase } from "./databases.ts";
import { personCheck } from "./person-check.ts";

export const TEST_ORIGIN = "http://localhost:3000";
export const TEST_PASSWORD = "correct-horse";
/** The APP_SECRET of the apps `setupTestApp` builds, so that tests can sign browser ids. */
export const TEST_SECRET = "test-secret-of-the-test-apps-000";

interface TestContext {
  app: App;
  database: Database;
  config: Config;
}

/** One database for the whole test file, for tests that call services and commands directly. */
export function setupTestDatabase(): { database: Database } {
  const context = {} as { database: Database };
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    context.database = created.database;
    // PGlite starts on its first query: here, rather than in the first test's time.
    await created.database.ping();
  });
  afterAll(() => drop());
  return context;
}

/** One app and one database for the whole test file; `env` adds to the test configuration. */
export function setupTestApp(env: Record<string, string> = {}): TestContext {
  // Hooks registered later run first after the tests: the app closes before its database goes.
  const context = setupTestDatabase() as TestContext;
  beforeAll(async () => {
    context.config = loadConfig({
      APP_ORIGIN: TEST_ORIGIN,
      SEED: "none",
      NODE_ENV: "test",
      APP_SECRET: TEST_SECRET,
      ...env,
    });
    context.app = await buildApp({ config: context.config, database: context.database });
    await context.app.ready();
  });
  afterAll(async () => {
    await context.app?.close();
  });
  return context;
}

interface LiveContext {
  database: Database;
  db: Db;
  bus: EventBus;
  versions: Versions;
}

/** A fresh database and the live layer on it (events and versions), for reads tested without HTTP. */
export function setupTestLive(): LiveContext {
  const context = {} as LiveContext;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    context.database = created.database;
    context.db = created.database.db;
    context.bus = new EventBus(created.database);
    await context.bus.start();
    context.versions = new Versions(context.bus, "test secret");
  });
  afterAll(async () => {
    await context.bus?.stop();
    await drop();
  });
  return context;
}

/**
 * The `vid` cookie of the browser `name` as a cookie header's pair, signed as the server with
 * `secret` (the test apps' by default) signs the ids it issues.
 */
export function visitorCookie(name: string, secret = TEST_SECRET): string {
  return `${VISITOR_COOKIE}=${signedVisitorId(name, secret)}`;
}

/** A session cookie header for a member, written straight into the sessions table. */
export async function signIn(database: Database, user: UserRow): Promise<Record<string, string>> {
  const token = await createSession(database.db, user.id, "vitest");
  return { cookie: `${SESSION_COOKIE}=${token}` };
}

/** Headers of a same-origin JSON write, as the browser sends them. */
export function jsonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { origin: TEST_ORIGIN, "content-type": "application/json", ...extra };
}

/** A call to the app as the page makes it: writes are same-origin JSON. */
export function send(
  app: App,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  options: {
    payload?: object | string;
    headers?: Record<string, string>;
    remoteAddress?: string;
  } = {},
) {
  const { headers = {}, ...rest } = options;
  return app.inject({
    method,
    url,
    headers: method === "GET" ? headers : jsonHeaders(headers),
    ...rest,
  });
}

/** The session cookie a response set, as a request header. */
export function cookieFrom(response: {
  cookies: { name: string; value: string }[];
}): Record<string, string> {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  return cookie ? { cookie: `${SESSION_COOKIE}=${cookie.value}` } : {};
}

/** The person check of an anonymous response, with a challenge `app` issued to `remoteAddress`. */
export async function personCheckFrom(app: App, remoteAddress?: string) {
  const issued = await send(app, "GET", "/api/challenge", remoteAddress ? { remoteAddress } : {});
  return personCheck(issued.json());
}

/**
 * A response's body as the dialog sends it: when `headers` name no session, with the person check
 * (a challenge issued to `remoteAddress`), which `body` may override.
 */
export async function asSent(
  app: App,
  headers: Record<string, string>,
  body: object,
  remoteAddress?: string,
) {
  const signedIn = headers.cookie?.includes(`${SESSION_COOKIE}=`);
  return signedIn ? body : { ...(await personCheckFrom(app, remoteAddress)), ...body };
}

/**
 * A response to `quote` in a prism whose content is `html`, as a reader's browser sends it: the
 * quote's offsets in the prism's plain text, "About {quote}" as the thought, and without a
 * session the person check.
 */
export async function respondToQuote(
  app: App,
  prismId: number,
  html: string,
  quote: string,
  headers: Record<string, string>,
  extra: object = {},
) {
  const start = htmlToPlainText(html).indexOf(quote);
  return send(app, "POST", "/api/annotations", {
    headers,
    payload: await asSent(app, headers, {
      prismId,
      selectedText: quote,
      selectionStart: start,
      selectionEnd: start + quote.length,
      annotationText: `About ${quote}`,
      ...extra,
    }),
  });
}

/** What Profile Settings sends for a member as they are now, with `changes`. */
export function profileBody(
  user: Pick<UserRow, "firstName" | "lastName" | "email">,
  changes: Record<string, unknown> = {},
) {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    displayName: "",
    websiteUrl: "",
    twitterUrl: "",
    linkedinUrl: "",
    ...changes,
  };
}
