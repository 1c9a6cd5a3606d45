import type { Page } from "@playwright/test";
import {
  addPrism,
  expect,
  expectNoAxeViolations,
  expectToast,
  ORIGIN,
  test,
  toggleHeart,
} from "./fixtures.ts";

function section(page: Page, title: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("button", { name: title }) });
}

test("an owner writes, formats, reorders and deletes prisms", async ({ page, signIn }) => {
  // A long story with an accessibility check at each of its five views: the slow-test budget.
  test.slow();
  const member = await signIn(page);
  await page.goto(`/${member.username}`);
  await expect(page.getByRole("button", { name: "Editing" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // The first prism, from the empty profile's first-prism area.
  await expect(page.getByPlaceholder("Let's give them something to talk about.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Content" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Title").fill("How I give feedback");
  const editor = page.getByRole("textbox", { name: "Content" });
  await editor.click();
  await page.keyboard.type("Plain start. ");
  await page.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type("strong words");
  await page.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type(" then ");
  await page.getByRole("button", { name: "Italic" }).click();
  await page.keyboard.type("leaning");
  await page.getByRole("button", { name: "Italic" }).click();
  await page.keyboard.type(" and ");
  await page.getByRole("button", { name: "Underline" }).click();
  await page.keyboard.type("underlined");
  await page.getByRole("button", { name: "Underline" }).click();
  await page.keyboard.type(" and a site");
  await page.keyboard.down("Shift");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
  await page.keyboard.up("Shift");
  await page.getByRole("button", { name: "Link", exact: true }).click();
  const address = page.getByLabel("Link address");
  await expect(address).toHaveValue("https://");
  await expect(page.getByRole("button", { name: "Apply" })).toBeDisabled();
  await expectNoAxeViolations(page);
  await address.fill("https://prism.example/about");
  await address.press("Enter");
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your new prism has been added.");

  const first = section(page, "How I give feedback");
  await expect(first.locator("strong")).toHaveText("strong words");
  await expect(first.locator("em")).toHaveText("leaning");
  await expect(first.locator("u")).toHaveText("underlined");
  const link = first.getByRole("link", { name: "site" });
  await expect(link).toHaveAttribute("href", "https://prism.example/about");
  await expect(link).toHaveAttribute("target", "_blank");

  // A second prism, then reorder and delete.
  await page.getByRole("button", { name: "Add a prism" }).click();
  await page.getByLabel("Title").fill("My best hours");
  await page.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Mornings, before anyone else is awake.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("button", { name: /02\.\s*My best hours/ })).toBeVisible();

  await expectNoAxeViolations(page);
  await section(page, "My best hours").getByRole("button", { name: "Move Up" }).click();
  await expect(page.getByRole("button", { name: /01\.\s*My best hours/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /02\.\s*How I give feedback/ })).toBeVisible();

  await section(page, "How I give feedback").getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Title").fill("How I give and take feedback");
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your changes have been saved.");
  await expect(
    page.getByRole("button", { name: /02\.\s*How I give and take feedback/ }),
  ).toBeVisible();

  await section(page, "My best hours").getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("alertdialog", {
    name: "Are you sure you want to delete this prism?",
  });
  await expect(
    dialog.getByText("This action cannot be undone. This will permanently delete your prism."),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "The prism has been removed.");
  await expect(page.getByRole("button", { name: /My best hours/ })).toHaveCount(0);
  await expect(
    page.getByRole("button", { name: /01\.\s*How I give and take feedback/ }),
  ).toBeVisible();

  await page.getByRole("button", { name: "Editing" }).click();
  await expect(page.getByRole("button", { name: "Viewing" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit" })).toHaveCount(0);
});

test("changing the title of a hearted prism asks before resetting its hearts", async ({
  page,
  browser,
  signIn,
}) => {
  const member = await signIn(page);
  const prismId = await addPrism(page.request, {
    title: "Loved",
    content: "<p>Words people liked.</p>",
  });
  const fan = await browser.newContext({ baseURL: ORIGIN });
  await toggleHeart(fan.request, prismId);
  await fan.close();

  await page.goto(`/${member.username}`);
  await section(page, "Loved").getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Title").fill("Loved, renamed");
  await page.getByRole("button", { name: "Save" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Reset hearts?" });
  await expect(
    dialog.getByText(
      "Changing the title will reset all hearts on this prism. Hearts are reset when titles change because it might significantly alter the content's meaning or context.",
    ),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expectToast(page, "Your changes have been saved.");
  await expect(page.getByRole("button", { name: '0 hearts for "Loved, renamed"' })).toBeVisible();
});

test("an anonymous visitor hearts and un-hearts a prism", async ({ page, addOwner }) => {
  const { member } = await addOwner([
    { title: "Disagree with me like this", content: "<p>Early and plainly.</p>" },
  ]);
  await page.goto(`/${member.username}`);
  await expect(page.getByText(`@${member.username}`)).toBeVisible();
  const heart = page.getByRole("button", { name: /for "Disagree with me like this"/ });
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  await expect(heart).toContainText("0");
  await heart.click();
  const unheart = page.getByRole("button", {
    name: '1 heart for "Disagree with me like this"',
  });
  await expect(unheart).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await unheart.click();
  await expect(
    page.getByRole("button", { name: '0 hearts for "Disagree with me like this"', pressed: false }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a visitor to a profile without prisms is asked to wait for them", async ({
  page,
  addMember,
}) => {
  const member = await addMember();
  await page.goto(`/${member.username}`);
  await expect(
    page.getByText("Robin Quill hasn't added any prisms yet, but just you wait."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Editing" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a deep link by slug opens and scrolls to its section; a visitor never loads the owner's editor, form or controls", async ({
  page,
  addOwner,
}) => {
  const filler =
    "<p>A long paragraph that takes up room on the page so that scrolling has somewhere to go.</p>".repeat(
      12,
    );
  const { member } = await addOwner([
    { title: "First things", content: filler },
    { title: "Second thoughts", content: filler },
    { title: "What's my best hour?", content: "<p>The deep-linked words.</p>" },
  ]);
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  const code: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") code.push(response.text());
  });
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto(`/${member.username}/whats-my-best-hour`);
  const target = page.getByText("The deep-linked words.");
  await expect(target).toBeVisible();
  await expect(target).toBeInViewport();
  await expect(page.getByRole("button", { name: /03\.\s*What's my best hour\?/ })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  expect(scripts.some((url) => /prism-editor/.test(url))).toBe(false);
  expect(scripts.length).toBeGreaterThan(0);
  // Nor the prism form ("Saving...") or the owner's controls ("Who may respond"), by their words.
  await page.waitForLoadState("networkidle");
  const loaded = await Promise.all(code);
  expect(loaded.filter((text) => /Saving\.\.\.|Who may respond/.test(text)).length).toBe(0);
  expect(loaded.some((text) => text.includes("just you wait"))).toBe(true);
});

test("?prism= opens that section and leaves the address; a malformed id is ignored", async ({
  page,
  addOwner,
}) => {
  const { member, ids } = await addOwner([
    { title: "Alpha", content: "<p>alpha words</p>" },
    { title: "Beta", content: "<p>beta words</p>" },
  ]);
  await page.goto(`/${member.username}?prism=${ids[1]}`);
  await expect(page.getByText("beta words")).toBeVisible();
  await expect(page).toHaveURL(`/${member.username}`);
  await page.goto(`/${member.username}?prism=1;DROP`);
  await expect(page.getByText("alpha words")).toBeVisible();
  await expect(page).toHaveURL(`/${member.username}`);
});
