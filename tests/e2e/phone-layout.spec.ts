// Every page on a 360 px phone, with the longest names, titles, words and links a member can
// give: nothing scrolls sideways, nothing sticks out of the screen, and axe finds nothing.
import type { Page } from "@playwright/test";
import type { Database } from "../../src/server/db/client.ts";
import {
  expect,
  expectHydrated,
  expectNoAxeViolations,
  type MemberFixtures,
  ORIGIN,
  test,
} from "./fixtures.ts";
import { addLongData, LONG_TITLE, longMember } from "./long-data.ts";
import { phone } from "./phone.ts";

test.use(phone);

/**
 * The page is as wide as the screen, and no element reaches past its right edge unless a box of
 * its own scrolls or clips it (a wide table scrolls inside its frame).
 */
async function expectNothingSpills(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  const found = await page.evaluate((width) => {
    const clipped = (element: Element) => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (parent === document.body || parent === document.documentElement) return false;
        if (getComputedStyle(parent).overflowX !== "visible") return true;
      }
      return false;
    };
    const spilling = [...document.body.querySelectorAll("*")]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > width + 0.5 && !clipped(element);
      })
      .map((element) => {
        const label = (element.textContent ?? "").trim().slice(0, 40);
        return `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> "${label}" right ${Math.round(element.getBoundingClientRect().right)}`;
      });
    return {
      innerWidth: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      spilling: spilling.slice(0, 8),
    };
  }, width);
  expect.soft(found.spilling).toEqual([]);
  expect.soft(found.innerWidth).toBe(width);
  expect.soft(found.scrollWidth).toBeLessThanOrEqual(found.innerWidth);
}

async function check(page: Page) {
  await expectNothingSpills(page);
  await expectNoAxeViolations(page);
}

const h1 = (page: Page, name?: string | RegExp) =>
  expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

/** The longest data: an owner (signed in on `page`) and a responder, and a team of the longest name. */
async function longData(
  page: Page,
  {
    addMember,
    signIn,
    database,
  }: Pick<MemberFixtures, "addMember" | "signIn"> & {
    database: Database;
  },
) {
  const responder = await addMember(longMember());
  const owner = await signIn(page, longMember(true));
  await addLongData(database, owner, responder);

  // A team of the longest name, one unbroken word, and an invite link to it.
  const longTeam = "T".repeat(60);
  const headers = { origin: ORIGIN };
  const team = await page.request.post("/api/teams", { data: { name: longTeam }, headers });
  const invite = await page.request.post(`/api/teams/${(await team.json()).slug}/invites`, {
    headers,
  });
  return {
    owner,
    longTeam,
    invitePath: new URL((await invite.json()).url).pathname,
    teamPath: `/teams/${(await team.json()).slug}`,
  };
}

type Pages = [path: string, ready: () => Promise<void>][];

/** Opens each page, waits until it is ready, and checks it. */
async function walk(page: Page, pages: Pages, prefix = "") {
  for (const [path, ready] of pages) {
    await test.step(`${prefix}${path}`, async () => {
      await page.goto(path);
      await ready();
      await check(page);
    });
  }
}

// The pages of routes.tsx, as a signed-in admin with the longest names sees them, in three
// stories that run side by side.
test("the team, Catalyst and notification pages fit a 360 px phone with the longest data, and pass axe", async ({
  page,
  addMember,
  signIn,
  database,
}) => {
  test.slow();
  const { owner, longTeam, invitePath, teamPath } = await longData(page, {
    addMember,
    signIn,
    database,
  });
  await walk(page, [
    [
      invitePath,
      () => expect(page.getByText(`You are already a member of ${longTeam}.`)).toBeVisible(),
    ],
    ["/teams", () => expect(page.getByRole("link", { name: longTeam })).toBeVisible()],
    [teamPath, () => expect(page.getByRole("link", { name: LONG_TITLE }).first()).toBeVisible()],
    [
      "/invites/not-a-link",
      () => expect(page.getByRole("link", { name: "Go to your page" })).toBeVisible(),
    ],
    ["/profile", () => expect(page.getByLabel("First name")).not.toHaveValue("")],
    [
      "/notifications",
      () => expect(page.getByRole("button", { name: "Reject Annotation" })).toBeVisible(),
    ],
    [
      "/review",
      () =>
        expect(page.getByRole("button", { name: /^Reject the response by/ }).first()).toBeVisible(),
    ],
    ["/catalyst", () => expect(page.getByText("Total Users")).toBeVisible()],
    ["/catalyst?tab=users", () => expect(page.getByText(owner.username).first()).toBeVisible()],
    ["/catalyst?tab=prisms", () => expect(page.getByText(LONG_TITLE).first()).toBeVisible()],
    ["/catalyst?tab=annotations", () => expect(page.getByText(/^Same here/).first()).toBeVisible()],
    ["/catalyst?tab=audit", () => h1(page, "Catalyst: Admin Dashboard")],
  ]);
});

