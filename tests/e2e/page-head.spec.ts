// The page's head as a browser holds it, from the page the server sent through the pages a visitor
// then opens without a new document: one tag of each kind, with the page's own title and address.
import type { Page } from "@playwright/test";
import { type ExpectedHead, expectedValues, KINDS, pageValues } from "../fixtures/page-head.ts";
import { expect, expectHydrated, newMember, ORIGIN, test } from "./fixtures.ts";

/** Every head tag of the document (wherever it stands), by kind, with its values. */
function headTags(page: Page) {
  return page.evaluate(() => {
    const tags: Record<string, string[]> = {};
    const add = (kind: string, value: string | null) => {
      tags[kind] = [...(tags[kind] ?? []), value ?? ""];
    };
    const html = "http://www.w3.org/1999/xhtml";
    for (const title of document.querySelectorAll("title")) {
      if (title.namespaceURI === html) add("title", title.textContent);
    }
    for (const meta of document.querySelectorAll("meta[name], meta[property]")) {
      const kind = meta.getAttribute("name") ?? meta.getAttribute("property") ?? "";
      if (kind !== "viewport" && kind !== "theme-color") add(kind, meta.getAttribute("content"));
    }
    for (const link of document.querySelectorAll('link[rel="canonical"]')) {
      add("canonical", link.getAttribute("href"));
    }
    const outside = document.querySelectorAll(
      "body meta, body link[rel='canonical'], body > title, #root title:not(svg title)",
    ).length;
    return { tags, outside };
  });
}

/** Waits for the page's head to be `expected`'s, one tag of each kind, all in the head. */
async function expectHead(page: Page, expected: ExpectedHead) {
  await expect
    .poll(async () => {
      const { tags, outside } = await headTags(page);
      const one = (kind: string) => (tags[kind]?.length === 1 ? tags[kind][0] : tags[kind]);
      return {
        outside,
        missing: KINDS.filter((kind) => !tags[kind]),
        repeated: Object.keys(tags).filter((kind) => (tags[kind]?.length ?? 0) > 1),
        ...pageValues(one),
      };
    })
    .toEqual({
      outside: 0,
      missing: [],
      repeated: [],
      ...expectedValues(expected, ORIGIN),
    });
}

interface Marked {
  sameDocument?: boolean;
}

test("one tag of each kind, the page's own, from landing through explore, a profile, terms and contact", async ({
  page,
  addOwner,
}) => {
  // Five pages, each checked as it opens, and two back again.
  test.slow();
  // A member with prisms, so that explore lists someone to open.
  await addOwner(
    [{ title: "How I like to work", content: "<p>Quietly, and in the morning.</p>" }],
    newMember("headline"),
  );

  await page.goto("/");
  await expectHead(page, {
    title: "Prism: say who you are and how you work",
    robots: "index, follow",
    path: "/",
  });
  // Every later page opens in this same document.
  await page.evaluate(() => {
    (window as Marked).sameDocument = true;
  });

  // A click before the page is React's would load a new document instead.
  const explore = page.getByRole("banner").getByRole("link", { name: "Explore" });
  await expectHydrated(explore);
  await explore.click();
  await expectHead(page, {
    title: "Explore Prism",
    robots: "index, follow",
    path: "/explore",
    description: "Meet Prism's members through their ideas, and read the prisms people love most.",
  });

  const member = page
    .getByRole("list", { name: "Members & Their Ideas" })
    .getByRole("heading", { level: 3 })
    .first()
    .getByRole("link");
  await expectHydrated(member);
  await member.click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The head names the member's first prism: read it once their prisms are shown.
  await expect(page.getByRole("main").getByRole("heading", { level: 2 }).first()).toBeVisible();
  const username = new URL(page.url()).pathname.slice(1);
  const name = await page.getByRole("heading", { level: 1 }).textContent();
  const { tags } = await headTags(page);
  const profileHead: ExpectedHead = {
    title: `${name} (@${username}) | Prism`,
    robots: "index, follow",
    path: `/${username}`,
    description: tags.description?.[0] ?? "",
    shareTitle: tags["og:title"]?.[0] ?? "",
    image: tags["og:image"]?.[0]?.slice(ORIGIN.length) ?? "",
  };
  await expectHead(page, profileHead);
  expect(tags.description?.[0]).toMatch(/ on Prism\.$/);
  expect(tags["og:title"]?.[0]).toMatch(/^Get to know .+, really$/);
  expect(tags["og:type"]).toEqual(["profile"]);
  // Shared, the page unfurls with its member's card.
  expect(profileHead.image).toMatch(new RegExp(`^/og/${username}\\.png\\?v=[0-9a-z]+$`));

  await page.getByRole("contentinfo").getByRole("link", { name: "Terms & Privacy" }).click();
  await expectHead(page, {
    title: "Terms of Service and Privacy Policy | Prism",
    robots: "index, follow",
    path: "/terms-privacy",
    description:
      "The rules for publishing and answering on Prism, and what Prism keeps about you and why.",
  });

  await page.getByRole("contentinfo").getByRole("link", { name: "Contact" }).click();
  await expectHead(page, { title: "Contact | Prism", robots: "index, follow", path: "/contact" });

  // And back to the member's page, from the browser's history.
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(`/${username}`);
  await expectHead(page, profileHead);
  expect(await page.evaluate(() => (window as Marked).sameDocument)).toBe(true);
});

test("a private page and an error page keep out of search engines after client navigation", async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto("/error-demo");
  await expectHead(page, {
    title: "Error handling demo | Prism",
    robots: "noindex, follow",
    path: "/error-demo",
  });
  // A click before the page is React's would load a new document instead.
  const explore = page.getByRole("banner").getByRole("link", { name: "Explore" });
  await expectHydrated(explore);
  await explore.click();
  await expectHead(page, {
    title: "Explore Prism",
    robots: "index, follow",
    path: "/explore",
    description: "Meet Prism's members through their ideas, and read the prisms people love most.",
  });
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expectHydrated(bell);
  await bell.click();
  await page.getByRole("link", { name: "View all notifications" }).click();
  await expectHead(page, {
    title: "Notifications | Prism",
    robots: "noindex, nofollow",
    path: "/notifications",
  });
});
