import { expect, expectNoAxeViolations, newMember, ORIGIN, test } from "./fixtures.ts";

const CONTENT = "<p>I do my best thinking before noon, with the door closed.</p>";

test("the owner's open page learns of hearts and responses live, and approves from the tray", async ({
  page,
  browser,
  signIn,
}) => {
  // The owner has a prism and their page open.
  const owner = await signIn(page, newMember("owner"));
  const created = await page.request.post("/api/prisms", {
    data: { title: "My best hours", content: CONTENT },
    headers: { origin: ORIGIN },
  });
  const prismId = (await created.json()).id as number;
  await page.goto(`/${owner.username}`);
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName("Notifications");

  // A visitor in another browser hearts it and responds to a passage.
  const visitor = await browser.newContext({ baseURL: ORIGIN });
  expect(
    (
      await visitor.request.post(`/api/prisms/${prismId}/heart`, { headers: { origin: ORIGIN } })
    ).status(),
  ).toBe(200);
  const quote = "before noon";
  const start = "I do my best thinking ".length;
  const annotated = await visitor.request.post("/api/annotations", {
    headers: { origin: ORIGIN },
    data: {
      prismId,
      selectedText: quote,
      selectionStart: start,
      selectionEnd: start + quote.length,
      annotationText: "Same. Afternoons are for talking.",
      annotatorName: "Visiting Val",
    },
  });
  expect(annotated.status()).toBe(201);
  await visitor.close();

  // Without a reload, the badge counts both.
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread", { timeout: 5000 });

  await bell.click();
  const tray = page.getByRole("dialog", { name: "Notifications" });
  await expect(tray.getByText("Visiting Val")).toBeVisible();
  await expect(tray.getByText("added an annotation to your Prism")).toBeVisible();
  await expect(tray.getByText("Someone")).toBeVisible();
  await expect(tray.getByText("liked your Prism")).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications");
  await expectNoAxeViolations(page);

  await tray.getByRole("button", { name: "Approve" }).click();
  await expect(
    page.getByText("The annotation has been approved and is now visible to others."),
  ).toBeVisible();
  // The page updates: the response is approved, so the highlights toggle appears.
  await expect(page.getByRole("button", { name: /Highlights \(1\)/ })).toBeVisible({
    timeout: 5000,
  });
});

test("the notifications page pages, marks read and deletes", async ({ page, browser, signIn }) => {
  const owner = await signIn(page, newMember("popular"));
  const created = await page.request.post("/api/prisms", {
    data: { title: "Loved widely", content: CONTENT },
    headers: { origin: ORIGIN },
  });
  const prismId = (await created.json()).id as number;
  // Twelve different visitors heart it: twelve notifications, two pages.
  for (let i = 0; i < 12; i++) {
    const fan = await browser.newContext({ baseURL: ORIGIN });
    await fan.request.post(`/api/prisms/${prismId}/heart`, { headers: { origin: ORIGIN } });
    await fan.close();
  }

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
  await expect(page.getByText("All marked as read")).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Mark as read" })).toHaveCount(0);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(page.getByText("Refreshed")).toBeVisible();
  expect(owner.username).toBeTruthy();
});

test("an empty notifications page says so", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/notifications");
  await expect(page.getByText("No notifications yet")).toBeVisible();
  await expect(
    page.getByText("Notifications will appear when someone interacts with your Prisms"),
  ).toBeVisible();
});

test("with the live stream open, an idle profile page makes no polling requests", async ({
  page,
  browser,
  signIn,
}) => {
  const context = await browser.newContext({ baseURL: ORIGIN });
  const owner = await signIn(context, newMember("quiet"));
  await context.request.post("/api/prisms", {
    data: { title: "Still waters", content: CONTENT },
    headers: { origin: ORIGIN },
  });
  await context.close();

  const streamOpen = page.waitForResponse((response) => response.url().endsWith("/api/events"));
  await page.goto(`/${owner.username}`);
  await streamOpen;
  await expect(page.getByRole("button", { name: /01\.\s*Still waters/ })).toBeVisible();
  // Let the first fetches settle, then count what an idle page asks for.
  await page.waitForTimeout(1500);
  const requests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/")) requests.push(request.url());
  });
  await page.waitForTimeout(4000);
  expect(requests).toEqual([]);
});
