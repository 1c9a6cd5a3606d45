// A member's page as an unfurling library reads it (unfurl.js, which Prism did not write): from
// the app listening on a port, its page rendered on the server as a visitor gets it, the library
// finds the oEmbed answer in the page's head (the page's, a linked prism's or a linked response's)
// and reads it; the head points feed readers to the member's feeds too.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unfurl } from "unfurl.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import type { PrismRow } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestDatabase, TEST_SECRET } from "../../test/helpers.ts";
import { freePort } from "../../test/ports.ts";

const t = setupTestDatabase();
const build = mkdtempSync(join(tmpdir(), "prism-unfurl-"));
const source = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
let web: App;
let origin = "";
let prisms: PrismRow[];

beforeAll(async () => {
  // A build's layout: the web app's index.html, and the server renderer beside it.
  mkdirSync(join(build, "web"));
  mkdirSync(join(build, "server"));
  copyFileSync(source("web/index.html"), join(build, "web/index.html"));
  const renderer = source("web/app/server-render.tsx");
  writeFileSync(
    join(build, "server/server-render.js"),
    `export * from ${JSON.stringify(renderer)};\n`,
  );
  await import(renderer);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    APP_ORIGIN: origin,
    SEED: "none",
    NODE_ENV: "test",
    APP_SECRET: TEST_SECRET,
  });
  web = await buildApp({ config, database: t.database, webRoot: join(build, "web") });
  await web.listen({ port, host: "127.0.0.1" });
  const ada = await buildUser(t.database, {
    username: "ada-unfurl",
    firstName: "Ada",
    lastName: "Lovelace",
  });
  prisms = [
    await buildPrism(t.database, { userId: ada.id, index: 0, title: "Notes on engines" }),
    await buildPrism(t.database, { userId: ada.id, index: 1, title: "Second thoughts" }),
  ];
}, 120_000);
afterAll(async () => {
  await web?.close();
  rmSync(build, { recursive: true, force: true });
});

describe("a member's page, unfurled", () => {
  it("leads unfurl.js to its oEmbed answer, a rich embed of the page", async () => {
    const page = `${origin}/ada-unfurl`;
    const { oEmbed } = await unfurl(page, { oembed: true, timeout: 30_000 });
    expect(oEmbed).toMatchObject({
      type: "rich",
      version: "1.0",
      title: "Ada Lovelace (@ada-unfurl) on Prism",
      author_name: "Ada Lovelace",
      author_url: page,
      provider_name: "Prism",
      provider_url: `${origin}/`,
      width: 560,
    });
    expect(oEmbed?.type === "rich" && oEmbed.html).toMatch(
      new RegExp(`^<iframe src="${origin}/embed/ada-unfurl" `),
    );
  });

  it("leads it to the prism's own embed from a prism's deep link", async () => {
    const [, second] = prisms as [PrismRow, PrismRow];
    const { oEmbed } = await unfurl(`${origin}/ada-unfurl?prism=${second.id}`, {
      oembed: true,
      timeout: 30_000,
    });
    expect(oEmbed?.title).toBe("Second thoughts");
    expect(oEmbed?.type === "rich" && oEmbed.html).toContain(
      `src="${origin}/embed/ada-unfurl/${second.id}"`,
    );
  });

  it("leads it to an approved response's card from the response's link", async () => {
    const [first] = prisms as [PrismRow, PrismRow];
    const response = await buildAnnotation(t.database, {
      prismId: first.id,
      status: "approved",
      annotationText: "Mine are too.",
    });
    const { oEmbed } = await unfurl(`${origin}/ada-unfurl?annotation=${response.id}`, {
      oembed: true,
      timeout: 30_000,
    });
    expect(oEmbed?.title).toBe('A response to "Notes on engines"');
    expect(oEmbed?.type === "rich" && oEmbed.html).toContain(
      `src="${origin}/embed/ada-unfurl/${first.id}/${response.id}"`,
    );
  });

  it("points feed readers to the member's Atom feed and JSON Feed", async () => {
    const html = await (await fetch(`${origin}/ada-unfurl`)).text();
    const head = html.slice(0, html.indexOf("</head>"));
    const alternates = [...head.matchAll(/<link\b[^>]*\brel="alternate"[^>]*>/g)].map(([tag]) => ({
      type: /\btype="([^"]+)"/.exec(tag)?.[1],
      href: /\bhref="([^"]+)"/.exec(tag)?.[1]?.replaceAll("&amp;", "&"),
    }));
    expect(alternates).toEqual([
      { type: "application/atom+xml", href: `${origin}/ada-unfurl/feed.atom` },
      { type: "application/feed+json", href: `${origin}/ada-unfurl/feed.json` },
      {
        type: "application/json+oembed",
        href: `${origin}/oembed?url=${encodeURIComponent(`${origin}/ada-unfurl`)}&format=json`,
      },
    ]);
    for (const { href } of alternates.slice(0, 2)) {
      expect((await fetch(String(href))).status, href).toBe(200);
    }
  });
});
