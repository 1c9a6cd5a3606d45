// A member's feeds as a feed reader takes them: fetched from the app, and parsed by Debian's
// feedparser (python3-feedparser), a parser Prism did not write. Both hold the member's prisms,
// newest first, with their deep links, dates, content and author; and nothing of any response.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn, TEST_ORIGIN } from "../../test/helpers.ts";

const t = setupTestApp();

interface ParsedEntry {
  title: string;
  link: string;
  id: string;
  summary: string;
  content: string[];
  author: string;
  published: number;
  updated: number;
}
interface Parsed {
  bozo: boolean;
  version: string;
  title: string;
  link: string;
  entries: ParsedEntry[];
}

/**
 * The feed read by Python: Atom by feedparser; JSON Feed, which Debian's feedparser (6.0) does not
 * read yet, by Python's JSON module, field by field as JSON Feed 1.1 names them, its dates by
 * feedparser's own date parser. Dates as seconds since the epoch; Atom's titles and summaries are
 * HTML, given as the text a reader shows.
 */
const FEEDPARSER = `
import calendar, feedparser, html, json, sys
from feedparser.datetimes import _parse_date
text = sys.stdin.read()
seconds = lambda t: calendar.timegm(t) if t else None
if text.startswith("{"):
  f = json.loads(text)
  out = {
    "bozo": False, "version": "json11" if f["version"] == "https://jsonfeed.org/version/1.1" else f["version"],
    "title": f["title"], "link": f["home_page_url"],
    "entries": [{
      "title": e["title"], "link": e["url"], "id": e["id"], "summary": e["summary"],
      "content": [e["content_html"]], "author": e["authors"][0]["name"],
      "published": seconds(_parse_date(e["date_published"])),
      "updated": seconds(_parse_date(e["date_modified"])),
    } for e in f["items"]],
  }
else:
  d = feedparser.parse(text)
  out = {
    "bozo": bool(d.bozo), "version": d.version,
    "title": d.feed.get("title"), "link": d.feed.get("link"),
    "entries": [{
      "title": html.unescape(e.get("title")), "link": e.get("link"), "id": e.get("id"),
      "summary": html.unescape(e.get("summary")), "content": [c.value for c in e.get("content", [])],
      "author": e.get("author"),
      "published": seconds(e.get("published_parsed")), "updated": seconds(e.get("updated_parsed")),
    } for e in d.entries],
  }
print(json.dumps(out))
`;

