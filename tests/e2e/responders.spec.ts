// Who may respond, per prism: the owner chooses in edit mode; visitors, members and the owner follow it.
import {
  addPrism,
  expect,
  expectHydrated,
  expectNoAxeViolations,
  expectToast,
  newMember,
  ORIGIN,
  PASSWORD,
  recordToasts,
  test,
} from "./fixtures.ts";

const CONTENT = "<p>I answer messages in the afternoon, never first thing.</p>";

test("members only asks a visitor to sign in and lets a member respond; no one closes responses for all", async ({
  page,
  browser,
  signIn,
  addMember,
}) => {
  test.slow();
  const owner = await signIn(page, newMember("owner"));
  const prismId = await addPrism(page.request, { title: "How I answer", content: CONTENT });

  // The owner, in edit mode, lets only members respond.
  await page.goto(`/${owner.username}`);
  const choice = page.getByLabel("Who may respond");
  await expect(choice).toHaveValue("anyone");
  await expectHydrated(choice);
  await choice.selectOption("members");
  await expectToast(page, "Your changes have been saved.");
  await expect(choice).toHaveValue("members");
  await expectNoAxeViolations(page);
  // On a small screen the choice is in the prism's menu, which fits the screen, and says it.
  await page.setViewportSize({ width: 360, height: 800 });
  const menu = page.getByRole("button", { name: 'More actions for "How I answer"' });
  await menu.scrollIntoViewIfNeeded();
  await menu.click();
  const members = page.getByRole("menuitemradio", { name: "Members only" });
  await expect(members).toBeChecked();
  await expect(members).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 1280, height: 800 });

  // A visitor is told why they cannot respond, and signs in to come back to the page.
  const visitorContext = await browser.newContext({ baseURL: ORIGIN });
  await recordToasts(visitorContext);
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/${owner.username}`);
  await visitor.getByRole("button", { name: "Respond to a passage" }).click();
  const dialog = visitor.getByRole("dialog", { name: "Respond to this passage" });
  await expect(
    dialog.getByText("Only members can respond to this prism. Sign in to respond."),
  ).toBeVisible();
  await expect(dialog.getByLabel("Your thought")).toHaveCount(0);
  await expectNoAxeViolations(visitor);
  await dialog.getByRole("button", { name: "Sign in" }).click();
  await expect(visitor).toHaveURL("/sign-in");
  const member = await addMember(newMember("reader"));
  await visitor.getByLabel("Username").fill(member.username);
  await visitor.getByLabel("Password").fill(PASSWORD);
  await visitor.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(visitor).toHaveURL(`/${owner.username}`);

  // Now a member, they respond to a passage with the keyboard.
  await visitor.getByRole("button", { name: "Respond to a passage" }).click();
  const form = visitor.getByRole("dialog", { name: "Respond to this passage" });
  const passage = form.getByLabel("Select the words you want to respond to");
  const quote = "I answer";
  await passage.focus();
  await visitor.keyboard.press("Control+Home");
  for (let i = 0; i < quote.length; i++) await visitor.keyboard.press("Shift+ArrowRight");
  await expect(form.getByText(quote, { exact: true })).toBeVisible();
  await form.getByLabel("Your thought").fill("Afternoons are calmer for me too.");
  await form.getByRole("button", { name: "Respond" }).click();
  await expectToast(visitor, "Your response has been submitted successfully.");

  // The owner closes responses: nobody gets the dialog, the owner neither; the response stays.
  await page.getByLabel("Who may respond").selectOption("no-one");
  await expect(page.getByLabel("Who may respond")).toHaveValue("no-one");
  await page.getByRole("button", { name: "Editing" }).click();
  await expect(page.getByText("This prism is not open to responses.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Respond to a passage" })).toHaveCount(0);
  await page.locator(`#prism-${prismId} .prism-content`).selectText();
  await page.mouse.up();
  await expect(page.getByRole("button", { name: "Respond", exact: true })).toHaveCount(0);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Responses (1)" })).toBeVisible();
  await expectNoAxeViolations(page);

  for (const reader of [visitor, await (await browser.newContext({ baseURL: ORIGIN })).newPage()]) {
    await reader.goto(`/${owner.username}`);
    await expect(reader.getByText("This prism is not open to responses.")).toBeVisible();
    await expect(reader.getByRole("button", { name: "Respond to a passage" })).toHaveCount(0);
    await reader.locator(`#prism-${prismId} .prism-content`).selectText();
    await reader.mouse.up();
    await expect(reader.getByRole("button", { name: "Respond", exact: true })).toHaveCount(0);
    await expect(reader.getByRole("dialog")).toHaveCount(0);
  }
  await visitorContext.close();
});

test("a prism open to anyone shows nothing new", async ({ page, addOwner }) => {
  const { member: owner } = await addOwner(
    [{ title: "Open", content: CONTENT }],
    newMember("open"),
  );
  await page.goto(`/${owner.username}`);
  await expect(page.getByRole("button", { name: "Respond to a passage" })).toBeVisible();
  await expect(page.getByText("This prism is not open to responses.")).toHaveCount(0);
  await expect(page.getByText(/Only members can respond/)).toHaveCount(0);
  // The same selection that offers nothing on a closed prism offers Respond here, which opens the dialog.
  await page.locator(".prism-content").selectText();
  await page.mouse.up();
  await page.getByRole("button", { name: "Respond", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Respond to this passage" })).toBeVisible();
});
