// The landing page's example prism: a signed-out visitor tries what a reader does (selects a
// passage with the mouse or the keyboard, presses Respond, writes a thought), sees the simulated
// save, then the response as the prism's owner would, and nothing is sent anywhere.
import { dragSelect, expect, expectNoAxeViolations, expectToast, test } from "./fixtures.ts";
import { EXAMPLE_TITLE, highlighted, openExample, responseTo, watchRequests } from "./landing.ts";

test("the landing page arrives with its copy and the example prism's text in the HTML", async ({
  page,
}) => {
  const html = await (await page.request.get("/")).text();
  for (const text of [
    "Say who you are.",
    "Get Started",
    "How Prism works",
    "What a prism reads like",
    EXAMPLE_TITLE,
    "Tell me early and tell me plainly.",
    "Respond to a passage",
  ]) {
    expect(html).toContain(text);
  }
});

test("a visitor selects a passage with the mouse, responds, sees the simulated save, then the response as the owner would; nothing is sent", async ({
  page,
}) => {
  // Three checks by axe on a long page: a long story on a busy machine.
  test.slow();
  await page.clock.install();
  const { content } = await openExample(page);
  await expectNoAxeViolations(page);
  const sent = watchRequests(page);

  // A drag from inside "tell" to inside "plainly" is answered in whole words.
  await dragSelect(page, content, "ell me plai");
  await page.getByRole("button", { name: "Respond", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  await expect(dialog.getByText("tell me plainly", { exact: true })).toBeVisible();
  const send = dialog.getByRole("button", { name: "Respond" });
  await expect(send).toBeDisabled();
  await expect(dialog.getByText("Enter to send, Shift+Enter for a new line.")).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel("Your thought").fill("Plain words save us both a week.");
  await dialog.getByLabel("Name").fill("Sam");
  await expect(send).toBeEnabled();

  // The save is simulated: it takes half a second of the page's time, then the response shows.
  // (While the page's clock stands still it draws no frames, so the button is pressed with the
  // keyboard: a click would wait for frames to see that the button stands still.)
  await send.focus();
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000);
  await page.keyboard.press("Enter");
  await page.clock.runFor(1);
  await expect(dialog.getByRole("button", { name: "Sending..." })).toBeDisabled();
  await page.clock.runFor(498);
  await expect(dialog.getByRole("button", { name: "Sending..." })).toBeDisabled();
  await expect(page.getByRole("list", { name: "Responses" })).toHaveCount(0);
  await page.clock.runFor(1);
  await page.clock.resume();
  await expect(dialog).toBeHidden();
  await expectToast(page, "Your response has been submitted successfully.");
  const response = responseTo(page, "tell me plainly");
  await expect(response).toBeFocused();
  await expect(response.getByText("Sam (visitor)")).toBeVisible();
  await expect(response.getByText("Plain words save us both a week.")).toBeVisible();
  await expect(response.getByText("This annotation is pending approval.")).toBeVisible();
  await expect(response.getByRole("button", { name: "Reject" })).toBeVisible();
  await expect.poll(() => highlighted(page)).toEqual(["tell me plainly"]);
  await expectNoAxeViolations(page);

  // The owner's approval, too, is the page's alone: the passage stays highlighted.
  await response.getByRole("button", { name: "Approve" }).click();
  await expectToast(page, "The annotation has been approved and is now visible to others.");
  await expect(response.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(response.getByText("This annotation is pending approval.")).toHaveCount(0);
  await expect.poll(() => highlighted(page)).toEqual(["tell me plainly"]);
  expect(sent).toEqual([]);
});

test("a visitor selects a passage with Shift and the arrows, responds from the keyboard, and the owner's Reject sets it aside; nothing is sent", async ({
  page,
}) => {
  const { content } = await openExample(page);
  const sent = watchRequests(page);

  // A word picked with a double click, stretched with Shift and the arrows into the next word, is
  // answered in whole words; Tab reaches Respond, Enter sends.
  await content.scrollIntoViewIfNeeded();
  const monday = await content.evaluate((root) => {
    const text = root.querySelector("p")?.firstChild as Text;
    const range = document.createRange();
    const at = text.data.indexOf("Monday");
    range.setStart(text, at);
    range.setEnd(text, at + "Monday".length);
    const box = range.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  });
  await page.mouse.dblclick(monday.x, monday.y);
  for (let i = 0; i < " th".length; i++) await page.keyboard.press("Shift+ArrowRight");
  await expect
    .poll(() => page.evaluate(() => document.getSelection()?.toString()))
    .toBe("Monday th");
  const respond = page.getByRole("button", { name: "Respond", exact: true });
  await expect(respond).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(respond).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  await expect(dialog.getByText("Monday than", { exact: true })).toBeVisible();
  await expect(dialog.getByLabel("Your thought")).toBeFocused();
  await page.keyboard.type("Monday reviews are the place for it.");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  const response = responseTo(page, "Monday than");
  await expect(response).toBeFocused();
  await expect(response.getByText("Anonymous")).toBeVisible();
  await expect(response.getByText("This annotation is pending approval.")).toBeVisible();
  await expect.poll(() => highlighted(page)).toEqual(["Monday than"]);

  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(response.getByRole("button", { name: "Reject" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expectToast(page, "The annotation has been rejected.");
  await expect(response.getByText("Not approved")).toBeVisible();
  await expect(response.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect.poll(() => highlighted(page)).toEqual([]);
  expect(sent).toEqual([]);
});
