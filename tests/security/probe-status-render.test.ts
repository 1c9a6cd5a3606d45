// A page rendered on the server reads the API as its visitor: from the visitor's own address, so
// that one stranger guessing at status links spends their own allowance of the status-link limit,
// not the one every visitor's page is rendered with.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { annotationMessages } from "../../src/contract/annotation-messages.ts";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { buildPrism, buildUser } from "../../src/server/test/builders.ts";
import { asSent, send, setupTestApp, TEST_ORIGIN } from "../../src/server/test/helpers.ts";

const t = setupTestApp();

// A build: the shell, and a stand-in for its server renderer that reads a status page's data
// through the `fetch` it is given, as the built renderer does, and renders nothing (the shell is
// served) when a read fails.
const build = mkdtempSync(join(tmpdir(), "prism-status-render-"));
mkdirSync(join(build, "web"));
mkdirSync(join(build, "server"));
writeFileSync(
  join(build, "web", "index.html"),
  '<!doctype html><html><head><title>Prism</title></head><body><div id="root"></div></body></html>',
);
writeFileSync(
  join(build, "server", "server-render.js"),
  `export async function renderPage(url, { fetch }) {
    const token = /^\\/responses\\/([^/?]+)/.exec(url)?.[1];
    if (!token) return null;
    const answer = await fetch("/api/responses/" + token, {});
    if (!answer.ok) return null;
    const status = await answer.json();
    return { head: "", root: "<p>Status: " + status.status + "</p>", data: "", pages: [] };
  }`,
);

const apps: App[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  rmSync(build, { recursive: true, force: true });
});

/** Another app on the same database that serves the build; `env` adds to its configuration. */
async function renderingApp(env: Record<string, string> = {}) {
  const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test", ...env });
  const app = await buildApp({ config, database: t.database, webRoot: join(build, "web") });
  await app.ready();
  apps.push(app);
  return app;
}

let statusPath: string;

beforeAll(async () => {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, {
    userId: owner.id,
    content: "<p>Mornings are for writing.</p>",
  });
  const headers = { cookie: "vid=status-render-visitor-0001" };
  const created = await send(t.app, "POST", "/api/annotations", {
    headers,
    payload: await asSent(t.app, headers, {
      prismId: prism.id,
      selectedText: "Mornings",
      selectionStart: 0,
      selectionEnd: 8,
      annotationText: "Same here",
    }),
  });
  expect(created.statusCode, created.body).toBe(201);
  statusPath = created.json().statusUrl;
  expect(statusPath).toMatch(/^\/responses\/[\w-]{22}$/);
});

const rendered = (html: string) => html.includes("<p>Status: pending</p>");
const GUESS = "/api/responses/AAAAAAAAAAAAAAAAAAAAAA";

describe("a status page rendered on the server", () => {
  it("spends the status-link limit of its visitor's address, not one shared by every visitor", async () => {
    const app = await renderingApp();
    const load = (remoteAddress: string) => send(app, "GET", statusPath, { remoteAddress });
    // A link that leads to a response gives its point back: its page may be loaded again and again.
    for (let i = 0; i < 70; i++) {
      const page = await load("10.60.0.1");
      expect(page.statusCode).toBe(200);
      expect(rendered(page.body), `load ${i + 1}`).toBe(true);
    }
    // Guesses spend the address's allowance; past it, even the real link's page comes as the
    // shell (the browser's own read then gets the 429).
    for (let i = 0; i < 60; i++) {
      expect((await send(app, "GET", GUESS, { remoteAddress: "10.60.0.1" })).statusCode).toBe(404);
    }
    expect(rendered((await load("10.60.0.1")).body)).toBe(false);
    const limited = await send(app, "GET", `/api${statusPath}`, { remoteAddress: "10.60.0.1" });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: annotationMessages.statusTooMany });

    const other = await load("10.60.0.2");
    expect(other.statusCode).toBe(200);
    expect(rendered(other.body)).toBe(true);
  });

  it("counts the client behind a trusted proxy by its forwarded address", async () => {
    const app = await renderingApp({ TRUST_PROXY: "127.0.0.1" });
    const behindProxy = (client: string) => ({
      headers: { "x-forwarded-for": client },
      remoteAddress: "127.0.0.1",
    });
    const load = (client: string) => send(app, "GET", statusPath, behindProxy(client));
    for (let i = 0; i < 60; i++) {
      expect((await send(app, "GET", GUESS, behindProxy("198.51.100.7"))).statusCode).toBe(404);
    }
    expect(rendered((await load("198.51.100.7")).body)).toBe(false);
    expect(rendered((await load("198.51.100.8")).body)).toBe(true);
  });
});
