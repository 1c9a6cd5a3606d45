import { Agent, get } from "node:http";
import { createServer, type Server, Socket } from "node:net";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it, vi } from "vitest";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { openDatabase, rowsOf } from "./db/client.ts";
import { Readiness } from "./readiness.ts";
import { testDatabaseUrl } from "./test/databases.ts";
import { setupTestApp, TEST_ORIGIN } from "./test/helpers.ts";
import { databaseName } from "./test/instances.ts";
import { freePort } from "./test/ports.ts";

const t = setupTestApp();

const ready = () => t.app.inject({ method: "GET", url: "/api/ready" });
/** What /api/ready answers, polled until it says what a test waits for. */
const readiness = async () => {
  const response = await ready();
  return { status: response.statusCode, body: response.json() };
};
const poll = { timeout: 15_000, interval: 100 };

describe("GET /api/ready", () => {
  it("answers 200 while the database answers, is migrated and the event listener is connected, and no cache keeps it", async () => {
    const response = await ready();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ready: true });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("answers 503 while the database lacks this version's latest migration, and 200 once it has it", async () => {
    const [latest] = rowsOf<{ id: number; hash: string; created_at: string }>(
      await t.database.db.execute(
        sql`delete from drizzle.__drizzle_migrations
            where created_at = (select max(created_at) from drizzle.__drizzle_migrations)
            returning id, hash, created_at::text`,
      ),
    );
    if (!latest) throw new Error("the test database has no migrations");
    try {
      await expect
        .poll(readiness, poll)
        .toEqual({ status: 503, body: { ready: false, message: "database migrations pending" } });
      const response = await ready();
      expect(response.headers["cache-control"]).toBe("no-store");
    } finally {
      await t.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at)
            values (${latest.id}, ${latest.hash}, ${latest.created_at}::bigint)`,
      );
    }
    await expect.poll(readiness, poll).toEqual({ status: 200, body: { ready: true } });
  });

  it("answers 503 while the database cannot be reached", async () => {
    const port = await freePort();
    const database = openDatabase(`postgres://postgres@127.0.0.1:${port}/nowhere`);
    const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test" });
    const app = await buildApp({ config, database });
    try {
      const response = await app.inject({ method: "GET", url: "/api/ready" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ ready: false, message: "database unreachable" });
    } finally {
      await app.close();
      await database.close();
    }
  });

  it("answers 503 shutting down as soon as the process begins to close, to a connection kept open", async () => {
    const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test" });
    // The kept connection is cut once it has gone a second without a request while the app
    // closes; here it has longer, so that a busy machine's slow second ask still finds it open.
    const app = await buildApp({ config, database: t.database, connections: { idleMs: 60_000 } });
    const address = new URL(await app.listen({ port: 0, host: "127.0.0.1" }));
    // One connection, kept open: a proxy's health check, which the closing server still answers.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = () =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        get(new URL("/api/ready", address), { agent }, (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }),
          );
        }).on("error", reject);
      });
    try {
      expect(await ask()).toEqual({ status: 200, body: { ready: true } });
      const closed = app.close();
      // It has stopped accepting connections: it is draining those it has.
      await vi.waitFor(() => expect(app.server.listening).toBe(false));
      expect(await ask()).toEqual({
        status: 503,
        body: { ready: false, message: "shutting down" },
      });
      await closed;
    } finally {
      agent.destroy();
      await app.close();
    }
  });

  it("asks the database once however often it is polled within the interval", async () => {
    const status = vi.spyOn(t.database, "status");
    try {
      const check = new Readiness(t.database, 60_000);
      const answers = await Promise.all(Array.from({ length: 20 }, () => check.current()));
      for (let i = 0; i < 20; i++) answers.push(await check.current());
      expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
        new Set([JSON.stringify({ ready: true })]),
      );
      expect(status).toHaveBeenCalledTimes(1);
    } finally {
      status.mockRestore();
    }
  });

  const postgresUrl = testDatabaseUrl();

  it.runIf(postgresUrl)(
    "turns not ready when its event listener or its database is lost, and ready again by itself",
    { timeout: 60_000 },
    async () => {
      if (!postgresUrl) return;
      const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
      const name = await databaseName(t.database);
      try {
        expect(await readiness()).toEqual({ status: 200, body: { ready: true } });
        // No new connection to the database gets in, so the listener cannot come back yet.
        await admin.unsafe(`alter database ${name} with allow_connections false`);
        await admin`select pg_terminate_backend(pid) from pg_stat_activity
                    where datname = ${name} and query like 'listen %'`;
        await expect.poll(readiness, poll).toEqual({
          status: 503,
          body: { ready: false, message: "event listener disconnected" },
        });
        await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
        await expect
          .poll(readiness, poll)
          .toEqual({ status: 503, body: { ready: false, message: "database unreachable" } });
      } finally {
        await admin.unsafe(`alter database ${name} with allow_connections true`);
        await admin.end();
      }
      await expect.poll(readiness, poll).toEqual({ status: 200, body: { ready: true } });
    },
  );
});

describe("GET /api/health", () => {
  it("answers 503 while PostgreSQL cannot be reached, and recovers by itself when it is back", async () => {
    // A TCP relay stands between the app and the database so that the test can cut the line.
    const target = testDatabaseUrl();
    const sockets = new Set<Socket>();
    let relay: Server | undefined;
    const port = await freePort();
    const openRelay = (upstream: URL) =>
      new Promise<void>((resolve) => {
        relay = createServer((client) => {
          const server = new Socket();
          sockets.add(client).add(server);
          server.connect(Number(upstream.port || 5432), upstream.hostname);
          client.pipe(server).pipe(client);
          client.on("error", () => server.destroy());
          server.on("error", () => client.destroy());
        }).listen(port, "127.0.0.1", () => resolve());
      });
    const cutRelay = () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        if (relay) relay.close(() => resolve());
        else resolve();
      });

    const url = new URL(target ?? "postgres://postgres@127.0.0.1:5432/test");
    const relayed = `postgres://${url.username}@127.0.0.1:${port}${url.pathname}`;
    const database = openDatabase(relayed);
    const app = await buildApp({ config: t.config, database });
    try {
      const down = await app.inject({ method: "GET", url: "/api/health" });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        message: "The service is temporarily unavailable. Please try again shortly.",
      });
      const signedOut = await app.inject({
        method: "GET",
        url: "/api/user",
        headers: { cookie: "prism_session=abc" },
      });
      expect(signedOut.statusCode).toBe(503);
      if (!target) {
        console.log(
          "recovery half skipped: TEST_DB=postgres is not set (CI runs it against PostgreSQL)",
        );
        return;
      }
      await openRelay(url);
      expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
      await cutRelay();
      expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(503);
      await openRelay(url);
      expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close().catch(() => {});
      await cutRelay();
    }
  });
});
