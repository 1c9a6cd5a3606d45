// A member who signs in sees their own page at once, whole, never its skeleton nor a part of it
// loading (the sign-in form stays busy until the page's code, member, prisms and "This week" are
// here), on a desktop and on a touch phone; and a page with no readers yet says so in "This
// week", rather than showing zeros.
import type { Page } from "@playwright/test";
import {
  expect,
  expectHydrated,
  expectNoAxeViolations,
  ORIGIN,
  PASSWORD,
  test,
} from "./fixtures.ts";
import { phone } from "./phone.ts";

// The phone's browser is the suite's Chromium already; a describe group may not choose another.
const { defaultBrowserType: _chromium, ...touchPhone } = phone;

/**
 * Records, from now on, whether the page ever shows a skeleton (a busy region or its blocks) or
 * says it is loading a part of it ("Loading this week…").
 */
async function watchForSkeletons(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    const look = () => {
      for (const skeleton of document.querySelectorAll('[aria-busy="true"], [data-skeleton]')) {
        seen.push(skeleton.textContent?.trim() || skeleton.outerHTML.slice(0, 80));
      }
      for (const status of document.querySelectorAll('[role="status"]')) {
        const text = status.textContent?.trim() ?? "";
        if (text.startsWith("Loading")) seen.push(text);
      }
    };
    new MutationObserver(look).observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ["aria-busy", "data-skeleton"],
    });
    Object.assign(window, { skeletonsSeen: seen });
  });
  return () =>
    page.evaluate(() => (window as unknown as { skeletonsSeen: string[] }).skeletonsSeen);
}

for (const [where, device] of [
  ["on a desktop", {}],
  ["on a touch phone", touchPhone],
] as const) {
  test.describe(where, () => {
    test.use(device);

    test("signing in shows the member's page at once, never its skeleton", async ({
      page,
      addOwner,
    }) => {
      // Their page: a prism anyone reads, and one only they see.
      const { member, ids, request } = await addOwner([
        { title: "Open to all", content: "<p>Anyone reads this.</p>" },
        { title: "Just for me", content: "<p>A note to myself.</p>" },
      ]);
      const hidden = await request.put(`/api/prisms/${ids[1]}`, {
        data: { title: "Just for me", content: "<p>A note to myself.</p>", audience: "private" },
        headers: { origin: ORIGIN },
      });
      expect(hidden.status()).toBe(200);
      await page.goto("/sign-in");
      const submit = page.getByRole("button", { name: "Sign in", exact: true });
      await expectHydrated(submit);
      await page.getByLabel("Username").fill(member.username);
      await page.getByLabel("Password").fill(PASSWORD);
      const skeletons = await watchForSkeletons(page);
      await submit.click();
      await expect(page).toHaveURL(`/${member.username}`);
      await expect(page.getByRole("button", { name: /^\d{2}\./ })).toHaveText([
        "01.Open to all",
        "02.Just for meOnly me",
      ]);
      // A page with no readers yet says so, rather than showing rows of zeros.
      const week = page.getByRole("region", { name: "This week" });
      await expect(week.getByText("No readers yet")).toBeVisible();
      await expect(week.locator("dl")).toHaveCount(0);
      expect(await skeletons()).toEqual([]);
      await expectNoAxeViolations(page);
    });
  });
}
