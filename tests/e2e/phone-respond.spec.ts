// Responding on a phone: a passage selected by touch leads to the dialog through the Respond
// button, the dialog speaks of touch, and the stored quote is whole words.
import {
  expect,
  expectNoAxeViolations,
  expectToast,
  keepStatusLink,
  newMember,
  test,
} from "./fixtures.ts";
import { phone, touchSelect } from "./phone.ts";

test.use(phone);

const CONTENT =
  "<p>Please tell me plainly what you saw, not what you <em>guessed</em>.</p><p>I would rather hear it today than read it next week.</p>";

test("a phone visitor selects a passage by touch, taps Respond and responds in whole words", async ({
  page,
  addOwner,
}) => {
  // Touch selection, the dialog's two steps (the response, then its private link), three axe checks.
  test.slow();
  const {
    member: owner,
    ids: [prismId],
  } = await addOwner([{ title: "How to tell me things", content: CONTENT }], newMember("plain"));

  await page.goto(`/${owner.username}`);
  await expect(page.getByText("I would rather hear it today")).toBeVisible();
  // The selection starts inside "tell" and ends inside "plainly".
  const selected = await touchSelect(
    page.locator(`#prism-${prismId} .prism-content`),
    ["tell", 1],
    ["plainly", 4],
  );
  const respond = page.getByRole("button", { name: "Respond", exact: true });
  await expect(respond).toBeVisible();

  // Below the passage (the phone's own selection menu sits above it), inside the prism's section.
  const button = await respond.boundingBox();
  const section = await page.locator(`#prism-${prismId}`).boundingBox();
  if (!button || !section) throw new Error("no boxes");
  expect(button.y).toBeGreaterThanOrEqual(selected.bottom);
  expect(button.x).toBeGreaterThanOrEqual(section.x);
  expect(button.x + button.width).toBeLessThanOrEqual(section.x + section.width);
  expect(button.y + button.height).toBeLessThanOrEqual(section.y + section.height);
  // Nothing opened by itself: the selection is still the reader's, to copy if they like.
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await page.evaluate(() => document.getSelection()?.toString())).toBe("ell me plai");
  await expectNoAxeViolations(page);

  await respond.tap();
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  await expect(dialog.getByText("tell me plainly", { exact: true })).toBeVisible();
  // Hints for a touch screen, none for a keyboard.
  await expect(dialog.getByText("Tap Respond to send.")).toBeVisible();
  await expect(dialog.getByText("Enter to send, Shift+Enter for a new line.")).toHaveCount(0);
  await expect(dialog.getByLabel("Your thought")).toHaveAttribute("enterkeyhint", "send");
  await dialog.getByLabel("Your thought").fill("Plain words save us both a week.");
  await dialog.getByRole("button", { name: "Respond" }).tap();
  await expectToast(page, "Your response has been submitted successfully.");
  await keepStatusLink(page);
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await expect(sidebar.getByText("Plain words save us both a week.")).toBeVisible();
  await expectNoAxeViolations(page);

  // What is stored is whole words, at the offsets of the prism's text.
  const [stored] = await (await page.request.get(`/api/prisms/${prismId}/annotations`)).json();
  expect(stored).toMatchObject({
    selectedText: "tell me plainly",
    selectionStart: "Please ".length,
    selectionEnd: "Please tell me plainly".length,
  });

  // Picking a passage in the dialog instead opens no on-screen keyboard in a box that takes no typing.
  await sidebar.getByRole("button", { name: "Close" }).tap();
  await expect(sidebar).toBeHidden();
  await page.getByRole("button", { name: "Respond to a passage" }).tap();
  const picker = page.getByRole("dialog", { name: "Respond to this passage" });
  const passage = picker.getByLabel("Select the words you want to respond to");
  await expect(passage).toHaveAttribute("inputmode", "none");
  await expect(passage).not.toBeEditable();
  await expect(
    picker.getByText("Touch and hold a word, then drag the handles to select."),
  ).toBeVisible();
  await expect(picker.getByText("Use Shift and the arrow keys to select.")).toHaveCount(0);
  await expectNoAxeViolations(page);
});
