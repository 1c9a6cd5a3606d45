import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../app.ts";
import type { Db } from "../../db/client.ts";
import { prisms, users } from "../../db/schema.ts";
import { webPlugin } from "../../plugins/web.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestApp, TEST_ORIGIN } from "../../test/helpers.ts";
import { createPageStatus } from "./service.ts";

const t = setupTestApp();
const webRoot = mkdtempSync(join(tmpdir(), "prism-seo-test-"));
// A build without the server renderer: the shell alone, with the status of each path.
const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
let web: App;

beforeAll(async () => {
  writeFileSync(join(webRoot, "index.html"), indexHtml);
  writeFileSync(join(webRoot, "social-default.png"), "png");
  web = await buildApp({ config: t.config, database: t.database, webRoot });
});
afterAll(async () => {
  await web?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const page = (url: string) => web.inject({ method: "GET", url });
const count = (text: string, part: string) => text.split(part).length - 1;

describe("page status", () => {
  it("answers a member's page, a prism's and another spelling of the username with 200", async () => {
    const ada = await buildUser(t.database, { username: "ada-seo" });
    await buildPrism(t.database, { userId: ada.id, title: "Notes on engines", index: 0 });
    for (const path of ["/ada-seo", "/ada-seo/notes-on-engines", "/ADA-SEO", "/ada-seo/?prism=1"]) {
      const response = await page(path);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers["content-type"], path).toMatch(/text\/html/);
      expect(response.body, path).toBe(indexHtml);
    }
  });

  it("answers an unknown or deactivated member with the app's HTML and 404", async () => {
    const gone = await buildUser(t.database, { username: "gone-seo" });
    await buildPrism(t.database, { userId: gone.id, title: "Old news" });
    await t.database.db
      .update(users)
      .set({ deactivatedAt: new Date() })
      .where(eq(users.id, gone.id));
    for (const path of [
      "/nobody-here",
      "/nobody-here/a-prism",
      "/gone-seo",
      "/a/b/c",
      "/%C3%A9l%C3%A8ve",
    ]) {
      const response = await page(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.headers["content-type"], path).toMatch(/text\/html/);
      expect(response.body, path).toBe(indexHtml);
    }
  });

  it("answers the app's own pages with 200, asking the database nothing", async () => {
    const db = new Proxy({} as Db, {
      get() {
        throw new Error("no query expected");
      },
    });
    const pageStatus = createPageStatus(db);
    for (const path of [
      "/",
      "/explore",
      "/sign-in",
      "/auth/callback",
      "/catalyst",
      "/Catalyst/x",
    ]) {
      await expect(pageStatus(path), path).resolves.toBe(200);
    }
    await expect(pageStatus("/a/b/c")).resolves.toBe(404);
  });

  it("serves the plain shell when a page's status cannot be found", async () => {
    const bare = Fastify();
    await bare.register(webPlugin, {
      root: webRoot,
      sourceMaps: false,
      origin: TEST_ORIGIN,
      pageStatus: async () => {
        throw new Error("database down");
      },
    });
    try {
      const response = await bare.inject({ method: "GET", url: "/someone" });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(indexHtml);
    } finally {
      await bare.close();
    }
  });

  it("leaves files and the API alone", async () => {
    expect((await page("/social-default.png")).body).toBe("png");
    const missing = await page("/missing.js");
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["content-type"]).toMatch(/application\/json/);
    expect((await page("/api/nothing")).headers["content-type"]).toMatch(/application\/json/);
  });
});

describe("robots.txt and sitemap.xml", () => {
  it("lets crawlers in, except for the API and private pages, and points at the sitemap", async () => {
    const response = await t.app.inject({ method: "GET", url: "/robots.txt" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    const lines = response.body.split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Allow: /",
        "Disallow: /api/",
        "Disallow: /catalyst$",
        "Disallow: /catalyst/",
        "Disallow: /profile$",
        "Disallow: /profile/",
        "Disallow: /notifications$",
        "Disallow: /notifications/",
        "Disallow: /review$",
        "Disallow: /review/",
        `Sitemap: ${TEST_ORIGIN}/sitemap.xml`,
      ]),
    );
    expect(response.body).not.toMatch(/^Disallow: \/$/m);
  });

  it("lists the public pages and every active member with a prism", async () => {
    const writer = await buildUser(t.database, { username: "writer-seo" });
    const older = await buildPrism(t.database, { userId: writer.id, title: "One", index: 0 });
    const newer = await buildPrism(t.database, { userId: writer.id, title: "Two", index: 1 });
    const newest = new Date("2030-01-02T03:04:05.000Z");
    await t.database.db.update(prisms).set({ updatedAt: newest }).where(eq(prisms.id, newer.id));
    await t.database.db
      .update(prisms)
      .set({ updatedAt: new Date("2029-01-01T00:00:00.000Z") })
      .where(eq(prisms.id, older.id));
    await buildUser(t.database, { username: "quiet-seo" });
    const leaver = await buildUser(t.database, { username: "leaver-seo" });
    await buildPrism(t.database, { userId: leaver.id });
    await t.database.db
      .update(users)
      .set({ deactivatedAt: new Date() })
      .where(eq(users.id, leaver.id));

    const response = await t.app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/xml/);
    const xml = response.body;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain(`<url><loc>${TEST_ORIGIN}/</loc></url>`);
    expect(xml).toContain(`<url><loc>${TEST_ORIGIN}/explore</loc></url>`);
    expect(xml).toContain(
      `<url><loc>${TEST_ORIGIN}/writer-seo</loc><lastmod>2030-01-02T03:04:05.000Z</lastmod></url>`,
    );
    // Newest first: the writer's prism is from 2030.
    expect(xml.indexOf("/writer-seo")).toBeLessThan(xml.indexOf("/ada-seo"));
    expect(xml).toContain(`<loc>${TEST_ORIGIN}/ada-seo</loc>`);
    expect(xml).not.toContain("/quiet-seo");
    expect(xml).not.toContain("/leaver-seo");
    expect(xml).not.toContain("/gone-seo");
    expect(xml.trim().endsWith("</urlset>")).toBe(true);
    // Each URL once.
    expect(count(xml, `<loc>${TEST_ORIGIN}/writer-seo</loc>`)).toBe(1);
  });
});
