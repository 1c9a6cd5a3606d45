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
import { createRenderHead } from "./service.ts";

const t = setupTestApp();
const webRoot = mkdtempSync(join(tmpdir(), "prism-seo-test-"));
// The head tags of src/web/index.html, which the server rewrites.
const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="robots" content="index, follow" />
    <title>Prism</title>
    <meta name="description" content="Prism is where people say who they are and how they work, and are answered thoughtfully." />
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const defaultTitle = "<title>Prism: say who you are and how you work</title>";
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

describe("profile page metadata", () => {
  it("writes title, description, canonical, Open Graph and Twitter tags into the HTML", async () => {
    const ada = await buildUser(t.database, {
      username: "ada-seo",
      firstName: "Ada",
      lastName: "Lovelace",
    });
    await buildPrism(t.database, { userId: ada.id, title: "Notes on engines", index: 0 });
    await buildPrism(t.database, { userId: ada.id, title: "Second thoughts", index: 1 });

    const response = await page("/ada-seo");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/text\/html/);
    const html = response.body;
    const description = "Get to know Ada: &quot;Notes on engines&quot; and more on Prism.";
    expect(html).toContain("<title>Ada Lovelace (@ada-seo) | Prism</title>");
    expect(html).toContain(`<meta name="description" content="${description}" />`);
    expect(html).toContain('<meta name="robots" content="index, follow" />');
    expect(html).toContain(`<link rel="canonical" href="${TEST_ORIGIN}/ada-seo" />`);
    expect(html).toContain('<meta property="og:title" content="Get to know Ada, really" />');
    expect(html).toContain(`<meta property="og:description" content="${description}" />`);
    expect(html).toContain('<meta property="og:type" content="profile" />');
    expect(html).toContain(`<meta property="og:url" content="${TEST_ORIGIN}/ada-seo" />`);
    expect(html).toContain('<meta property="og:site_name" content="Prism" />');
    expect(html).toContain(
      `<meta property="og:image" content="${TEST_ORIGIN}/social-default.png" />`,
    );
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toContain('<meta name="twitter:title" content="Get to know Ada, really" />');
    expect(html).toContain(`<meta name="twitter:description" content="${description}" />`);
    expect(html).toContain(
      `<meta name="twitter:image" content="${TEST_ORIGIN}/social-default.png" />`,
    );
    // Replaced, not added: one of each, and everything inside the head.
    expect(count(html, "<title>")).toBe(1);
    expect(count(html, 'name="description"')).toBe(1);
    expect(count(html, 'name="robots"')).toBe(1);
    expect(html.indexOf('property="og:title"')).toBeLessThan(html.indexOf("</head>"));
    expect(html).toContain('<div id="root"></div>');
  });

  it("serves the same head for a prism's slug and for another spelling of the username", async () => {
    for (const path of ["/ada-seo/notes-on-engines", "/ADA-SEO", "/ada-seo/?prism=1"]) {
      const response = await page(path);
      expect(response.statusCode, path).toBe(200);
      expect(response.body, path).toContain(
        `<link rel="canonical" href="${TEST_ORIGIN}/ada-seo" />`,
      );
      expect(response.body, path).toContain("<title>Ada Lovelace (@ada-seo) | Prism</title>");
    }
  });

  it("falls back to the display name, then the username, and reads well with few prisms", async () => {
    const grace = await buildUser(t.database, {
      username: "grace-seo",
      firstName: "",
      lastName: "",
      displayName: "Amazing Grace",
    });
    await buildPrism(t.database, { userId: grace.id, title: "Debugging", index: 0 });
    let html = (await page("/grace-seo")).body;
    expect(html).toContain("<title>Amazing Grace (@grace-seo) | Prism</title>");
    expect(html).toContain(
      '<meta name="description" content="Get to know Amazing Grace: &quot;Debugging&quot; on Prism." />',
    );
    expect(html).toContain(
      '<meta property="og:title" content="Get to know Amazing Grace, really" />',
    );

    await buildUser(t.database, { username: "bare-seo", firstName: "Bo", lastName: "" });
    html = (await page("/bare-seo")).body;
    expect(html).toContain("<title>bare-seo (@bare-seo) | Prism</title>");
    expect(html).toContain('<meta name="description" content="bare-seo is on Prism." />');
    expect(html).toContain('<meta property="og:title" content="Get to know Bo, really" />');
  });

  it("uses the member's own picture when there is one", async () => {
    await buildUser(t.database, {
      username: "pictured-seo",
      profileImageUrl: "https://images.example/me.jpg?s=96&x=1",
    });
    const html = (await page("/pictured-seo")).body;
    expect(html).toContain(
      '<meta property="og:image" content="https://images.example/me.jpg?s=96&amp;x=1" />',
    );
    expect(html).not.toContain("og:image:width");
  });

  it("escapes names and titles, whatever they contain", async () => {
    const hostile = await buildUser(t.database, {
      username: "hostile-seo",
      firstName: '"><script>alert(1)</script>',
      lastName: "$& $' O'Neil",
      displayName: null,
    });
    await buildPrism(t.database, {
      userId: hostile.id,
      title: '</title><script>alert("t")</script> & more',
      index: 0,
    });
    const response = await page("/hostile-seo");
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("</title><script>");
    expect(html).toContain(
      "<title>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; $&amp; $&#39; O&#39;Neil (@hostile-seo) | Prism</title>",
    );
    expect(html).toContain(
      '<meta property="og:title" content="Get to know &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;, really" />',
    );
    expect(html).toContain(
      "&quot;&lt;/title&gt;&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; &amp; more&quot; on Prism.",
    );
    expect(count(html, "<title>")).toBe(1);
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
      expect(response.body, path).toContain('<div id="root"></div>');
      expect(response.body, path).toContain(defaultTitle);
      expect(response.body, path).toContain('<meta name="robots" content="noindex, follow" />');
      expect(response.body, path).not.toContain('rel="canonical"');
    }
  });
});

