// The head of every page as the server sends it, rendered by the web app's own renderer (its
// source, as the build would run it): exactly one tag of each kind, with the page's own values.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ExpectedHead,
  expectedValues,
  KINDS,
  pageValues,
} from "../../../../tests/fixtures/page-head.ts";
import { cardContent, cardPath } from "../../../contract/cards.ts";
import { type App, buildApp } from "../../app.ts";
import type { PrismRow, UserRow } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestApp, signIn, TEST_ORIGIN } from "../../test/helpers.ts";

const t = setupTestApp();
const build = mkdtempSync(join(tmpdir(), "prism-page-head-"));
const source = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
let web: App;
let ada: UserRow;
let adaPrisms: PrismRow[];
let admin: UserRow;

/** The path of the share card of `member`'s page, or of one of their prisms. */
const cardOf = (member: UserRow, prism: PrismRow | null, own = false) =>
  cardPath(member.username, own && prism ? prism.id : null, cardContent(member, prism));

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
  // Compiled here, before the app starts: the server loads the renderer as it starts.
  await import(renderer);
  web = await buildApp({ config: t.config, database: t.database, webRoot: join(build, "web") });
  ada = await buildUser(t.database, {
    username: "ada-head",
    firstName: "Ada",
    lastName: "Lovelace",
  });
  adaPrisms = [
    await buildPrism(t.database, { userId: ada.id, title: "Notes on engines", index: 0 }),
    await buildPrism(t.database, { userId: ada.id, title: "Second thoughts", index: 1 }),
  ];
  admin = await buildUser(t.database, { isAdmin: true });
});
afterAll(async () => {
  await web?.close();
  rmSync(build, { recursive: true, force: true });
});

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** Every head tag of a page, by kind ("title", "robots", "og:title", …), with its values. */
function headTags(html: string): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  const add = (kind: string, value: string) =>
    tags.set(kind, [...(tags.get(kind) ?? []), unescapeHtml(value)]);
  for (const [, text = ""] of html.matchAll(/<title>([^<]*)<\/title>/g)) add("title", text);
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/g)) {
    const kind = /\b(?:name|property)="([^"]+)"/.exec(tag)?.[1];
    const content = /\bcontent="([^"]*)"/.exec(tag)?.[1];
    if (kind && content !== undefined && kind !== "viewport" && kind !== "theme-color") {
      add(kind, content);
    }
  }
  for (const [, href = ""] of html.matchAll(
    /<link\b[^>]*\brel="canonical"[^>]*\bhref="([^"]*)"/g,
  )) {
    add("canonical", href);
  }
  return tags;
}

async function expectHead(
  url: string,
  expected: ExpectedHead,
  headers: Record<string, string> = {},
) {
  const response = await web.inject({ method: "GET", url, headers });
  const html = response.body;
  const head = html.slice(0, html.indexOf("</head>"));
  const tags = headTags(html);
  // Exactly one of each kind, all of them in the head.
  for (const [kind, values] of tags) expect(values, `${url}: ${kind}`).toHaveLength(1);
  expect([...tags.keys()], url).toEqual(expect.arrayContaining(KINDS));
  expect(headTags(head), url).toEqual(tags);
  expect(
    pageValues((kind) => tags.get(kind)?.[0]),
    url,
  ).toEqual(expectedValues(expected, TEST_ORIGIN));
  return { response, tags };
}

const index = "index, follow";
const errorPage = "noindex, follow";
const privatePage = "noindex, nofollow";

