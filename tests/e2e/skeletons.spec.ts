// While a signed-in page waits for the server, it shows a skeleton of its layout (busy, quiet for
// screen readers but for one status), not a lone spinner; the skeleton keeps still for people
// who asked for reduced motion. The pages are rendered in the browser here (a page the server
// rendered arrives with its data), so that they wait for their answers.
import type { Page } from "@playwright/test";
import {
  addPrism,
  expect,
  expectNoAxeViolations,
  newMember,
  renderInBrowser,
  test,
} from "./fixtures.ts";

/** Holds the answers to `url` until the returned function is called (the real answers, late). */
async function holdAnswers(page: Page, url: string | RegExp) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test.beforeEach(({ page }) => renderInBrowser(page));

async function expectSkeleton(page: Page, status: string) {
  const busy = page.locator('main [aria-busy="true"]');
  await expect(busy).toBeVisible();
  await expect(busy.getByRole("status")).toHaveText(status);
  // The blocks are for the eyes: hidden from the accessibility tree, and no spinner instead.
  await expect(busy.locator("[data-skeleton]")).toHaveAttribute("aria-hidden", "true");
  await expect(page.getByRole("status", { name: "Loading", exact: true })).toHaveCount(0);
}

test("Profile Settings and the notifications show their layout while they load", async ({
  page,
  signIn,
}) => {
  await signIn(page, newMember("waiting"));

  const member = await holdAnswers(page, /\/api\/user$/);
  await page.goto("/profile");
  await expectSkeleton(page, "Loading Profile Settings...");
  await expectNoAxeViolations(page);
  // The heading is real at once; the fields wait for the member.
  await expect(page.getByRole("heading", { name: "Profile Settings", level: 1 })).toBeVisible();
  member();
  await expect(page.getByLabel("First name")).toHaveValue("Robin");
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

  const list = await holdAnswers(page, /\/api\/notifications\?limit=10/);
  await page.goto("/notifications");
  // The heading is real at once; the rows wait.
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  await expectSkeleton(page, "Loading notifications...");
  list();
  await expect(page.getByText("No notifications yet")).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
});

test("the owner's own page shows its layout while it loads, still for reduced motion", async ({
  page,
  signIn,
}) => {
  const owner = await signIn(page, newMember("waiting"));
  await addPrism(page.request, {
    title: "How I like to work",
    content: "<p>Mornings are for deep work.</p>",
  });

  const profile = await holdAnswers(page, new RegExp(`/api/users/${owner.username}$`));
  const prisms = await holdAnswers(page, new RegExp(`/api/prisms/${owner.username}$`));
  await page.goto(`/${owner.username}`);
  await expectSkeleton(page, "Loading profile...");
  const block = page.locator("[data-skeleton] > * > *").first();
  await expect(block).toHaveCSS("animation-name", "pulse");

  // The member's header arrives; the sections still wait.
  profile();
  await expect(page.getByRole("heading", { level: 1, name: "Robin Quill" })).toBeVisible();
  await expectSkeleton(page, "Loading prisms...");
  prisms();
  await expect(page.getByRole("button", { name: /01\.\s*How I like to work/ })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

  // With reduced motion asked for, the blocks keep still.
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await renderInBrowser(page);
  await page.emulateMedia({ reducedMotion: "reduce" });
  const again = await holdAnswers(page, new RegExp(`/api/users/${owner.username}$`));
  await page.reload();
  await expectSkeleton(page, "Loading profile...");
  await expect(page.locator("[data-skeleton] > * > *").first()).toHaveCSS("animation-name", "none");
  again();
  await expect(page.getByRole("heading", { level: 1, name: "Robin Quill" })).toBeVisible();
});
