import type { Browser, Page } from "@playwright/test";
import {
  addPrism,
  expect,
  expectHydrated,
  expectNoAxeViolations,
  expectToast,
  newMember,
  ORIGIN,
  renderInBrowser,
  respond,
  test,
  toggleHeart,
  watchSettling,
} from "./fixtures.ts";

const CONTENT = "<p>I do my best thinking before noon, with the door closed.</p>";

/** A visitor in another browser hearts the prism and responds to "before noon". */
async function heartAndRespond(browser: Browser, prismId: number, annotatorName?: string) {
  const visitor = await browser.newContext({ baseURL: ORIGIN });
  await toggleHeart(visitor.request, prismId);
  await respond(visitor.request, {
    prismId,
    content: CONTENT,
    quote: "before noon",
    annotationText: "Same. Afternoons are for talking.",
    annotatorName,
  });
  await visitor.close();
}

/** The member menu's script (with the bell), which loads once the page knows who is signed in. */
const MEMBER_MENU_SCRIPT = /\/assets\/member-menu-[\w-]+\.js$/;

/**
 * Counts the events the page's live stream receives, by type, as Chromium's network layer sees
 * them; `told(type, n)` waits until the page has received `n` events of that type.
 */
async function streamEvents(page: Page) {
  const received = new Map<string, number>();
  const cdp = await page.context().newCDPSession(page);
  cdp.on("Network.eventSourceMessageReceived", ({ eventName }) => {
    received.set(eventName, (received.get(eventName) ?? 0) + 1);
  });
  await cdp.send("Network.enable");
  return (type: string, count = 1) =>
    expect.poll(() => received.get(type) ?? 0, { message: `${type} events` }).toBe(count);
}

test("the owner's open page learns of hearts and responses live, and approves from the tray", {
  tag: "@live",
}, async ({ page, browser, signIn }) => {
  // The owner has a prism and their page open.
  const owner = await signIn(page, newMember("owner"));
  const prismId = await addPrism(page.request, { title: "My best hours", content: CONTENT });
  await page.goto(`/${owner.username}`);
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName("Notifications");

  await heartAndRespond(browser, prismId, "Visiting Val");

  // Without a reload, the badge counts both.
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
  await expect(page.getByRole("button", { name: '1 heart for "My best hours"' })).toBeVisible();

  await expectHydrated(bell);
  await bell.click();
  const tray = page.getByRole("dialog", { name: "Notifications" });
  await expect(tray.getByText("Visiting Val")).toBeVisible();
  await expect(tray.getByText("added an annotation to your Prism")).toBeVisible();
  // What was written, and the passage it answers: the owner decides from here.
  await expect(tray.getByText("“Same. Afternoons are for talking.”")).toBeVisible();
  await expect(tray.getByText("on “before noon”")).toBeVisible();
  await expect(tray.getByText("Someone")).toBeVisible();
  await expect(tray.getByText("liked your Prism")).toBeVisible();
  await expectNoAxeViolations(page);

  await tray.getByRole("button", { name: "Approve" }).click();
  await expectToast(page, "The annotation has been approved and is now visible to others.");
  await page.keyboard.press("Escape");
  // Opening the tray marked everything read.
  await expect(bell).toHaveAccessibleName("Notifications");
  // The page updates: the response is approved, so it counts.
  await expect(page.getByText("1 annotation", { exact: true })).toBeVisible();
});

test("hearts and responses that come while the bell's code is loading show on the bell", {
  tag: "@live",
}, async ({ page, browser, signIn }) => {
  const owner = await signIn(page, newMember("owner"));
  const prismId = await addPrism(page.request, { title: "My best hours", content: CONTENT });
  // The bell's code loads with the member menu once the page has hydrated: it is held here until
  // the page's stream has told the page of both notifications.
  let loadMenu = () => {};
  const menuHeld = new Promise<void>((resolve) => {
    loadMenu = resolve;
  });
  await page.route(MEMBER_MENU_SCRIPT, async (route) => {
    await menuHeld;
    await route.continue();
  });
  const told = await streamEvents(page);
  await page.goto(`/${owner.username}`);
  await told("live.ready");

  await heartAndRespond(browser, prismId);
  await told("notification.created", 2);

  loadMenu();
  await expect(page.getByRole("button", { name: "Notifications, 2 unread" })).toBeVisible();
});

