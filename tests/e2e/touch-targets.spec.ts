// Every control a person taps or clicks is big enough: at least 44 × 44 CSS px on a touch phone
// (the touch guidelines), and never under 24 × 24 anywhere (WCAG 2.5.8). Links inside a
// sentence are the one exception WCAG makes, and the only one made here.
import type { Page } from "@playwright/test";
import { expect, expectHydrated, test } from "./fixtures.ts";
import { addLongData, longMember } from "./long-data.ts";
import { phone } from "./phone.ts";

const CONTROLS = [
  "a[href]",
  "button",
  "select",
  "summary",
  "input:not([type=hidden])",
  '[role="button"]',
  '[role="tab"]',
  '[role="menuitem"]',
  '[role="menuitemradio"]',
  '[role="checkbox"]',
  '[role="switch"]',
].join(",");

/** The visible controls of the page smaller than `min` in either direction. */
async function smallControls(page: Page, min: number) {
  return page.evaluate(
    ({ selector, min }) =>
      [...document.querySelectorAll<HTMLElement>(selector)]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          // Hidden, or visually hidden (sr-only), or a link inside a line of text.
          if (!element.checkVisibility({ visibilityProperty: true }) || box.width <= 1)
            return false;
          if (getComputedStyle(element).display === "inline") return false;
          return box.width < min - 0.01 || box.height < min - 0.01;
        })
        .map((element) => {
          const box = element.getBoundingClientRect();
          const name =
            element.getAttribute("aria-label") ?? (element.textContent ?? "").trim().slice(0, 30);
          return `${element.tagName.toLowerCase()} "${name}" ${box.width.toFixed(1)} × ${box.height.toFixed(1)}`;
        }),
    { selector: CONTROLS, min },
  );
}

/**
 * Walks the pages and states that hold the controls of the issue (hearts, the header's Sign in,
 * the editor's toolbar, the footer's links) and every other control on them, and lists those
 * under `min`.
 */
async function walk(page: Page, min: number, owner: { username: string }) {
  const found: string[] = [];
  const measure = async (where: string) => {
    for (const small of await smallControls(page, min)) found.push(`${where}: ${small}`);
  };

  await page.goto(`/${owner.username}`);
  await expect(page.getByRole("button", { name: /hearts? for "What I need/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /hearts? for "Pneumono/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Contact" })).toBeVisible();
  await measure("the owner's page");
  // The owner's controls load apart from the page: a click before they are taken over is lost.
  const addPrism = page.getByRole("button", { name: "Add a prism" });
  await expectHydrated(addPrism);
  await addPrism.click();
  await expect(page.getByRole("button", { name: "Bold" })).toBeVisible();
  await page.getByRole("button", { name: "Link", exact: true }).click();
  await measure("the editor");
  const menu = page.getByRole("button", { name: /account menu$/ });
  await expectHydrated(menu);
  await menu.click();
  await measure("the member menu");
  await page.keyboard.press("Escape");
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expectHydrated(bell);
  await bell.click();
  await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
  await measure("the tray");
  await page.keyboard.press("Escape");
  if (await page.getByRole("button", { name: "Open menu" }).isVisible()) {
    await page.getByRole("button", { name: "Open menu" }).click();
    await measure("the small-screen menu");
  }

  for (const path of [
    "/notifications",
    "/profile",
    "/explore",
    "/catalyst?tab=users",
    "/catalyst?tab=prisms",
    "/catalyst?tab=annotations",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("status", { name: /Loading/ })).toHaveCount(0);
    await expect(page.getByText("Loading...")).toHaveCount(0);
    await measure(path);
  }

  // Signed out: the header's Sign in, the forms, and a member's page as a visitor sees it.
  await page.context().clearCookies();
  for (const path of ["/", "/sign-in", "/contact", `/${owner.username}`]) {
    await page.goto(path);
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await measure(`signed out ${path}`);
  }
  return found;
}

// The phone's browser is the suite's Chromium already; a describe group may not choose another.
const { defaultBrowserType: _chromium, ...touchPhone } = phone;

test.describe("on a touch phone", () => {
  test.use(touchPhone);

  test("every control is at least 44 × 44 px", async ({ page, addMember, signIn, database }) => {
    test.setTimeout(120_000);
    const responder = await addMember(longMember());
    const owner = await signIn(page, longMember(true));
    await addLongData(database, owner, responder);
    expect(await walk(page, 44, owner)).toEqual([]);
  });
});

test("with a mouse, every control is at least 24 × 24 px", async ({
  page,
  addMember,
  signIn,
  database,
}) => {
  test.setTimeout(120_000);
  const responder = await addMember(longMember());
  const owner = await signIn(page, longMember(true));
  await addLongData(database, owner, responder);
  expect(await walk(page, 24, owner)).toEqual([]);
});
