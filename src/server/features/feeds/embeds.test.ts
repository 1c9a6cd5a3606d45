// Embeds of a member's page, a prism and an approved response: the oEmbed answers, the cards
// they frame (no script, framed by any site, while every other page keeps its headers), and
// what they refuse; nothing pending or rejected is ever embedded.
import { describe, expect, it } from "vitest";
import type { Oembed } from "../../../contract/embeds.ts";
import type { PrismRow, UserRow } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestApp, TEST_ORIGIN } from "../../test/helpers.ts";

const t = setupTestApp();

const get = (url: string) => t.app.inject({ method: "GET", url });
const oembed = (url: string, extra = "") =>
  get(`/oembed?url=${encodeURIComponent(url)}&format=json${extra}`);

/** The address, width and height of the frame an oEmbed answer's HTML holds. */
function frameOf(html: string) {
  const match =
    /^<iframe src="([^"]+)" width="(\d+)" height="(\d+)" title="[^"]*"[^>]*><\/iframe>$/.exec(html);
  if (!match) throw new Error(`not one iframe: ${html}`);
  const [, src = "", width = "", height = ""] = match;
  return { src: src.replaceAll("&amp;", "&"), width: Number(width), height: Number(height) };
}

interface Scene {
  ada: UserRow;
  engines: PrismRow;
  second: PrismRow;
  approved: number;
  pending: number;
  rejected: number;
}

let sceneOnce: Promise<Scene> | undefined;
/** A member with two prisms, and responses in each status on the first. */
function scene(): Promise<Scene> {
  sceneOnce ??= (async () => {
    const ada = await buildUser(t.database, {
      username: "ada-embeds",
      firstName: "Ada",
      lastName: "Lovelace",
    });
    const engines = await buildPrism(t.database, {
      userId: ada.id,
      index: 0,
      title: "Notes on engines",
      content: "<p>Mornings are for deep work &amp; <strong>long</strong> walks.</p>",
    });
    const second = await buildPrism(t.database, { userId: ada.id, index: 1, title: "Second" });
    const respond = (status: "approved" | "pending" | "rejected", annotationText: string) =>
      buildAnnotation(t.database, {
        prismId: engines.id,
        status,
        annotationText,
        annotatorName: "Grace",
        ...(status === "approved" ? { replyText: "Thank you, Grace." } : {}),
      });
    const approved = (await respond("approved", "Mine are too <b>early</b>.")).id;
    const pending = (await respond("pending", "Still waiting for a decision")).id;
    const rejected = (await respond("rejected", "Turned down by the owner")).id;
    return { ada, engines, second, approved, pending, rejected };
  })();
  return sceneOnce;
}

describe("oEmbed", () => {
  it("answers a rich embed for a member's page, a prism's links and an approved response", async () => {
    const s = await scene();
    const page = `${TEST_ORIGIN}/ada-embeds`;
    const cases: [string, string, string][] = [
      [page, "Ada Lovelace (@ada-embeds) on Prism", "/embed/ada-embeds"],
      [`${TEST_ORIGIN}/ADA-EMBEDS/`, "Ada Lovelace (@ada-embeds) on Prism", "/embed/ada-embeds"],
      [`${page}?prism=${s.second.id}`, "Second", `/embed/ada-embeds/${s.second.id}`],
      [`${page}/notes-on-engines`, "Notes on engines", `/embed/ada-embeds/${s.engines.id}`],
      [
        `${page}?annotation=${s.approved}`,
        'A response to "Notes on engines"',
        `/embed/ada-embeds/${s.engines.id}/${s.approved}`,
      ],
    ];
    for (const [url, title, embed] of cases) {
      const answer = await oembed(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers["content-type"], url).toMatch(/^application\/json/);
      const body = answer.json() as Oembed;
      expect(body, url).toEqual({
        type: "rich",
        version: "1.0",
        title,
        author_name: "Ada Lovelace",
        author_url: page,
        provider_name: "Prism",
        provider_url: `${TEST_ORIGIN}/`,
        html: expect.any(String),
        width: expect.any(Number),
        height: expect.any(Number),
      });
      const frame = frameOf(body.html);
      expect(frame.src, url).toBe(`${TEST_ORIGIN}${embed}`);
      expect([frame.width, frame.height], url).toEqual([body.width, body.height]);
      // The card it frames is there, for anyone.
      expect((await get(embed)).statusCode, url).toBe(200);
    }
  });

  it("keeps its frame within the consumer's maxwidth and maxheight", async () => {
    const s = await scene();
    const url = `${TEST_ORIGIN}/ada-embeds?prism=${s.engines.id}`;
    const free = (await oembed(url)).json() as Oembed;
    const bounded = (await oembed(url, "&maxwidth=320&maxheight=200")).json() as Oembed;
    expect(bounded.width).toBe(320);
    expect(bounded.height).toBe(200);
    expect(frameOf(bounded.html)).toMatchObject({ width: 320, height: 200 });
    const roomy = (await oembed(url, `&maxwidth=${free.width + 500}`)).json() as Oembed;
    expect([roomy.width, roomy.height]).toEqual([free.width, free.height]);
    expect(free.width).toBeGreaterThan(320);
    expect(free.height).toBeGreaterThan(200);
  });

  it("answers 404 for what is no embeddable page, and never for a response not approved", async () => {
    const s = await scene();
    const gone = await buildUser(t.database, { deactivatedAt: new Date() });
    const other = await buildUser(t.database);
    const othersPrism = await buildPrism(t.database, { userId: other.id });
    const page = `${TEST_ORIGIN}/ada-embeds`;
    for (const url of [
      `${page}?annotation=${s.pending}`,
      `${page}?annotation=${s.rejected}`,
      `${page}?annotation=99999999`,
      `${page}?annotation=abc`,
      `${TEST_ORIGIN}/${other.username}?annotation=${s.approved}`,
      `${page}?prism=${othersPrism.id}`,
      `${page}?prism=0`,
      `${page}/no-such-prism`,
      `${TEST_ORIGIN}/nobody-embeds`,
      `${TEST_ORIGIN}/${gone.username}`,
      `${TEST_ORIGIN}/`,
      `${TEST_ORIGIN}/explore`,
      `${TEST_ORIGIN}/a/b/c`,
      `${TEST_ORIGIN}/%E0%A4%A`,
    ]) {
      const answer = await oembed(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toEqual({ message: expect.any(String) });
    }
    for (const path of [
      `/embed/ada-embeds/${s.engines.id}/${s.pending}`,
      `/embed/ada-embeds/${s.engines.id}/${s.rejected}`,
      `/embed/ada-embeds/${s.second.id}/${s.approved}`,
      `/embed/ada-embeds/${othersPrism.id}`,
      `/embed/${gone.username}`,
      "/embed/nobody-embeds",
    ]) {
      expect((await get(path)).statusCode, path).toBe(404);
    }
  });

  it("answers 400 for an address of another site, and 501 for XML", async () => {
    for (const url of [
      "https://elsewhere.example/ada-embeds",
      "http://localhost:3001/ada-embeds",
      "https://localhost:3000/ada-embeds",
      "ada-embeds",
      "javascript:alert(1)",
    ]) {
      const answer = await oembed(url);
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json(), url).toEqual({ message: "The address is not a page of this site" });
    }
    const xml = await get(
      `/oembed?url=${encodeURIComponent(`${TEST_ORIGIN}/ada-embeds`)}&format=xml`,
    );
    expect(xml.statusCode).toBe(501);
    expect(xml.json()).toEqual({ message: "Only the JSON format is supported" });
    expect((await get("/oembed")).statusCode).toBe(400);
  });
});

