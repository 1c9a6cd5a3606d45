import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { restoreEmbedded } from "./db/embedded.ts";
import { freePort } from "./test/ports.ts";
import { PGLITE_IMAGE } from "./test/provided.ts";

// The real process entry, as `npm start` runs it, on an embedded database in a scratch folder: the
// run's migrated one, as `npm start` finds it after its first start.
const scratch = mkdtempSync(join(tmpdir(), "prism-main-"));
const dataDir = join(scratch, "pglite");
beforeAll(() => restoreEmbedded(inject(PGLITE_IMAGE), dataDir));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function start(port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `pglite:${dataDir}`,
      SEED: "none",
      LOG_LEVEL: "silent",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Prism is running")) resolve();
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    child.on("exit", (code) => reject(new Error(`exited early (${code}): ${output}`)));
  });
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

/** Sends a request in two halves over a raw socket; resolves to the raw response. */
function splitRequest(port: number, head: string, body: string) {
  const socket = connect(port, "127.0.0.1");
  let response = "";
  socket.on("data", (chunk) => {
    response += chunk;
  });
  const done = new Promise<string>((resolve) => socket.on("close", () => resolve(response)));
  const sentFirstHalf = new Promise<void>((resolve) =>
    socket.on("connect", () => socket.write(head + body.slice(0, 10), () => resolve())),
  );
  return { sentFirstHalf, finish: () => socket.write(body.slice(10)), done };
}

describe("the Prism process", () => {
  // Two real process starts (TypeScript loading, PGlite and its migrations) take a while on a busy machine.
  it("finishes an in-flight request and ends open streams on SIGTERM, then keeps its data", {
    timeout: 90_000,
  }, async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const first = await start(port);
    const exit = exited(first);

    const stream = await fetch(`${origin}/api/events`);
    expect(stream.status).toBe(200);
    const body = JSON.stringify({
      username: "lasting",
      email: "lasting@example.com",
      firstName: "Last",
      lastName: "Ing",
      password: "still-here",
    });
    const request = splitRequest(
      port,
      `POST /api/register HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      body,
    );
    await request.sentFirstHalf;
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 100));
    request.finish();

    expect(await request.done).toMatch(/^HTTP\/1\.1 201 /);
    await expect(stream.text()).resolves.toContain(": connected");
    // Exit code 0: a clean close, not the safety net that forces an exit (code 1).
    expect(await exit).toBe(0);

    const second = await start(port);
    try {
      const login = await fetch(`${origin}/api/login`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ username: "lasting", password: "still-here" }),
      });
      expect(login.status).toBe(200);
    } finally {
      second.kill("SIGTERM");
      await exited(second);
    }
  });

  it("serves its metrics on METRICS_PORT, and with METRICS_TOKEN on its own port", {
    timeout: 90_000,
  }, async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const token = "metrics-token-for-the-process-test-1";
    const child = await start(port, { METRICS_PORT: String(metricsPort), METRICS_TOKEN: token });
    try {
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      const scrapes = [
        await fetch(`http://127.0.0.1:${metricsPort}/metrics`),
        await fetch(`http://127.0.0.1:${port}/metrics`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      ];
      for (const scrape of scrapes) {
        expect(scrape.status).toBe(200);
        const text = await scrape.text();
        expect(text).toMatch(/^prism_db_pool_size 1$/m);
        expect(text).toMatch(
          /^prism_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} 1$/m,
        );
      }
    } finally {
      child.kill("SIGTERM");
      await exited(child);
    }
  });

  it("says in one line that its port is in use, naming PORT, and stops", {
    timeout: 90_000,
  }, async () => {
    const port = await freePort();
    const taken = createServer().listen(port, "127.0.0.1");
    await once(taken, "listening");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: `pglite:${dataDir}`,
          SEED: "none",
          LOG_LEVEL: "silent",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr?.on("data", (chunk) => {
        stderr += chunk;
      });
      expect(await exited(child)).toBe(1);
      expect(stderr.trim()).toBe(
        `Port ${port} is in use: stop what listens there, or choose another port with PORT (e.g. PORT=${port + 1} npm start)`,
      );
    } finally {
      taken.close();
    }
  });

  it("refuses an invalid setting with one line naming the variable", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      env: { ...process.env, PORT: "not-a-port" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    expect(await exited(child)).toBe(1);
    expect(stderr.trim()).toMatch(/^Invalid PORT: /);
  });
});
