// Serves Prism apps for the component tests from one OS process, started once a run by the web
// project's global setup: `node --import tsx src/server/test/app-host.ts <image>` (the file of a
// migrated PGlite). Each test file asks for an app of its own, with its own settings, on its own
// fresh in-memory database: `POST /apps` with `{ origin, settings }` answers `{ id, port }`, and
// `DELETE /apps/{id}` closes it. The process loads Prism's modules and starts its PGlites once
// (emptied back to the image for the next app) instead of once per file. Prints one JSON line
// `{"port": n}` (the control port) once listening; stops when stdin closes or on SIGTERM.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type App, buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { type Database, openDatabase } from "../db/client.ts";
import { serveUntilStopped } from "./child-server.ts";
import { leasePglite } from "./pglite-pool.ts";

const [image] = process.argv.slice(2);
if (!image) {
  console.error("usage: app-host.ts <image>");
  process.exit(2);
}

const apps = new Map<number, { app: App; database: Database }>();
let nextId = 1;

async function start(body: { origin: string; settings?: Record<string, string> }) {
  const database = openDatabase("pglite:memory", await leasePglite(image as string));
  const config = loadConfig({
    APP_ORIGIN: body.origin,
    SEED: "none",
    NODE_ENV: "test",
    ...body.settings,
  });
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const id = nextId++;
  apps.set(id, { app, database });
  const address = app.server.address();
  return { id, port: typeof address === "object" && address ? address.port : 0 };
}

async function stop(id: number) {
  const entry = apps.get(id);
  if (!entry) return;
  apps.delete(id);
  await entry.app.close();
  await entry.database.close();
}

async function bodyOf(request: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString() || "{}");
}

async function handle(request: IncomingMessage, response: ServerResponse) {
  const remove = /^\/apps\/(\d+)$/.exec(request.url ?? "");
  if (request.method === "POST" && request.url === "/apps") {
    const started = await start(await bodyOf(request));
    response.writeHead(201, { "content-type": "application/json" });
    response.end(JSON.stringify(started));
  } else if (request.method === "DELETE" && remove) {
    await stop(Number(remove[1]));
    response.writeHead(204).end();
  } else {
    response.writeHead(404).end();
  }
}

const control = createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    response.writeHead(500, { "content-type": "text/plain" });
    response.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
  });
});

control.listen(0, "127.0.0.1", () => {
  const address = control.address();
  serveUntilStopped(typeof address === "object" && address ? address.port : 0, async () => {
    control.close();
    await Promise.all([...apps.keys()].map((id) => stop(id).catch(() => {})));
  });
});
