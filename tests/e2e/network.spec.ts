// When the network misbehaves: a page script gone after a new version reloads the page once (and
// only once), and an offline browser is told so and catches up by itself when it is back online.
import type { Page, Route } from "@playwright/test";
import {
  addPrism,
  expect,
  expectNoAxeViolations,
  newMember,
  test,
  watchSettling,
} from "./fixtures.ts";

/** The explore page's own script, which only loads when someone opens /explore. */
const EXPLORE_SCRIPT = /\/assets\/explore-page-[\w-]+\.js$/;

/** Counts the page's loads from now on (a reload is one). */
function countLoads(page: Page) {
  const counter = { loads: 0 };
  page.on("load", () => {
    counter.loads += 1;
  });
  return counter;
}

/**
 * Opens the landing page, then Explore from the header, with Explore's script answered by
 * `answer`; counts the page's loads from the click on.
 */
async function openExplore(page: Page, answer: (route: Route) => Promise<void>) {
  await page.route(EXPLORE_SCRIPT, answer);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: /Say who you are/ })).toBeVisible();
  const counter = countLoads(page);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Explore" })
    .click();
  return counter;
}

test("a page script that is gone after a new version reloads the page once, and the page works", async ({
  page,
}) => {
  let answered404 = 0;
  const counter = await openExplore(page, (route) => {
    if (answered404 > 0) return route.continue();
    answered404 += 1;
    return route.fulfill({ status: 404, contentType: "text/plain", body: "Not Found" });
  });
  await expect(page).toHaveURL("/explore");
  await expect(page.getByRole("heading", { level: 1, name: "Explore Prism" })).toBeVisible();
  await expect(page.getByRole("tab", { name: /People/ })).toBeVisible();
  expect(answered404).toBe(1);
  // The reloaded page shows before it has finished loading (it comes rendered from the server).
  await expect.poll(() => counter.loads).toBe(1);
  await expect(page.getByText("Component Error")).toHaveCount(0);

  // The page works: its tabs switch, and nothing reloads again.
  await page.getByRole("tab", { name: /Prisms/ }).click();
  await expect(page).toHaveURL("/explore?tab=prisms");
  expect(counter.loads).toBe(1);
});

test("a page script that keeps failing reloads the page only once, then says so", async ({
  page,
}) => {
  let requests = 0;
  const counter = await openExplore(page, (route) => {
    requests += 1;
    return route.fulfill({ status: 404, contentType: "text/plain", body: "Not Found" });
  });
  await expect(page.getByRole("heading", { name: "Component Error" })).toBeVisible();
  await expect.poll(() => counter.loads).toBe(1);
  // Tried before and after the reload.
  expect(requests).toBeGreaterThanOrEqual(2);
});

test("offline, the page says so, and catches up by itself when the connection returns", {
  tag: "@live",
}, async ({ page, context, signIn }) => {
  const owner = await signIn(page, newMember("offline"));
  await addPrism(page.request, {
    title: "How I like to work",
    content: "<p>Mornings are for deep work.</p>",
  });
  const settled = await watchSettling(page);
  await page.goto(`/${owner.username}`);
  await expect(page.getByRole("button", { name: /01\.\s*How I like to work/ })).toBeVisible();
  await settled();

  const notice = page.getByRole("status").filter({ hasText: "You are offline" });
  await context.setOffline(true);
  await expect(notice).toHaveText(
    "You are offline. This page will catch up by itself when the connection returns.",
  );
  await expectNoAxeViolations(page);

  // Meanwhile the member writes a second prism on another device; the page cannot know yet.
  await addPrism(page.request, { title: "What I need from others", content: "<p>Clear asks.</p>" });
  await expect(page.getByRole("button", { name: /02\./ })).toHaveCount(0);

  await context.setOffline(false);
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole("button", { name: /02\.\s*What I need from others/ })).toBeVisible();
});

test("offline, a page whose script is not loaded yet opens once the connection returns", async ({
  page,
  context,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: /Say who you are/ })).toBeVisible();
  await context.setOffline(true);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Explore" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "You are offline" })).toBeVisible();
  await expect(page.getByText("Component Error")).toHaveCount(0);

  await context.setOffline(false);
  await expect(page.getByRole("heading", { level: 1, name: "Explore Prism" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "You are offline" })).toHaveCount(0);
});