test("the member's page, its controls and the site's pages fit a 360 px phone with the longest data, and pass axe", async ({
  page,
  addMember,
  signIn,
  database,
}) => {
  test.slow();
  const { owner } = await longData(page, { addMember, signIn, database });
  await walk(page, [
    ["/", () => h1(page, /Say who you are/)],
    ["/contact", () => h1(page, "Contact")],
    ["/error", () => h1(page)],
    ["/terms-privacy", () => h1(page, /Terms of Service/)],
    ["/explore", () => expect(page.getByText(LONG_TITLE).first()).toBeVisible()],
    ["/explore?tab=prisms", () => expect(page.getByText(LONG_TITLE).first()).toBeVisible()],
    ["/debug", () => h1(page, "Registration Diagnostics")],
    ["/error-demo", () => h1(page, "Error handling demo")],
    ["/no/such/page/here", () => h1(page)],
    [
      `/${owner.username}`,
      () => expect(page.getByText(/Mornings are for deep work/)).toBeVisible(),
    ],
    [
      `/${owner.username}/what-i-need-from-the-people-i-work-with`,
      () => expect(page.getByText(/Mornings are for deep work/)).toBeVisible(),
    ],
  ]);

  await test.step("the owner writes a new prism", async () => {
    await page.goto(`/${owner.username}`);
    await page.getByRole("button", { name: "Add a prism" }).click();
    await expect(page.getByRole("button", { name: "Bold" })).toBeVisible();
    await check(page);
  });

  await test.step("the notification tray and the menu", async () => {
    await page.goto(`/${owner.username}`);
    const bell = page.getByRole("button", { name: /^Notifications/ });
    await expectHydrated(bell);
    await bell.click();
    await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
    await expectNothingSpills(page);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
    await check(page);
  });

  await test.step("the responses sidebar", async () => {
    await page.goto(`/${owner.username}`);
    await page.getByRole("button", { name: /^Responses \(/ }).click();
    await expect(page.getByRole("dialog", { name: "Responses" })).toBeVisible();
    await check(page);
  });
});

test("signed out, the forms and a member's page fit a 360 px phone with the longest data, and pass axe", async ({
  page,
  browser,
  addMember,
  signIn,
  database,
}) => {
  test.slow();
  const { owner, invitePath } = await longData(page, { addMember, signIn, database });
  // Signed out: the forms, and the member's page as a visitor sees it, highlights on.
  const visitor = await browser.newContext({ ...phone, baseURL: ORIGIN });
  const guest = await visitor.newPage();
  await walk(
    guest,
    [
      ["/sign-in", () => h1(guest, "Welcome back")],
      [invitePath, () => expect(guest.getByRole("link", { name: "Create account" })).toBeVisible()],
      ["/auth?tab=register", () => h1(guest, "Join Prism")],
      ["/auth/callback?error=google-auth-failed", () => h1(guest, "Authentication Failed")],
      ["/forgot-password", () => h1(guest)],
      ["/reset-password?token=not-a-real-token", () => h1(guest)],
      [
        `/${owner.username}`,
        () => expect(guest.getByText(/Mornings are for deep work/)).toBeVisible(),
      ],
    ],
    "signed out: ",
  );
  await test.step("signed out: highlights on", async () => {
    await guest.getByRole("button", { name: /Show Highlights/ }).click();
    await check(guest);
  });
  await visitor.close();
});
