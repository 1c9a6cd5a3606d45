// The headers that keep one visitor's pages and writes their own: the app's content policy on
// every page (the API docs too), one that allows nothing on the API's answers, HSTS only for an https site, pages kept by no shared cache,
// and no write riding on a session cookie without saying where it comes from.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { buildUser } from "../../src/server/test/builders.ts";
import {
  setupTestApp,
  signIn,
  TEST_ORIGIN,
  TEST_SECRET,
  visitorCookie,
} from "../../src/server/test/helpers.ts";

const t = setupTestApp();

const webRoot = mkdtempSync(join(tmpdir(), "prism-headers-"));
writeFileSync(
  join(webRoot, "index.html"),
  '<!doctype html><html><head><title>Prism</title></head><body><div id="root"></div></body></html>',
);
const apps: App[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  rmSync(webRoot, { recursive: true, force: true });
});

/** Another app on the same database, at `origin`, serving a built web app. */
async function appAt(origin: string) {
  const config = loadConfig({
    APP_ORIGIN: origin,
    SEED: "none",
    NODE_ENV: "test",
    APP_SECRET: TEST_SECRET,
  });
  const app = await buildApp({ config, database: t.database, webRoot });
  await app.ready();
  apps.push(app);
  return app;
}

const get = (app: App, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url, headers });

/** The headers only a document needs: an API answer, which is data, goes without them. */
const pageOnly = [
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

describe("API answers", () => {
  it("carry an API's headers, found or not, signed in or not, and a page a page's", async () => {
    const app = await appAt(TEST_ORIGIN);
    const member = await signIn(t.database, await buildUser(t.database));
    for (const [url, headers] of [
      ["/api/health", {}],
      ["/api/prisms/no-such-member", {}],
      ["/api/user", member],
    ] as const) {
      const answer = await get(app, url, headers);
      expect(answer.headers["content-type"], url).toMatch(/^application\/json/);
      expect(answer.headers["content-security-policy"], url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(answer.headers["x-content-type-options"], url).toBe("nosniff");
      expect(answer.headers["x-frame-options"], url).toBe("SAMEORIGIN");
      expect(answer.headers["referrer-policy"], url).toBe("no-referrer");
      expect(answer.headers["cross-origin-resource-policy"], url).toBe("same-origin");
      for (const name of pageOnly) expect(answer.headers[name], `${url} ${name}`).toBeUndefined();
    }
    const page = await get(app, "/explore");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self';");
    for (const name of pageOnly) expect(page.headers[name], name).toBeTruthy();
  });
});

describe("the API docs", () => {
  it("answer under the pages' content security policy", async () => {
    const policy = (await get(await appAt(TEST_ORIGIN), "/explore")).headers[
      "content-security-policy"
    ];
    expect(policy).toContain("script-src 'self';");
    for (const url of [
      "/api/docs",
      "/api/docs/static/index.html",
      "/api/docs/static/swagger-initializer.js",
      "/api/docs/static/swagger-ui-bundle.js",
    ]) {
      const answer = await get(t.app, url);
      expect(answer.statusCode, url).toBeLessThan(400);
      expect(answer.headers["content-security-policy"], url).toBe(policy);
    }
  });

  it("load no script but their own files", async () => {
    const page = (await get(t.app, "/api/docs")).body;
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/\bsrc="[^"]*\/static\/[\w.-]+\.js"/);
      expect(inline?.trim()).toBe("");
    }
  });
});

describe("Strict-Transport-Security", () => {
  it("is not sent by a site served over plain http", async () => {
    const answer = await get(t.app, "/api/health");
    expect(answer.headers["content-security-policy"]).toBeTruthy();
    expect(answer.headers["strict-transport-security"]).toBeUndefined();
  });

  it("is sent by a site served over https", async () => {
    const app = await appAt("https://prism.example");
    const answer = await get(app, "/api/health");
    expect(answer.headers["strict-transport-security"]).toMatch(/^max-age=\d+/);
  });
});

describe("pages", () => {
  it("are kept by no shared cache, for members and visitors alike", async () => {
    const app = await appAt(TEST_ORIGIN);
    const member = await signIn(t.database, await buildUser(t.database));
    for (const headers of [member, { cookie: visitorCookie("headers-visitor-000001") }, {}]) {
      const page = await get(app, "/explore", headers);
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toMatch(/^text\/html/);
      expect(page.headers["cache-control"]).toBe("private, no-cache");
      expect(String(page.headers.vary)).toMatch(/\bcookie\b/i);
    }
  });
});

describe("writes with a session cookie", () => {
  const createPrism = (headers: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/api/prisms",
      headers: { "content-type": "application/json", ...headers },
      payload: { title: "Forged", content: "<p>Not mine.</p>" },
    });

  it("are refused without Origin or a same-origin fetch marker, and change nothing", async () => {
    const member = await buildUser(t.database);
    const session = await signIn(t.database, member);
    const markers: Record<string, string>[] = [
      {},
      { "sec-fetch-site": "none" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const marker of markers) {
      const forged = await createPrism({ ...session, ...marker });
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toEqual({ message: "Cross-site requests are not allowed" });
    }
    const list = await get(t.app, `/api/prisms/${member.username}`);
    expect(list.json()).toEqual([]);

    const fromOwnPage = await createPrism({ ...session, "sec-fetch-site": "same-origin" });
    expect(fromOwnPage.statusCode).toBe(201);
    const withOrigin = await createPrism({ ...session, origin: TEST_ORIGIN });
    expect(withOrigin.statusCode).toBe(201);
  });

  it("leave clients that send no session of ours as they were", async () => {
    const signedOut = await createPrism({});
    expect(signedOut.statusCode).toBe(401);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/login",
      headers: { "content-type": "application/json" },
      payload: { username: "nobody-here", password: "not-the-password" },
    });
    expect(login.statusCode).toBe(401);
  });
});
