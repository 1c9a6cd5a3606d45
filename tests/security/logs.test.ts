// Nothing secret reaches the log: reset links when no mail server is set, query parameters of
// failed database queries, access tokens in logged URLs (their queries and paths).
import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/client.ts";
import { loggerOptions } from "../../src/server/log.ts";
import { buildUser } from "../../src/server/test/builders.ts";
import { createTestDatabase } from "../../src/server/test/databases.ts";
import { send, TEST_ORIGIN } from "../../src/server/test/helpers.ts";

let app: App;
let database: Database;
let drop: () => Promise<void>;
const lines: string[] = [];
const log = () => lines.join("");

beforeAll(async () => {
  const created = await createTestDatabase();
  database = created.database;
  drop = created.drop;
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  // No SMTP_URL: mail cannot be sent.
  const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test" });
  app = await buildApp({ config, database, logger: { ...loggerOptions("info"), stream } });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await drop();
});

/** Waits until the log has a line matching `pattern`. */
async function logged(pattern: RegExp) {
  for (let i = 0; i < 100 && !pattern.test(log()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(log()).toMatch(pattern);
}

describe("the log", () => {
  it("says that a reset e-mail could not be sent, never its link or token", async () => {
    const member = await buildUser(database);
    const response = await send(app, "POST", "/api/password-reset/request", {
      payload: { login: member.username },
    });
    expect(response.statusCode).toBe(202);
    await logged(/mail not sent: SMTP_URL is not set/);
    expect(log()).not.toMatch(/reset-password\?token=/);
    expect(log()).not.toContain(member.email);
  });

  it("masks access tokens in the URLs it logs", async () => {
    await app.inject({ method: "GET", url: "/reset-password?token=very-secret-token-123" });
    await app.inject({ method: "GET", url: "/auth/google/callback?code=secret-code-456&state=s" });
    await logged(/reset-password\?token=\[redacted\]/);
    expect(log()).not.toContain("very-secret-token-123");
    expect(log()).not.toContain("secret-code-456");
  });

  it("masks the token of a response's status link in the paths it logs", async () => {
    const token = "status-link-token-789";
    for (const url of [
      `/responses/${token}`,
      `/api/responses/${token}`,
      `/api/responses/${token}/more?x=1`,
      `/responses/${encodeURIComponent(token)}#top`,
    ]) {
      await app.inject({ method: "GET", url });
    }
    await logged(/"\/api\/responses\/\[redacted\]"/);
    expect(log()).toMatch(/"\/responses\/\[redacted\]"/);
    expect(log()).toMatch(/"\/api\/responses\/\[redacted\]\/more\?x=1"/);
    expect(log()).not.toContain(token);
  });

  it("logs each request once, when it is answered, with its status and time", async () => {
    const id = "one-line-per-request";
    const answer = await send(app, "GET", "/api/site", { headers: { "x-request-id": id } });
    expect(answer.statusCode).toBe(200);
    await logged(new RegExp(`"reqId":"${id}"`));
    const mine = log()
      .split("\n")
      .filter((line) => line.includes(`"reqId":"${id}"`))
      .map((line) => JSON.parse(line));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      msg: "request completed",
      req: { method: "GET", url: "/api/site" },
      res: { statusCode: 200 },
    });
    expect(mine[0].responseTime).toBeGreaterThanOrEqual(0);
  });

  it("logs a failed query without its parameters or the database's details", async () => {
    const secret = "$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0";
    const error = await database.db.execute(sql`select ${secret}::int as n`).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain(secret);
    app.log.error({ err: error }, "request failed");
    await logged(/request failed/);
    expect(log()).toContain("Failed query");
    expect(log()).not.toContain(secret);
    expect(log()).not.toContain("c2VjcmV0");
  });
});
