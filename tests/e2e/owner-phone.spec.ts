// The owner's own page on a touch phone and on a desktop: on the phone each prism shows Edit and
// one menu of the rest (move, History, who may respond, delete), by touch and by keyboard, with
// the focus back on the menu's button after each; the desktop keeps its row of buttons.
import type { Locator, Page } from "@playwright/test";
import {
  addPrisms,
  expect,
  expectHydrated,
  expectNoAxeViolations,
  newMember,
  test,
} from "./fixtures.ts";
import { phone } from "./phone.ts";

// The phone's browser is the suite's Chromium already; a describe group may not choose another.
const { defaultBrowserType: _chromium, ...touchPhone } = phone;

const titles = ["Mornings", "Meetings", "Feedback"];

/** The signed-in owner's page with a prism of each title, in order: the sections, by title. */
async function ownPage(page: Page, username: string) {
  const ids = await addPrisms(
    page.request,
    titles.map((title) => ({ title, content: `<p>${title} matter to me.</p>` })),
  );
  await page.goto(`/${username}`);
  const numbered = page.getByRole("button", { name: /^\d{2}\./ });
  await expect(numbered).toHaveText(titles.map((title, at) => `0${at + 1}.${title}`));
  return { ids, numbered };
}

const menuOf = (section: Locator, title: string) =>
  section.getByRole("button", { name: `More actions for "${title}"` });

/** The controls of a section's row that the phone keeps in its menu. */
const rowControls = (section: Locator) => [
  section.getByRole("button", { name: "Move Down" }),
  section.getByRole("button", { name: "History" }),
  section.getByRole("button", { name: "Delete" }),
  section.getByLabel("Who may respond"),
];

test.describe("on a touch phone", () => {
  test.use(touchPhone);

  test("each prism shows Edit and one menu of the rest, by touch and keyboard, axe clean", async ({
    page,
    signIn,
  }) => {
    test.slow();
    const owner = await signIn(page, newMember("thumb"));
    const { ids, numbered } = await ownPage(page, owner.username);
    const [mornings, meetings] = ids;
    const first = page.locator(`#prism-${mornings}`);

    // Two controls per prism in view, none of the row's.
    await expect(first.getByRole("button", { name: "Edit", exact: true })).toBeVisible();
    const menu = menuOf(first, "Mornings");
    await expect(menu).toBeVisible();
    for (const control of rowControls(first)) await expect(control).toBeHidden();
    await expect(page.getByRole("button", { name: /^More actions for/ })).toHaveCount(3);
    const box = await menu.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);

    await test.step("a tap opens the menu: every action, each a 44 px target, axe clean", async () => {
      await expectHydrated(menu);
      await menu.tap();
      const opened = page.getByRole("menu");
      await expect(opened).toBeVisible();
      // The first prism moves down only.
      await expect(opened.getByRole("menuitem")).toHaveText(["Move Down", "History", "Delete"]);
      await expect(opened.getByRole("menuitemradio")).toHaveText([
        "Anyone",
        "Members only",
        "No one",
      ]);
      await expect(opened.getByRole("menuitemradio", { name: "Anyone" })).toBeChecked();
      await expect(opened.getByRole("group", { name: "Who may respond" })).toBeVisible();
      for (const item of await opened.locator("[role^=menuitem]").all()) {
        const itemBox = await item.boundingBox();
        expect(itemBox?.height).toBeGreaterThanOrEqual(44);
      }
      await expectNoAxeViolations(page);
    });

    await test.step("choosing who may respond saves it, and the focus is back on the menu", async () => {
      await page.getByRole("menuitemradio", { name: "No one" }).tap();
      await expect(page.getByRole("menu")).toHaveCount(0);
      await expect(menu).toBeFocused();
      await expect
        .poll(async () => {
          const prisms = await (await page.request.get(`/api/prisms/${owner.username}`)).json();
          return prisms.find((prism: { id: number }) => prism.id === mornings)?.responders;
        })
        .toBe("no-one");
      await menu.tap();
      await expect(page.getByRole("menuitemradio", { name: "No one" })).toBeChecked();
      await page.keyboard.press("Escape");
      await expect(menu).toBeFocused();
    });

    await test.step("by keyboard, Move Down keeps the focus on the moved prism's menu", async () => {
      await page.keyboard.press("Enter");
      await expect(page.getByRole("menuitem", { name: "Move Down" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(numbered).toHaveText(["01.Meetings", "02.Mornings", "03.Feedback"]);
      await expect(menu).toBeFocused();
      // In the middle now: both ways.
      await page.keyboard.press("Enter");
      await expect(page.getByRole("menu").getByRole("menuitem")).toHaveText([
        "Move Up",
        "Move Down",
        "History",
        "Delete",
      ]);
      await page.keyboard.press("Escape");
      await expect(menu).toBeFocused();
    });

    await test.step("History opens from the menu and gives the focus back to it", async () => {
      await menu.tap();
      await page.getByRole("menuitem", { name: "History" }).tap();
      const history = page.getByRole("dialog", { name: "History" });
      await expect(history).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press("Escape");
      await expect(history).toHaveCount(0);
      await expect(menu).toBeFocused();
    });

    await test.step("Delete asks first; kept, the focus is back on the menu; confirmed, it goes", async () => {
      const second = page.locator(`#prism-${meetings}`);
      const meetingsMenu = menuOf(second, "Meetings");
      await meetingsMenu.tap();
      await page.getByRole("menuitem", { name: "Delete" }).tap();
      const confirm = page.getByRole("alertdialog");
      await expect(confirm).toContainText("Are you sure you want to delete this prism?");
      await confirm.getByRole("button", { name: "Cancel" }).tap();
      await expect(confirm).toHaveCount(0);
      await expect(meetingsMenu).toBeFocused();
      await meetingsMenu.tap();
      await page.getByRole("menuitem", { name: "Delete" }).tap();
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).tap();
      await expect(numbered).toHaveText(["01.Mornings", "02.Feedback"]);
    });

    await test.step("Edit stays in view and opens the editor", async () => {
      const edit = first.getByRole("button", { name: "Edit", exact: true });
      // The deletion's toast rises over the bottom of a phone's screen, where the button may be:
      // it is tapped in the middle of the screen, clear of the toast.
      await edit.evaluate((button) => button.scrollIntoView({ block: "center" }));
      await edit.tap();
      await expect(page.getByRole("button", { name: "Bold" })).toBeVisible();
    });
  });
});

test("on a desktop the owner's row of buttons stays, and no menu stands in for it", async ({
  page,
  signIn,
}) => {
  const owner = await signIn(page, newMember("desk"));
  const { ids } = await ownPage(page, owner.username);
  const first = page.locator(`#prism-${ids[0]}`);
  await expect(first.getByRole("button", { name: "Edit", exact: true })).toBeVisible();
  for (const control of rowControls(first)) await expect(control).toBeVisible();
  await expect(page.getByRole("button", { name: /^More actions for/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
