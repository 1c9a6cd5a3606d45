import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest } from "node:http";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";
import { buildPrism, buildUser } from "./test/builders.ts";
import { testDatabaseUrl, withDatabase } from "./test/databases.ts";
import {
  jsonHeaders,
  setupTestApp,
  signIn,
  TEST_ORIGIN,
  TEST_SECRET,
  visitorCookie,
} from "./test/helpers.ts";
import { databaseName } from "./test/instances.ts";
import { freePort } from "./test/ports.ts";

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
});

const postgresUrl = testDatabaseUrl();

describe.runIf(postgresUrl)("WORKERS=2 on PostgreSQL", () => {
  const listening = async () => {
    const result = (await t.database.db.execute(
      sql`select count(*)::int as count from pg_stat_activity
          where datname = current_database() and query ilike 'listen%'`,
    )) as unknown;
    const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
    return (rows[0] as { count: number }).count;
  };
  // One primary and two server processes for the whole file: starting them is slow.
  let listenersBefore = 0;
  let workers: Awaited<ReturnType<typeof startWorkers>> | undefined;
  let metricsPort = 0;
  const metricsToken = "metrics-token-for-the-workers-test-01";
  beforeAll(async () => {
    listenersBefore = await listening();
    metricsPort = await freePort();
    workers = await startWorkers(postgresUrl ?? "", {
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: metricsToken,
    });
  }, 200_000);
  afterAll(() => workers?.stop());

  it("serves one port from two processes that all answer a write's result (a prism, a heart, an annotation) once it is announced", {
    timeout: 90_000,
  }, async () => {
    const base = workers?.base;
    // Each server process listens for the others' events on a connection of its own.
    expect(await listening()).toBe(listenersBefore + 2);

    const owner = await buildUser(t.database, { preapproveMembers: true });
    const ownerHeaders = jsonHeaders(await signIn(t.database, owner));
    const prism = await buildPrism(t.database, {
      userId: owner.id,
      title: "Before",
      content: "<p>Mornings.</p>",
    });
    const visitor = { cookie: visitorCookie("visitor-workers-0000001") };
    /** What `count` reads of `path` say, by `pick`, from whichever processes answer them. */
    const readMany = async (path: string, pick: (body: never) => unknown, count: number) =>
      Promise.all(
        Array.from({ length: count }, async () => {
          const response = await fetch(`${base}${path}`, { headers: visitor });
          return pick((await response.json()) as never);
        }),
      );
    /** Reads until every process answers `expected`, then once more from many. */
    const expectEverywhere = async (
      path: string,
      pick: (body: never) => unknown,
      expected: unknown,
    ) => {
      let seen = await readMany(path, pick, 20);
      for (let attempt = 0; attempt < 100 && seen.some((v) => v !== expected); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = await readMany(path, pick, 20);
      }
      expect(new Set(seen)).toEqual(new Set([expected]));
      // Announced everywhere: no process answers the old version again.
      expect(new Set(await readMany(path, pick, 60))).toEqual(new Set([expected]));
    };
    const list = `/api/prisms/${owner.username}`;
    const firstTitle = (body: { title: string }[]) => body[0]?.title;
    const heart = `/api/prisms/${prism.id}/heart`;
    const count = (body: { heartsCount: number }) => body.heartsCount;
    const annotationsOf = `/api/prisms/${prism.id}/annotations`;
    const firstText = (body: { annotationText: string }[]) => body[0]?.annotationText ?? null;
    // Both processes answer, and keep the answers in memory.
    expect(new Set(await readMany(list, firstTitle, 40))).toEqual(new Set(["Before"]));
    expect(new Set(await readMany(heart, count, 40))).toEqual(new Set([0]));
    expect(new Set(await readMany(annotationsOf, firstText, 40))).toEqual(new Set([null]));

    const saved = await fetch(`${base}/api/prisms/${prism.id}`, {
      method: "PUT",
      headers: ownerHeaders,
      body: JSON.stringify({ title: "After", content: prism.content }),
    });
    expect(saved.status).toBe(200);
    // The process that wrote knows at once; the other once the announcement reaches it.
    await expectEverywhere(list, firstTitle, "After");

    const hearted = await fetch(`${base}${heart}`, {
      method: "POST",
      headers: jsonHeaders(visitor),
    });
    expect(hearted.status).toBe(200);
    await expectEverywhere(heart, count, 1);

    const annotated = await fetch(`${base}/api/annotations`, {
      method: "POST",
      headers: ownerHeaders,
      body: JSON.stringify({
        prismId: prism.id,
        annotationText: "Approved at once",
        selectedText: "Mornings",
        selectionStart: 0,
        selectionEnd: 8,
      }),
    });
    expect(annotated.status).toBe(201);
    await expectEverywhere(annotationsOf, firstText, "Approved at once");
  });

  it("refuses the 6th wrong sign-in from one address, as one process would, wherever the 5 went", async () => {
    const owner = await buildUser(t.database);
    // Each try on a connection of its own: the primary hands connections to the processes in
    // turn, so the tries are spread over both.
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        await postAlone(`${workers?.base}/api/login`, {
          username: owner.username,
          password: `wrong-${i}`,
        }),
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("serves every process's metrics added up, on METRICS_PORT and with the token on the app's port", async () => {
    const scrapes = [
      await fetch(`http://127.0.0.1:${metricsPort}/metrics`),
      await fetch(`${workers?.base}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      }),
    ];
    for (const scrape of scrapes) {
      expect(scrape.status).toBe(200);
      // Ten connections in each of the two processes.
      expect(await scrape.text()).toMatch(/^prism_db_pool_size 20$/m);
    }
  });

  // Last: it replaces both server processes.
  it("restarts each of two processes in turn under load without failing a request, and sends their open pages elsewhere", {
    timeout: 300_000,
  }, async () => {
    if (!workers) throw new Error("the server processes did not start");
    const { base, child, output } = workers;
    const owner = await buildUser(t.database, { preapproveMembers: true });
    const prism = await buildPrism(t.database, { userId: owner.id });
    // Open pages: their streams end when their process stops, so that they reconnect elsewhere.
    const streams = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const response = await fetch(`${base}/api/events`);
        expect(response.status).toBe(200);
        const reader = response.body?.getReader();
        if (!reader) throw new Error("no body");
        // Wrapped: an async function would wait for the promise it returns.
        return {
          ended: (async () => {
            while (!(await reader.read()).done);
          })(),
        };
      }),
    );

    let sent = 0;
    const settled: {
      resolve?: (result: autocannon.Result) => void;
      reject?: (error: Error) => void;
    } = {};
    const finished = new Promise<autocannon.Result>((resolve, reject) => {
      Object.assign(settled, { resolve, reject });
    });
    const load = autocannon(
      {
        url: base,
        connections: 50,
        duration: 3600,
        requests: [
          { method: "GET", path: `/api/prisms/${owner.username}` },
          {
            method: "POST",
            path: `/api/prisms/${prism.id}/heart`,
            setupRequest: (request) => {
              sent += 1;
              return {
                ...request,
                headers: {
                  ...jsonHeaders(),
                  cookie: visitorCookie(`restart-visitor-${String(sent % 500).padStart(6, "0")}`),
                  "x-forwarded-for": `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`,
                },
              };
            },
          },
        ],
      },
      (error, result) => (error ? settled.reject?.(error) : settled.resolve?.(result)),
    );
    let answered = 0;
    load.on("response", () => {
      answered += 1;
    });
    /** Resolves once the load has had `count` more answers. */
    const answers = async (count: number) => {
      const target = answered + count;
      while (answered < target) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    /** The server processes (the primary also runs a compiler's helper process). */
    const serving = () =>
      execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(child.pid)])
        .toString()
        .split("\n")
        .filter((line) => line.includes("main.ts"))
        .map((line) => Number.parseInt(line, 10));
    const replaced = async (pid: number) => {
      const before = output().split("took the place of a stopped one").length;
      process.kill(pid, "SIGTERM");
      for (let i = 0; i < 2400; i++) {
        if (output().split("took the place of a stopped one").length > before) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no process took ${pid}'s place: ${output()}`);
    };
    // Under load, each of the two processes restarts in turn.
    await answers(300);
    const [first, second] = serving();
    if (!first || !second) throw new Error(`two workers expected: ${serving()}`);
    await replaced(first);
    await answers(300);
    await replaced(second);
    await answers(300);
    load.stop();
    const result = await finished;
    await Promise.all(streams.map((stream) => stream.ended));

    expect(result.requests.total).toBeGreaterThanOrEqual(900);
    expect({
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
    }).toEqual({ errors: 0, timeouts: 0, non2xx: 0 });
    expect(serving()).not.toContain(first);
    expect(serving()).not.toContain(second);
  });
});

/** Serves the test's database from a primary and two server processes on a free port. */
async function startWorkers(postgresUrl: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: {
      ...process.env,
      WORKERS: "2",
      PORT: String(port),
      DATABASE_URL: withDatabase(postgresUrl, await databaseName(t.database)),
      APP_ORIGIN: TEST_ORIGIN,
      // Writes under load come from addresses of their own, as on a busy site behind a proxy.
      TRUST_PROXY: "127.0.0.1",
      NODE_ENV: "test",
      SEED: "none",
      LOG_LEVEL: "silent",
      APP_SECRET: TEST_SECRET,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  child.stdout?.on("data", (chunk) => {
    printed += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    printed += chunk;
  });
  const stop = async () => {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
  };
  try {
    await started(child);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, stop, child, output: () => printed };
}

/** POSTs JSON as a same-origin write on a connection of its own; resolves to the status. */
function postAlone(url: string, body: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: "POST",
      agent: false,
      headers: jsonHeaders(),
    });
    request.once("error", reject);
    request.once("response", (response) => {
      response.resume();
      response.once("end", () => resolve(response.statusCode ?? 0));
    });
    request.end(JSON.stringify(body));
  });
}

/** Resolves once the primary says every server process listens. */
function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`did not start: ${output}`)), 180_000);
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
