// With the keyboard alone: the owner reorders prisms and the focus stays on the control that
// moved the section; the sign-in page's Tab order has no invisible stop.
import type { Page } from "@playwright/test";
import { addPrisms, expect, expectHydrated, newMember, ORIGIN, test } from "./fixtures.ts";

/**
 * The signed-in owner's page (`username`) with a prism for each of `titles`, in that order: the
 * prisms' ids, and the sections' numbered title buttons, checked to be in that order.
 */
async function ownPageWith(page: Page, username: string, titles: string[]) {
  const ids = await addPrisms(
    page.request,
    titles.map((title) => ({ title, content: `<p>${title} matter.</p>` })),
  );
  await page.goto(`/${username}`);
  const sections = page.getByRole("button", { name: /^\d{2}\./ });
  await expect(sections).toHaveText(titles.map((title, at) => `0${at + 1}.${title}`));
  return { ids, titles: sections };
}

test("Move Up and Move Down keep the focus on the moved section's control", async ({
  page,
  signIn,
}) => {
  const owner = await signIn(page, newMember("mover"));
  const { ids, titles } = await ownPageWith(page, owner.username, [
    "Mornings",
    "Meetings",
    "Feedback",
  ]);
  const [mornings] = ids;

  // Tab to the first section's Move Down, as a keyboard would.
  const section = page.locator(`#prism-${mornings}`);
  const moveDown = section.getByRole("button", { name: "Move Down" });
  const moveUp = section.getByRole("button", { name: "Move Up" });
  await section.getByRole("button", { name: /^01\./ }).focus();
  while (!(await moveDown.evaluate((button) => button === document.activeElement))) {
    await page.keyboard.press("Tab");
  }

  await page.keyboard.press("Enter");
  await expect(titles).toHaveText(["01.Meetings", "02.Mornings", "03.Feedback"]);
  await expect(moveDown).toBeFocused();

  // Down again: the section is last and has no Move Down; its Move Up has the focus.
  await page.keyboard.press("Space");
  await expect(titles).toHaveText(["01.Meetings", "02.Feedback", "03.Mornings"]);
  await expect(moveDown).toHaveCount(0);
  await expect(moveUp).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(titles).toHaveText(["01.Meetings", "02.Mornings", "03.Feedback"]);
  await expect(moveUp).toBeFocused();
});

test("a moved section keeps the focus when another change overtakes the page's read of the move", async ({
  page,
  signIn,
}) => {
  const owner = await signIn(page, newMember("overtaken"));
  const { ids, titles } = await ownPageWith(page, owner.username, ["Mornings", "Meetings"]);
  const [mornings, meetings] = ids;
  const section = page.locator(`#prism-${mornings}`);
  const moveDown = section.getByRole("button", { name: "Move Down" });
  await expectHydrated(moveDown);

  // The page's read of the list after its move is overtaken: another change to the list (made
  // from another tab) reaches the page meanwhile, and the read the page makes for it, which
  // takes the place of the first, is slow.
  let moved = false;
  let reads = 0;
  await page.route(`**/api/prisms/${owner.username}`, async (route) => {
    if (!moved || route.request().method() !== "GET") return route.continue();
    reads += 1;
    if (reads === 1) {
      const edit = await page.request.put(`/api/prisms/${meetings}`, {
        data: { title: "Meetings", content: "<p>Meetings matter less.</p>" },
        headers: { origin: ORIGIN },
      });
      expect(edit.status(), await edit.text()).toBe(200);
      await expect.poll(() => reads).toBeGreaterThan(1);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return route.continue().catch(() => undefined);
  });

  await moveDown.focus();
  moved = true;
  await page.keyboard.press("Enter");
  await expect(titles).toHaveText(["01.Meetings", "02.Mornings"]);
  await expect(moveDown).toHaveCount(0);
  await expect(section.getByRole("button", { name: "Move Up" })).toBeFocused();
});

test("on /sign-in, Tab goes from the tabs straight to the first field", async ({ page }) => {
  await page.goto("/sign-in");
  const signInTab = page.getByRole("tab", { name: "Sign in" });
  await signInTab.focus();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Username")).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(signInTab).toBeFocused();

  // The arrow keys choose the other tab; Tab again leads to its first field.
  await page.keyboard.press("ArrowRight");
  const createTab = page.getByRole("tab", { name: "Create account" });
  await expect(createTab).toBeFocused();
  await expect(createTab).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("First name")).toBeFocused();
});