function feedparser(text: string): Parsed {
  const run = spawnSync("/usr/bin/python3", ["-c", FEEDPARSER], { input: text, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`feedparser failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Parsed;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers });

describe("a member's feeds", () => {
  it("hold the member's prisms newest first, as feedparser reads Atom and JSON Feed 1.1", async () => {
    const ada = await buildUser(t.database, {
      username: "ada-feeds",
      firstName: "Ada",
      lastName: "Lovelace",
    });
    const older = await buildPrism(t.database, {
      userId: ada.id,
      index: 0,
      title: "Engines & notes",
      content:
        '<p>I like <strong>clear</strong> notes &lt;always&gt;.</p><p><a href="https://example.com/">More</a></p>',
      createdAt: new Date("2026-01-02T10:00:00Z"),
      updatedAt: new Date("2026-03-04T12:30:00Z"),
    });
    const newer = await buildPrism(t.database, {
      userId: ada.id,
      index: 1,
      title: "Second thoughts",
      content: "<p>Mornings are for deep work.</p>",
      createdAt: new Date("2026-02-01T08:00:00Z"),
      updatedAt: new Date("2026-05-06T09:15:00Z"),
    });
    const responses = {
      pending: "A pending response, never in a feed",
      rejected: "A rejected response, never in a feed",
      approved: "An approved response, on the page but not in its feed",
    };
    for (const [status, annotationText] of Object.entries(responses)) {
      await buildAnnotation(t.database, {
        prismId: newer.id,
        status: status as keyof typeof responses,
        annotationText,
        annotatorName: `Visitor ${status}`,
      });
    }

    const atom = await get("/ada-feeds/feed.atom");
    expect(atom.statusCode).toBe(200);
    expect(atom.headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
    const json = await get("/ADA-FEEDS/feed.json");
    expect(json.statusCode).toBe(200);
    expect(json.headers["content-type"]).toBe("application/feed+json; charset=utf-8");
    expect(json.json().version).toBe("https://jsonfeed.org/version/1.1");

    const page = `${TEST_ORIGIN}/ada-feeds`;
    for (const [body, version] of [
      [atom.body, "atom10"],
      [json.body, "json11"],
    ] as const) {
      const feed = feedparser(body);
      expect(feed.bozo, version).toBe(false);
      expect(feed.version).toBe(version);
      expect(feed.title).toBe("Ada Lovelace (@ada-feeds) on Prism");
      expect(feed.link).toBe(page);
      expect(feed.entries.map((entry) => entry.title)).toEqual([
        "Second thoughts",
        "Engines & notes",
      ]);
      const [first, second] = feed.entries as [ParsedEntry, ParsedEntry];
      expect(first.link).toBe(`${page}?prism=${newer.id}`);
      expect(first.id).toBe(`${page}?prism=${newer.id}`);
      expect(second.link).toBe(`${page}?prism=${older.id}`);
      expect(second.published).toBe(seconds(older.createdAt));
      expect(second.updated).toBe(seconds(older.updatedAt));
      expect(first.published).toBe(seconds(newer.createdAt));
      expect(first.updated).toBe(seconds(newer.updatedAt));
      expect(second.summary).toBe("I like clear notes <always>. More");
      expect(second.content).toHaveLength(1);
      expect(second.content[0]).toContain("<strong>clear</strong>");
      expect(second.content[0]).toContain("&lt;always&gt;");
      expect(second.content[0]).toContain('href="https://example.com/"');
      expect(first.author).toBe("Ada Lovelace");
      for (const text of [...Object.values(responses), "Visitor"]) {
        expect(body, version).not.toContain(text);
        expect(JSON.stringify(feed), version).not.toContain(text);
      }
    }
  });

  it("keep out markup that is not a prism's, whatever the stored text holds", async () => {
    const member = await buildUser(t.database, { username: "mallory-feeds" });
    await buildPrism(t.database, {
      userId: member.id,
      title: "Plain </title><script>alert(1)</script>",
      content: '<p onclick="steal()">Hi<script>alert(2)</script><img src=x onerror="alert(3)"></p>',
    });
    const atom = await get("/mallory-feeds/feed.atom");
    expect(atom.statusCode).toBe(200);
    expect(atom.body).not.toMatch(/<script|onclick|onerror/);
    const json = await get("/mallory-feeds/feed.json");
    expect(json.statusCode).toBe(200);
    // JSON Feed titles are plain text, which readers show as such.
    expect(json.json().items[0].title).toBe("Plain </title><script>alert(1)</script>");
    for (const answer of [atom, json]) {
      const [entry] = feedparser(answer.body).entries as [ParsedEntry];
      expect(entry.title).toBe("Plain </title><script>alert(1)</script>");
      expect(entry.content).toEqual(["<p>Hi</p>"]);
    }
  });

  it("answer 404 for an unknown or deactivated member, as their profile does", async () => {
    const gone = await buildUser(t.database, { deactivatedAt: new Date() });
    await buildPrism(t.database, { userId: gone.id });
    for (const username of ["nobody-feeds", gone.username]) {
      const profile = await get(`/api/users/${username}`);
      expect(profile.statusCode).toBe(404);
      for (const url of [`/${username}/feed.atom`, `/${username}/feed.json`]) {
        const answer = await get(url);
        expect(answer.statusCode, url).toBe(404);
        expect(answer.json(), url).toEqual(profile.json());
      }
    }
  });

  it("answer an unchanged feed 304, and one whose prisms changed in full", async () => {
    const member = await buildUser(t.database, { username: "tagged-feeds" });
    const prism = await buildPrism(t.database, { userId: member.id, title: "First" });
    const tags = new Map<string, string>();
    for (const url of ["/tagged-feeds/feed.atom", "/tagged-feeds/feed.json"]) {
      const first = await get(url);
      const etag = String(first.headers.etag);
      expect(etag, url).toMatch(/^".+"$/);
      const again = await get(url, { "if-none-match": etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe("");
      tags.set(url, etag);
    }
    expect(new Set(tags.values()).size).toBe(2);

    const saved = await send(t.app, "PUT", `/api/prisms/${prism.id}`, {
      headers: await signIn(t.database, member),
      payload: { title: "Renamed", content: "<p>Changed.</p>" },
    });
    expect(saved.statusCode).toBe(200);
    for (const [url, etag] of tags) {
      // Once the change is heard, the old tag no longer stands.
      await expect
        .poll(async () => (await get(url, { "if-none-match": etag })).statusCode)
        .toBe(200);
      const changed = feedparser((await get(url)).body);
      expect(
        changed.entries.map((entry) => entry.title),
        url,
      ).toEqual(["Renamed"]);
    }
  });
});
