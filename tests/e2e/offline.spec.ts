// Going offline while a page is open: the page keeps what it shows, says that it is offline, and
// catches up by itself when the connection returns (it never leaves for /error, whose own script
// could not load offline).
import { addPrism, expect, expectHydrated, newMember, test } from "./fixtures.ts";

test("a refetch that loses the connection keeps the page, which catches up once back online", {
  tag: "@live",
}, async ({ page, context, signIn }) => {
  const owner = await signIn(page, newMember("offline"));
  const prismId = await addPrism(page.request, {
    title: "How I like to work",
    content: "<p>Mornings are for deep work.</p>",
  });
  // The page's event stream waits until the page has all its code, and then opens as if the
  // server no longer knew what the page was rendered with (another instance, a restart): the
  // page refetches everything it shows, to catch up on what it may have missed.
  let letStreamThrough = () => {};
  const streamLetThrough = new Promise<void>((resolve) => {
    letStreamThrough = resolve;
  });
  await page.route("**/api/events*", async (route) => {
    await streamLetThrough;
    const url = new URL(route.request().url());
    url.searchParams.delete("since");
    return route.continue({ url: url.href });
  });
  // The connection drops just as that refetch asks for the member the page stands on, their
  // prisms and its responses: each of those requests fails once, as the browser goes offline.
  const paths = [
    `/api/users/${owner.username}`,
    `/api/prisms/${owner.username}`,
    `/api/prisms/${prismId}/annotations`,
  ];
  const dropped = new Set<string>();
  for (const path of paths) {
    await page.route(`**${path}`, async (route) => {
      if (dropped.has(path)) return route.continue();
      dropped.add(path);
      await context.setOffline(true);
      await route.abort("internetdisconnected");
    });
  }
  await page.goto(`/${owner.username}`);
  await expect(page.getByRole("button", { name: /01\.\s*How I like to work/ })).toBeVisible();
  await expectHydrated(page.getByRole("button", { name: /account menu/ }));
  await expectHydrated(page.getByRole("button", { name: "Add a prism" }));
  expect(dropped.size).toBe(0);
  // Gone if the page reloads.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  letStreamThrough();

  const notice = page.getByRole("status").filter({ hasText: "You are offline" });
  await expect(notice).toHaveText(
    "You are offline. This page will catch up by itself when the connection returns.",
  );
  await expect.poll(() => dropped.size).toBe(paths.length);
  await expect(page).toHaveURL(`/${owner.username}`);
  await expect(page.getByRole("heading", { level: 1, name: "Robin Quill" })).toBeVisible();
  await expect(page.getByRole("button", { name: /01\.\s*How I like to work/ })).toBeVisible();
  await expect(page.getByText("There was an error loading prisms")).toHaveCount(0);

  // Meanwhile the member writes a second prism on another device.
  await addPrism(page.request, { title: "What I need from others", content: "<p>Clear asks.</p>" });
  await context.setOffline(false);
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole("button", { name: /02\.\s*What I need from others/ })).toBeVisible();
  await expect(page).toHaveURL(`/${owner.username}`);
  // It caught up without a reload.
  expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
});
