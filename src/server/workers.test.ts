import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";
import { buildPrism, buildUser } from "./test/builders.ts";
import { testDatabaseUrl, withDatabase } from "./test/databases.ts";
import { jsonHeaders, setupTestApp, signIn, TEST_ORIGIN } from "./test/helpers.ts";
import { databaseName } from "./test/instances.ts";

const t = setupTestApp();

describe("WORKERS", () => {
  it("takes a number or auto (one per core) and refuses more than one process on the embedded database", () => {
    const postgres = { DATABASE_URL: "postgres://127.0.0.1/prism", NODE_ENV: "test" };
    expect(loadConfig(postgres).workers).toBe(1);
    expect(loadConfig({ ...postgres, WORKERS: "3" }).workers).toBe(3);
    expect(loadConfig({ ...postgres, WORKERS: "auto" }).workers).toBeGreaterThanOrEqual(1);
    expect(() => loadConfig({ ...postgres, WORKERS: "0" })).toThrow(/^Invalid WORKERS/);
    expect(() => loadConfig({ ...postgres, WORKERS: "many" })).toThrow(/^Invalid WORKERS/);
    expect(loadConfig({ DATABASE_URL: "pglite:memory", WORKERS: "1" }).workers).toBe(1);
    expect(() => loadConfig({ DATABASE_URL: "pglite:memory", WORKERS: "2" })).toThrow(
      "Invalid WORKERS: 2 server processes need PostgreSQL (DATABASE_URL=postgres://…); the embedded database belongs to one process",
    );
  });

  const postgresUrl = testDatabaseUrl();

  it.runIf(postgresUrl)(
    "serves one port from two processes that all answer a write's result once it is announced",
    { timeout: 90_000 },
    async () => {
      if (!postgresUrl) return;
      const listening = async () => {
        const result = (await t.database.db.execute(
          sql`select count(*)::int as count from pg_stat_activity
              where datname = current_database() and query ilike 'listen%'`,
        )) as unknown;
        const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
        return (rows[0] as { count: number }).count;
      };
      const listenersBefore = await listening();
      const port = await freePort();
      const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
        env: {
          ...process.env,
          WORKERS: "2",
          PORT: String(port),
          DATABASE_URL: withDatabase(postgresUrl, await databaseName(t.database)),
          APP_ORIGIN: TEST_ORIGIN,
          NODE_ENV: "test",
          SEED: "none",
          LOG_LEVEL: "silent",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        await started(child);
        // Each server process listens for the others' events on a connection of its own.
        expect(await listening()).toBe(listenersBefore + 2);

        const owner = await buildUser(t.database);
        const prism = await buildPrism(t.database, { userId: owner.id, title: "Before" });
        const base = `http://127.0.0.1:${port}`;
        const readMany = async (count: number) =>
          Promise.all(
            Array.from({ length: count }, async () => {
              const response = await fetch(`${base}/api/prisms/${owner.username}`);
              return ((await response.json()) as { title: string }[])[0]?.title;
            }),
          );
        // Both processes answer, and keep the answer in memory.
        expect(new Set(await readMany(40))).toEqual(new Set(["Before"]));

        const saved = await fetch(`${base}/api/prisms/${prism.id}`, {
          method: "PUT",
          headers: jsonHeaders(await signIn(t.database, owner)),
          body: JSON.stringify({ title: "After", content: prism.content }),
        });
        expect(saved.status).toBe(200);

        // The process that wrote knows at once; the other once the announcement reaches it.
        let seen = await readMany(20);
        for (let attempt = 0; attempt < 100 && seen.some((title) => title !== "After"); attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          seen = await readMany(20);
        }
        expect(new Set(seen)).toEqual(new Set(["After"]));
        // Announced everywhere: no process answers the old version again.
        expect(new Set(await readMany(60))).toEqual(new Set(["After"]));
      } finally {
        const exited = once(child, "exit");
        child.kill("SIGTERM");
        const [code] = await exited;
        expect(code).toBe(0);
      }
    },
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Resolves once the primary says every server process listens. */
function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`did not start: ${output}`)), 60_000);
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Prism is running")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    child.once("exit", (code) => reject(new Error(`exited early (${code}): ${output}`)));
  });
}