describe("every page's head, as the server sends it", () => {
  it("holds one tag of each kind, with the page's own title, to a visitor", async () => {
    const pages: [string, ExpectedHead][] = [
      ["/", { title: "Prism: say who you are and how you work", robots: index, path: "/" }],
      [
        "/explore",
        {
          title: "Explore Prism",
          robots: index,
          path: "/explore",
          description:
            "Meet Prism's members through their ideas, and read the prisms people love most.",
        },
      ],
      [
        "/explore/?tab=people",
        {
          title: "Explore Prism",
          robots: index,
          path: "/explore",
          description:
            "Meet Prism's members through their ideas, and read the prisms people love most.",
        },
      ],
      [
        "/terms-privacy",
        {
          title: "Terms of Service and Privacy Policy | Prism",
          robots: index,
          path: "/terms-privacy",
          description:
            "The rules for publishing and answering on Prism, and what Prism keeps about you and why.",
        },
      ],
      ["/contact", { title: "Contact | Prism", robots: index, path: "/contact" }],
      ["/sign-in", { title: "Sign in | Prism", robots: index, path: "/sign-in" }],
      ["/auth", { title: "Sign in or create an account | Prism", robots: index, path: "/auth" }],
      ["/auth/callback", { title: "Signing in | Prism", robots: index, path: "/auth/callback" }],
      [
        "/forgot-password",
        { title: "Forgot password | Prism", robots: index, path: "/forgot-password" },
      ],
      [
        "/reset-password",
        { title: "Reset password | Prism", robots: index, path: "/reset-password" },
      ],
      ["/error", { title: "Something went wrong | Prism", robots: errorPage, path: "/error" }],
      [
        "/error-demo",
        { title: "Error handling demo | Prism", robots: errorPage, path: "/error-demo" },
      ],
      ["/debug", { title: "Diagnostics | Prism", robots: privatePage, path: "/debug" }],
      // Pages for members, before the browser sends the visitor to sign in.
      ["/profile", { title: "Profile Settings | Prism", robots: privatePage, path: "/profile" }],
      [
        "/notifications",
        { title: "Notifications | Prism", robots: privatePage, path: "/notifications" },
      ],
      ["/review", { title: "Review responses | Prism", robots: privatePage, path: "/review" }],
      [
        "/catalyst",
        { title: "Catalyst: Admin Dashboard | Prism", robots: privatePage, path: "/catalyst" },
      ],
    ];
    for (const [url, expected] of pages) {
      const { response } = await expectHead(url, expected);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('<div id="root"></div>');
    }
  });

  it("gives a member's page their name, description, address, share title and card", async () => {
    const [first, second] = adaPrisms as [PrismRow, PrismRow];
    const expected: ExpectedHead = {
      title: "Ada Lovelace (@ada-head) | Prism",
      robots: index,
      path: "/ada-head",
      description: 'Get to know Ada: "Notes on engines" and more on Prism.',
      shareTitle: "Get to know Ada, really",
    };
    const pages: [string, PrismRow, boolean][] = [
      ["/ada-head", first, false],
      ["/ADA-HEAD", first, false],
      // A link to one prism unfurls with that prism's card, by its slug or by its id.
      ["/ada-head/notes-on-engines", first, true],
      [`/ada-head/?prism=${second.id}`, second, true],
    ];
    for (const [url, prism, own] of pages) {
      const { tags } = await expectHead(url, { ...expected, image: cardOf(ada, prism, own) });
      expect(tags.get("og:type"), url).toEqual(["profile"]);
      expect(tags.get("og:image:alt"), url).toEqual([
        `"${prism.title}" by Ada Lovelace (@ada-head) on Prism`,
      ]);
    }
    expect(cardOf(ada, first)).toMatch(/^\/og\/ada-head\.png\?v=[0-9a-z]+$/);
    expect(cardOf(ada, second, true)).toMatch(
      new RegExp(`^/og/ada-head/${second.id}\\.png\\?v=[0-9a-z]+$`),
    );
  });

  it("reads well with one prism or none, and shares the card rather than the member's picture", async () => {
    const grace = await buildUser(t.database, {
      username: "grace-head",
      firstName: "",
      lastName: "",
      displayName: "Amazing Grace",
      profileImageUrl: "https://images.example/me.jpg?s=96&x=1",
    });
    const debugging = await buildPrism(t.database, {
      userId: grace.id,
      title: "Debugging",
      index: 0,
    });
    await expectHead("/grace-head", {
      title: "Amazing Grace (@grace-head) | Prism",
      robots: index,
      path: "/grace-head",
      description: 'Get to know Amazing Grace: "Debugging" on Prism.',
      shareTitle: "Get to know Amazing Grace, really",
      image: cardOf(grace, debugging),
    });

    const bare = await buildUser(t.database, {
      username: "bare-head",
      firstName: "Bo",
      lastName: "",
    });
    await expectHead("/bare-head", {
      title: "bare-head (@bare-head) | Prism",
      robots: index,
      path: "/bare-head",
      description: "bare-head is on Prism.",
      shareTitle: "Get to know Bo, really",
      image: cardOf(bare, null),
    });
  });

  it('links a member\'s verified website with rel="me", and only a verified one', async () => {
    const relMe = (html: string) =>
      [...html.matchAll(/<link\b[^>]*\brel="me"[^>]*\bhref="([^"]*)"/g)].map(([, href]) =>
        unescapeHtml(href ?? ""),
      );
    const site = "https://rosalind.example/?a=1&b=2";
    await buildUser(t.database, {
      username: "verified-head",
      websiteUrl: site,
      websiteVerified: true,
    });
    await buildUser(t.database, { username: "unverified-head", websiteUrl: site });
    const verified = (await web.inject({ method: "GET", url: "/verified-head" })).body;
    expect(relMe(verified.slice(0, verified.indexOf("</head>")))).toEqual([site]);
    expect(relMe((await web.inject({ method: "GET", url: "/unverified-head" })).body)).toEqual([]);
  });

  it("escapes names and titles, whatever they contain", async () => {
    const hostile = await buildUser(t.database, {
      username: "hostile-head",
      firstName: '"><script>alert(1)</script>',
      lastName: "$& $' O'Neil",
    });
    const hostileWork = await buildPrism(t.database, {
      userId: hostile.id,
      title: '</title><script>alert("t")</script> & more',
      index: 0,
    });
    const { response } = await expectHead("/hostile-head", {
      title: `"><script>alert(1)</script> $& $' O'Neil (@hostile-head) | Prism`,
      robots: index,
      path: "/hostile-head",
      description: `Get to know "><script>alert(1)</script>: "</title><script>alert("t")</script> & more" on Prism.`,
      shareTitle: `Get to know "><script>alert(1)</script>, really`,
      image: cardOf(hostile, hostileWork),
    });
    expect(response.body).not.toContain("<script>alert");
  });

  it("answers an unknown or deactivated member, or no page at all, with 404 and the not-found head", async () => {
    const gone = await buildUser(t.database, { username: "gone-head", deactivatedAt: new Date() });
    await buildPrism(t.database, { userId: gone.id, title: "Old news" });
    for (const url of ["/nobody-here", "/nobody-here/a-prism", "/gone-head", "/a/b/c"]) {
      const { response } = await expectHead(url, {
        title: "Page Not Found | Prism",
        robots: errorPage,
        path: url,
      });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it("holds one tag of each kind on the pages of a member and of an admin", async () => {
    const member = await signIn(t.database, ada);
    const asAdmin = await signIn(t.database, admin);
    const pages: [string, ExpectedHead, Record<string, string>][] = [
      [
        "/profile",
        { title: "Profile Settings | Prism", robots: privatePage, path: "/profile" },
        member,
      ],
      [
        "/notifications",
        { title: "Notifications | Prism", robots: privatePage, path: "/notifications" },
        member,
      ],
      [
        "/catalyst",
        { title: "Catalyst: Admin Dashboard | Prism", robots: privatePage, path: "/catalyst" },
        member,
      ],
      [
        "/ada-head",
        {
          title: "Ada Lovelace (@ada-head) | Prism",
          robots: index,
          path: "/ada-head",
          description: 'Get to know Ada: "Notes on engines" and more on Prism.',
          shareTitle: "Get to know Ada, really",
          image: cardOf(ada, adaPrisms[0] ?? null),
        },
        member,
      ],
      [
        "/catalyst",
        { title: "Catalyst: Admin Dashboard | Prism", robots: privatePage, path: "/catalyst" },
        asAdmin,
      ],
      [
        "/",
        { title: "Prism: say who you are and how you work", robots: index, path: "/" },
        asAdmin,
      ],
    ];
    for (const [url, expected, headers] of pages) {
      const { response } = await expectHead(url, expected, headers);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('<div id="root"></div>');
    }
    // The admin's dashboard is the dashboard itself, not the spinner a member sees.
    const dashboard = await web.inject({ method: "GET", url: "/catalyst", headers: asAdmin });
    expect(dashboard.body).toContain("Catalyst: Admin Dashboard</h1>");
  });
});