test("the notifications page pages, marks read and deletes", async ({ page, browser, signIn }) => {
  const owner = await signIn(page, newMember("popular"));
  // A visitor hearts twelve prisms: twelve lines, two pages.
  const fan = await browser.newContext({ baseURL: ORIGIN });
  for (let i = 0; i < 12; i++) {
    const prismId = await addPrism(page.request, { title: `Loved ${i + 1}`, content: CONTENT });
    await toggleHeart(fan.request, prismId);
  }
  await fan.close();

  await page.goto("/notifications");
  await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
  const items = page.getByRole("main").getByRole("listitem");
  await expect(items).toHaveCount(10);
  await expect(page.getByText("Page 1")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Page 2")).toBeVisible();
  await expect(items).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();

  await items.first().getByRole("button", { name: "Mark as read" }).click();
  await expect(items.first().getByRole("button", { name: "Mark as read" })).toHaveCount(0);
  await items
    .first()
    .getByRole("button", { name: /Delete notification/ })
    .click();
  await expect(items).toHaveCount(1);

  await page.getByRole("button", { name: "Previous" }).click();
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expectToast(page, "All marked as read");
  await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Mark as read" })).toHaveCount(0);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expectToast(page, "Refreshed");
  expect(owner.username).toBeTruthy();
});

test("many hearts on one prism make one line, read as one", async ({ page, browser, signIn }) => {
  await signIn(page, newMember("loved"));
  const prismId = await addPrism(page.request, { title: "How I work", content: CONTENT });
  for (let i = 0; i < 2; i++) {
    const visitor = await browser.newContext({ baseURL: ORIGIN });
    await toggleHeart(visitor.request, prismId);
    await visitor.close();
  }
  await page.goto("/notifications");
  const items = page.getByRole("main").getByRole("listitem");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('Someone and 1 other liked your Prism "How I work"');

  // A member hearts it too: the open page's line follows, named by the newest.
  const member = await browser.newContext({ baseURL: ORIGIN });
  await signIn(member);
  await toggleHeart(member.request, prismId);
  await member.close();
  await expect(items.first()).toContainText(
    'Robin Quill and 2 others liked your Prism "How I work"',
  );
  await expect(items).toHaveCount(1);
  await expectNoAxeViolations(page);
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await items.first().getByRole("button", { name: "Mark as read" }).click();
  await expect(bell).toHaveAccessibleName("Notifications");
  await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
});

test("an empty notifications page says so", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/notifications");
  await expect(page.getByText("No notifications yet")).toBeVisible();
  await expect(
    page.getByText("Notifications will appear when someone interacts with your Prisms"),
  ).toBeVisible();
  await expectNoAxeViolations(page);
});

test("with the live stream open, an idle profile page makes no polling requests", {
  tag: "@live",
}, async ({ page, addOwner }) => {
  const { member: owner } = await addOwner(
    [{ title: "Still waters", content: CONTENT }],
    newMember("quiet"),
  );

  const settled = await watchSettling(page);
  // A reader's page says that it showed the open prism (the views beacon): a write, not a poll.
  const beacon = page.waitForResponse("**/api/prisms/views");
  await page.goto(`/${owner.username}`);
  await expect(page.getByRole("button", { name: /01\.\s*Still waters/ })).toBeVisible();
  // Once its stream is ready and what the page fetched or sent has arrived, count what an idle
  // page asks for.
  await settled();
  expect((await beacon).status()).toBe(204);
  const requests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/")) requests.push(request.url());
  });
  await page.waitForTimeout(4000);
  expect(requests).toEqual([]);
});