describe("the app's other pages", () => {
  it("gives the landing page and explore the default head", async () => {
    for (const [path, canonical] of [
      ["/", `${TEST_ORIGIN}/`],
      ["/explore", `${TEST_ORIGIN}/explore`],
      ["/explore/?tab=people", `${TEST_ORIGIN}/explore`],
    ] as const) {
      const response = await page(path);
      expect(response.statusCode, path).toBe(200);
      const html = response.body;
      expect(html, path).toContain(defaultTitle);
      expect(html, path).toContain(
        '<meta name="description" content="Prism is where people say who they are and how they work, and are answered thoughtfully." />',
      );
      expect(html, path).toContain('<meta name="robots" content="index, follow" />');
      expect(html, path).toContain(`<link rel="canonical" href="${canonical}" />`);
      expect(html, path).toContain('<meta property="og:type" content="website" />');
      expect(html, path).toContain(
        '<meta property="og:title" content="Prism: say who you are and how you work" />',
      );
      expect(html, path).toContain('<meta name="twitter:card" content="summary_large_image" />');
    }
  });

  it("keeps the admin dashboard out of search engines", async () => {
    for (const path of ["/catalyst", "/Catalyst/users"]) {
      const response = await page(path);
      expect(response.statusCode, path).toBe(200);
      expect(response.body, path).toContain('<meta name="robots" content="noindex, nofollow" />');
    }
  });

  it("asks the database nothing for the app's own routes", async () => {
    const db = new Proxy({} as Db, {
      get() {
        throw new Error("no query expected");
      },
    });
    const renderHead = createRenderHead({ db, config: t.config });
    for (const path of ["/", "/explore", "/sign-in", "/auth/callback", "/catalyst", "/a/b/c"]) {
      await expect(renderHead(path), path).resolves.toMatchObject({
        head: { title: "Prism: say who you are and how you work" },
      });
    }
  });

  it("serves the plain shell when a page's head cannot be built", async () => {
    const bare = Fastify();
    await bare.register(webPlugin, {
      root: webRoot,
      sourceMaps: false,
      renderHead: async () => {
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
