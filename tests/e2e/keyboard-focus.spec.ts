// With the keyboard alone, the focus is kept where the next key is meant for (issue 37).
import { addPrism, expect, expectHydrated, newMember, PASSWORD, test } from "./fixtures.ts";

test("Edit and Add a prism put the focus in the editor's title", async ({ page, signIn }) => {
  const owner = await signIn(page, newMember("editor"));
  await addPrism(page.request, { title: "Mornings", content: "<p>Mornings matter.</p>" });
  await page.goto(`/${owner.username}`);
  const edit = page.getByRole("button", { name: "Edit", exact: true });
  await expectHydrated(edit);

  await edit.focus();
  await page.keyboard.press("Enter");
  const title = page.getByLabel("Title");
  await expect(title).toBeFocused();
  await page.keyboard.type(" first");
  await expect(title).toHaveValue("Mornings first");
  await page.getByRole("button", { name: "Cancel" }).focus();
  await page.keyboard.press("Enter");

  const add = page.getByRole("button", { name: "Add a prism" });
  await add.focus();
  await page.keyboard.press("Enter");
  await expect(title).toBeFocused();
  await page.keyboard.type("Evenings");
  await expect(title).toHaveValue("Evenings");
});

test("Space toggles a heart and keeps the focus on it, so a second Space toggles it back", async ({
  page,
  signIn,
  addOwner,
}) => {
  const { member } = await addOwner([{ title: "Mornings", content: "<p>Mornings matter.</p>" }]);
  await signIn(page, newMember("reader"));
  await page.goto(`/${member.username}`);
  const heart = page.getByRole("button", { name: /hearts? for "Mornings"/ }).first();
  await expectHydrated(heart);

  await heart.focus();
  await page.keyboard.press("Space");
  await expect(heart).toHaveAttribute("aria-pressed", "true");
  await expect(heart).toHaveText(/^1/);
  await expect(heart).toBeFocused();

  await page.keyboard.press("Space");
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  await expect(heart).toHaveText(/^0/);
  await expect(heart).toBeFocused();
});

test("the Responses panel gives the focus back to its button when it closes", async ({
  page,
  addOwner,
}) => {
  const { member } = await addOwner([{ title: "Mornings", content: "<p>Mornings matter.</p>" }]);
  await page.goto(`/${member.username}`);
  const responses = page.getByRole("button", { name: "Responses (0)" });
  await expectHydrated(responses);
  const panel = page.getByRole("dialog", { name: "Responses" });

  // Closed with Escape.
  await responses.focus();
  await page.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(responses).toBeFocused();

  // Closed with its Close button, reached with Tab.
  await page.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  const close = panel.getByRole("button", { name: "Close" });
  while (!(await close.evaluate((button) => button === document.activeElement))) {
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await expect(panel).toBeHidden();
  await expect(responses).toBeFocused();
});

test("after signing in, the focus is on the member's page, not lost", async ({
  page,
  addMember,
}) => {
  const member = await addMember(newMember("signer"));
  await page.goto("/sign-in");
  const username = page.getByLabel("Username");
  await expectHydrated(username);
  await username.focus();
  await page.keyboard.type(member.username);
  await page.keyboard.press("Tab");
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/${member.username}`);

  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
});
