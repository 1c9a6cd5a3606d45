// What pages do when their data cannot be loaded: the main data leads to the spec's error page,
// lists say so and offer Retry, and a failed action or side list is a toast. The browser's
// network answers the one failing call; everything else is the real server. Pages are rendered
// in the browser here (as when the server renders nothing), so that they ask for their data.
import type { Page } from "@playwright/test";
import {
  addPrism,
  expect,
  expectHydrated,
  expectNoAxeViolations,
  expectToast,
  newMember,
  ORIGIN,
  renderInBrowser,
  test,
  toggleHeart,
  watchSettling,
} from "./fixtures.ts";

const CONTENT = "<p>I answer messages in the afternoon, all at once.</p>";

test.beforeEach(({ page }) => renderInBrowser(page));

/** Makes every request to `path` (exactly, ignoring the query) fail until the returned undo. */
async function failing(page: Page, path: string, how: "server error" | "no answer") {
  const matches = (url: URL) => url.pathname === path;
  await page.route(matches, (route) =>
    how === "no answer"
      ? route.abort("connectionrefused")
      : route.fulfill({ status: 500, json: { message: "The database is resting" } }),
  );
  return () => page.unroute(matches);
}

test("a profile that cannot be loaded leads to the error page, whose Retry loads it again", async ({
  page,
  signIn,
}) => {
  const member = await signIn(page, newMember("resting"));
  const recover = await failing(page, `/api/users/${member.username}`, "server error");
  await page.goto(`/${member.username}`);
  await expect(page).toHaveURL("/error");
  await expect(page.getByText("500", { exact: true })).toBeVisible();
  await expect(
    page.getByRole("heading", { level: 1, name: "Error loading profile" }),
  ).toBeVisible();
  await expect(
    page.getByText("We couldn't complete your request. Please try again later."),
  ).toBeVisible();
  await expect(page.getByText("The database is resting")).toBeVisible();
  await expectNoAxeViolations(page);

  await recover();
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page).toHaveURL(`/${member.username}`);
  await expect(page.getByRole("heading", { level: 1, name: "Robin Quill" })).toBeVisible();
});

test("a server that does not answer is a connection error", async ({ page, signIn }) => {
  const member = await signIn(page, newMember("offline"));
  await failing(page, `/api/users/${member.username}`, "no answer");
  await page.goto(`/${member.username}`);
  await expect(page).toHaveURL("/error");
  await expect(page.getByText("503", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Connection Error" })).toBeVisible();
  await expect(
    page.getByText(
      "Unable to connect to the server. Please check your internet connection and try again.",
    ),
  ).toBeVisible();
});

test("a member who cannot be loaded is not taken for signed out", async ({ page, signIn }) => {
  await signIn(page);
  await failing(page, "/api/user", "server error");
  await page.goto("/notifications");
  await expect(page).toHaveURL("/error", { timeout: 10_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Request Failed" })).toBeVisible();
  await expect(page.getByText("500", { exact: true })).toBeVisible();
});

test("notifications that cannot be loaded say so in the tray and on the page, and load on Retry", async ({
  page,
  browser,
  signIn,
}) => {
  const owner = await signIn(page, newMember("owner"));
  const prismId = await addPrism(page.request, { title: "Afternoons", content: CONTENT });
  const fan = await browser.newContext({ baseURL: ORIGIN });
  await toggleHeart(fan.request, prismId);
  await fan.close();

  const recover = await failing(page, "/api/notifications", "server error");
  await page.goto(`/${owner.username}`);
  const bell = page.getByRole("button", { name: "Notifications, 1 unread" });
  await expectHydrated(bell);
  await bell.click();
  const tray = page.getByRole("dialog", { name: "Notifications" });
  const trouble = "There was an error loading notifications. Please try again later.";
  await expect(tray.getByRole("alert")).toHaveText(new RegExp(trouble.replaceAll(".", "\\.")));
  await expect(tray.getByText("No notifications yet")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await recover();
  await tray.getByRole("button", { name: "Retry" }).click();
  await expect(tray.getByText("liked your Prism")).toBeVisible();
  await page.keyboard.press("Escape");

  const recoverPage = await failing(page, "/api/notifications", "server error");
  await page.goto("/notifications");
  await expect(page.getByText(trouble)).toBeVisible();
  await expect(page.getByText("No notifications yet")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await recoverPage();
  await page.getByRole("main").getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("main").getByText("liked your Prism")).toBeVisible();
});

test("explore that cannot be loaded says so, and loads on Retry", async ({ page }) => {
  const recover = await failing(page, "/api/explore/users", "no answer");
  await page.goto("/explore");
  const trouble = "There was an error loading the explore page. Please try again later.";
  await expect(page.getByText(trouble)).toBeVisible();
  await expectNoAxeViolations(page);
  await recover();
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText(trouble)).toHaveCount(0);
  await expect(
    page.getByRole("heading", { level: 2, name: "Members & Their Ideas" }),
  ).toBeVisible();
});

test("a profile's prisms and responses that cannot be loaded say so, and load on Retry", async ({
  page,
  addOwner,
}) => {
  const {
    member: owner,
    ids: [prismId],
  } = await addOwner([{ title: "Afternoons", content: CONTENT }]);

  const recoverPrisms = await failing(page, `/api/prisms/${owner.username}`, "server error");
  await page.goto(`/${owner.username}`);
  const trouble = "There was an error loading prisms. Please try again later.";
  await expect(page.getByText(trouble)).toBeVisible();
  await recoverPrisms();
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("button", { name: /01\.\s*Afternoons/ })).toBeVisible();

  // A list beside the page's main data fails with a toast; its sidebar says so too.
  const recoverResponses = await failing(
    page,
    `/api/prisms/${prismId}/annotations`,
    "server error",
  );
  await page.reload();
  await expectToast(page, "Failed to fetch annotations");
  await page.getByRole("button", { name: "Responses (0)" }).click();
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await expect(sidebar.getByRole("alert")).toContainText("Failed to fetch annotations");
  await expect(sidebar.getByText(/No responses yet/)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await recoverResponses();
  await sidebar.getByRole("button", { name: "Retry" }).click();
  await expect(sidebar.getByText(/No responses yet/)).toBeVisible();
});

test("Catalyst's tables and statistics that cannot be loaded say so, and load on Retry", async ({
  page,
  signIn,
}) => {
  await signIn(page, { ...newMember("admin"), isAdmin: true });
  const recoverStats = await failing(page, "/api/analytics/stats", "server error");
  const settled = await watchSettling(page);
  await page.goto("/catalyst");
  await expect(page.getByText("Error loading dashboard statistics.")).toBeVisible();
  // The page's live stream may refetch what it shows once it connects: while the statistics still
  // fail, so that only Retry loads them.
  await settled();
  await recoverStats();
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("list", { name: "Statistics" })).toBeVisible();

  const recoverUsers = await failing(page, "/api/analytics/users", "no answer");
  await page.getByRole("tab", { name: "Users" }).click();
  await expect(page.getByRole("alert")).toContainText("Error loading users.");
  await expectNoAxeViolations(page);
  await recoverUsers();
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByRole("cell", { name: "Admin", exact: true }).first()).toBeVisible();
});