describe("embed cards", () => {
  it("show the prism, its author and a link to it, with no script", async () => {
    const s = await scene();
    const card = await get(`/embed/ada-embeds/${s.engines.id}`);
    expect(card.statusCode).toBe(200);
    expect(card.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(card.body).toContain("Notes on engines");
    expect(card.body).toContain("Mornings are for deep work &amp; long walks.");
    expect(card.body).toContain("by Ada Lovelace (@ada-embeds)");
    expect(card.body).toContain(`href="${TEST_ORIGIN}/ada-embeds?prism=${s.engines.id}"`);
    expect(card.body).not.toMatch(/<script|\bon[a-z]+=/i);
  });

  it("show an approved response with its passage and the owner's reply", async () => {
    const s = await scene();
    const card = await get(`/embed/ada-embeds/${s.engines.id}/${s.approved}`);
    expect(card.statusCode).toBe(200);
    expect(card.body).toContain("<blockquote>Mornings</blockquote>");
    expect(card.body).toContain("Grace (visitor) responded:");
    expect(card.body).toContain("Mine are too &lt;b&gt;early&lt;/b&gt;.");
    expect(card.body).toContain("Thank you, Grace.");
    expect(card.body).toContain(`href="${TEST_ORIGIN}/ada-embeds?annotation=${s.approved}"`);
    expect(card.body).not.toContain("Still waiting for a decision");
    expect(card.body).not.toContain("Turned down by the owner");
    expect(card.body).not.toMatch(/<script/i);
  });

  it("show a member's page with its prisms, or the spec's words when it has none", async () => {
    const s = await scene();
    const card = (await get("/embed/ada-embeds")).body;
    expect(card).toContain("Ada Lovelace");
    expect(card).toContain(`href="${TEST_ORIGIN}/ada-embeds?prism=${s.second.id}"`);
    for (const text of ["Mine are too", "Still waiting", "Turned down"]) {
      expect(card).not.toContain(text);
    }
    await buildUser(t.database, { username: "empty-embeds", displayName: "Bo" });
    expect((await get("/embed/empty-embeds")).body).toContain(
      "Bo hasn't added any prisms yet, but just you wait.",
    );
  });

  it("may be framed by any site, while every other page keeps its own headers", async () => {
    const s = await scene();
    const feed = await get("/ada-embeds/feed.atom");
    const policy = String(feed.headers["content-security-policy"]);
    expect(policy).toContain("frame-ancestors 'none'");
    for (const path of [
      "/embed/ada-embeds",
      `/embed/ada-embeds/${s.engines.id}`,
      `/embed/ada-embeds/${s.engines.id}/${s.approved}`,
    ]) {
      const card = await get(path);
      expect(card.headers["content-security-policy"], path).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *",
      );
      expect(card.headers["x-frame-options"], path).toBeUndefined();
      expect(card.headers["cross-origin-resource-policy"], path).toBe("cross-origin");
      // An unchanged card is confirmed from memory, with the same headers.
      const again = await t.app.inject({
        method: "GET",
        url: path,
        headers: { "if-none-match": String(card.headers.etag) },
      });
      expect(again.statusCode, path).toBe(304);
      expect(again.headers["content-security-policy"], path).toBe(
        card.headers["content-security-policy"],
      );
    }
    for (const path of [
      "/api/health",
      `/oembed?url=${encodeURIComponent(`${TEST_ORIGIN}/ada-embeds`)}`,
    ]) {
      const answer = await get(path);
      expect(answer.headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
      expect(answer.headers["x-frame-options"], path).toBe(feed.headers["x-frame-options"]);
      expect(answer.headers["cross-origin-resource-policy"], path).toBe(
        feed.headers["cross-origin-resource-policy"],
      );
    }
  });
});