test("a heart given while the page's first count is still on its way shows once that count lands", {
  tag: "@live",
}, async ({ page, browser, signIn, addOwner }) => {
  const {
    member: owner,
    ids: [prismId],
  } = await addOwner([{ title: "Worth a heart", content: CONTENT }]);

  // The page's first question about the heart is answered before the heart, and that answer is
  // held on the way back until the page has heard of the heart. The page is rendered in the
  // browser, so that the question is the browser's.
  await renderInBrowser(page);
  await signIn(page, newMember("reader"));
  const ownPrismId = await addPrism(page.request, { title: "The reader's own", content: CONTENT });
  let answered = () => {};
  const earlyAnswer = new Promise<void>((resolve) => {
    answered = resolve;
  });
  let deliver = () => {};
  const delivered = new Promise<void>((resolve) => {
    deliver = resolve;
  });
  let first = true;
  await page.route(`**/api/prisms/${prismId}/heart`, async (route) => {
    if (!first || route.request().method() !== "GET") return route.continue();
    first = false;
    const response = await route.fetch();
    answered();
    await delivered;
    // The page may have given up on this request by now.
    await route.fulfill({ response }).catch(() => {});
  });
  await page.goto(`/${owner.username}`);
  await earlyAnswer;
  // The page's stream for the signed-in reader is open once it tells the reader of a heart.
  const fan = await browser.newContext({ baseURL: ORIGIN });
  await toggleHeart(fan.request, ownPrismId);
  await fan.close();
  await expect(page.getByRole("button", { name: "Notifications, 1 unread" })).toBeVisible();

  // The same reader hearts the prism from another tab; this page refreshes its list after it.
  const listAfterHeart = page.waitForResponse(
    async (response) =>
      response.url().endsWith(`/api/prisms/${owner.username}`) &&
      response.status() === 200 &&
      ((await response.json()) as { heartsCount: number }[])[0]?.heartsCount === 1,
  );
  expect(await toggleHeart(page.request, prismId)).toEqual({ hearted: true, heartsCount: 1 });
  await listAfterHeart;
  deliver();

  await expect(page.getByRole("button", { name: /"Worth a heart"/ })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
});

test("a response stays open to a decision on /notifications after the bell marked it read", async ({
  page,
  browser,
  signIn,
}) => {
  const owner = await signIn(page, newMember("owner"));
  const prismId = await addPrism(page.request, { title: "Decide later", content: CONTENT });
  const visitor = await browser.newContext({ baseURL: ORIGIN });
  for (const quote of ["before noon", "door closed"]) {
    await respond(visitor.request, {
      prismId,
      content: CONTENT,
      quote,
      annotationText: `About "${quote}".`,
    });
  }
  await visitor.close();

  // Opening the bell marks everything read.
  await page.goto(`/${owner.username}`);
  const bell = page.getByRole("button", { name: "Notifications, 2 unread" });
  await expectHydrated(bell);
  await bell.click();
  await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();

  await page.goto("/notifications");
  const items = page.getByRole("main").getByRole("listitem");
  await expect(items).toHaveCount(2);
  // Each line quotes its response and passage: which one to reject needs no second page.
  await expect(items.first()).toContainText("“About \"door closed\".”");
  await expect(items.first()).toContainText("on “door closed”");
  await expect(items.last()).toContainText("on “before noon”");
  await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Approve Annotation" })).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Reject Annotation" })).toHaveCount(2);
  await expectNoAxeViolations(page);

  await items.first().getByRole("button", { name: "Reject Annotation" }).click();
  await expectToast(page, "The annotation has been rejected.");
  // Decided, it offers no decision any more; the other one still does.
  await expect(page.getByRole("button", { name: "Approve Annotation" })).toHaveCount(1);
  await expect(items.last().getByRole("button", { name: "Approve Annotation" })).toBeVisible();
});
