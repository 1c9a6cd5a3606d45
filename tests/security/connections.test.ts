// What one client can do to the server with connections alone: send a request so slowly that it
// is never done, or open so many sockets that nobody else gets one. Real listening servers, raw
// sockets; the time bounds are made small here and the defaults checked as they are.
import { once } from "node:events";
import type { Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { ConnectionLimits } from "../../src/server/plugins/connections.ts";
import { setupTestApp, TEST_ORIGIN } from "../../src/server/test/helpers.ts";

const t = setupTestApp();

const apps: App[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  for (const app of apps) await app.close();
});

/** A Prism listening on loopback with these connection limits; its origin's port. */
async function serve(connections: ConnectionLimits, env: Record<string, string> = {}) {
  const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test", ...env });
  const app = await buildApp({ config, database: t.database, connections });
  apps.push(app);
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  return { origin, port: Number(new URL(origin).port) };
}

/** A raw connection from loopback; what the server sent, and a promise of its closing. */
async function rawSocket(port: number) {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  socket.setEncoding("utf8");
  socket.on("error", () => {});
  let received = "";
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  // Not events.once: it would reject on the reset a cut-off client may see.
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await once(socket, "connect");
  return { socket, received: () => received, closed };
}

/** Asks for /api/health on the connection: the start of the answer, or "" when it closes first. */
async function health(connection: Awaited<ReturnType<typeof rawSocket>>): Promise<string> {
  if (!connection.socket.destroyed) {
    connection.socket.write("GET /api/health HTTP/1.1\r\nhost: prism\r\n\r\n");
  }
  return Promise.race([
    connection.closed.then(() => ""),
    new Promise<string>((resolve) =>
      connection.socket.once("data", (chunk) => resolve(String(chunk))),
    ),
  ]);
}

/**
 * What a cut-off client reads: a 408, unless the bytes it kept sending made the server's close a
 * reset, which may drop the answer on the way.
 */
const CUT_OFF = /^(HTTP\/1\.1 408 [\s\S]*)?$/;

/** Sends a byte every few milliseconds until the socket closes. */
function trickle(socket: Socket, text: string) {
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(text);
  }, 20);
  socket.once("close", () => clearInterval(timer));
}

describe("time to receive a request", () => {
  it("is bounded by default: headers and body within a minute, checks included", () => {
    // Node keeps the option it was given; its types do not declare it on the server.
    const server = t.app.server as Server & { connectionsCheckingInterval: number };
    expect(server.requestTimeout).toBeGreaterThan(0);
    expect(server.headersTimeout).toBeLessThanOrEqual(server.requestTimeout);
    expect(server.requestTimeout + server.connectionsCheckingInterval).toBeLessThanOrEqual(60_000);
  });

  it("cuts off a body that trickles in, and answers another client meanwhile", async () => {
    const { origin, port } = await serve({ requestMs: 400, headersMs: 200, checkEveryMs: 50 });
    const slow = await rawSocket(port);
    slow.socket.write(
      "POST /api/contact HTTP/1.1\r\nhost: prism\r\ncontent-type: application/json\r\n" +
        `origin: ${TEST_ORIGIN}\r\ncontent-length: 100000\r\n\r\n{"name":"`,
    );
    trickle(slow.socket, "a");
    const other = await fetch(`${origin}/api/health`);
    expect(other.status).toBe(200);
    await slow.closed;
    expect(slow.received()).toMatch(CUT_OFF);
  });

  it("cuts off headers that trickle in", async () => {
    const { port } = await serve({ requestMs: 400, headersMs: 200, checkEveryMs: 50 });
    const slow = await rawSocket(port);
    slow.socket.write("GET /api/health HTTP/1.1\r\nhost: prism\r\n");
    trickle(slow.socket, "x-slow: 1\r\n");
    await slow.closed;
    expect(slow.received()).toMatch(CUT_OFF);
  });
});

describe("connections per address", () => {
  it("closes one beyond the cap at once, while the open ones are still answered", async () => {
    const { port } = await serve({ perAddress: 4 });
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await rawSocket(port));
    const extra = await rawSocket(port);
    await extra.closed;
    expect(extra.received()).toBe("");

    expect(await health(held[0] as Awaited<ReturnType<typeof rawSocket>>)).toMatch(
      /^HTTP\/1\.1 200 /,
    );
    // A place comes free when one closes.
    held[1]?.socket.destroy();
    let answer = "";
    for (let attempt = 0; attempt < 200 && answer === ""; attempt++) {
      answer = await health(await rawSocket(port));
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("does not cap the trusted proxy's connections, which carry many clients", async () => {
    const { port } = await serve({ perAddress: 2 }, { TRUST_PROXY: "127.0.0.1" });
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await rawSocket(port));
    for (const connection of held) expect(await health(connection)).toMatch(/^HTTP\/1\.1 200 /);
  });
});
