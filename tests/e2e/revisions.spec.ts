import type { Page } from "@playwright/test";
import {
  addPrism,
  expect,
  expectNoAxeViolations,
  expectToast,
  newMember,
  ORIGIN,
  respond,
  test,
} from "./fixtures.ts";

function section(page: Page, title: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("button", { name: title }) });
}

/** Replaces the open prism's text in its editor and saves it. */
async function rewrite(page: Page, title: string, text: string) {
  await section(page, title).getByRole("button", { name: "Edit" }).click();
  const editor = page.getByRole("textbox", { name: "Content" });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your changes have been saved.");
  await expect(section(page, title).locator(".prism-content")).toHaveText(text);
}

test("an owner edits twice, reads the changes in History and restores the first version", async ({
  page,
  browser,
  signIn,
}) => {
  test.slow();
  const owner = await signIn(page);
  const title = "How I plan";
  await addPrism(page.request, { title, content: "<p>I plan my week on Sunday evening.</p>" });
  await page.goto(`/${owner.username}`);
  await expect(section(page, title).getByText(/^Edited /)).toHaveCount(0);

  await rewrite(page, title, "I plan my week on Monday morning.");
  await rewrite(page, title, "I plan my week on Monday morning, with coffee.");
  await expect(section(page, title).getByText(/^Edited /)).toBeVisible();

  await section(page, title).getByRole("button", { name: "History" }).click();
  const history = page.getByRole("dialog", { name: "History" });
  const versions = history.getByRole("navigation", { name: "Versions" }).getByRole("button");
  await expect(versions).toHaveText([/^Version 3 \(current\)/, /^Version 2/, /^Version 1/]);
  await expect(history.getByRole("heading", { name: "Version 3 (current)" })).toBeVisible();
  await expect(history.locator("ins")).toHaveText(["[added: , with coffee]"]);
  await expect(history.locator("del")).toHaveCount(0);

  await versions.filter({ hasText: "Version 2" }).click();
  await expect(history.getByRole("heading", { name: "Version 2" })).toBeVisible();
  await expect(history.locator("del")).toHaveText(["[removed: Sunday evening]"]);
  await expect(history.locator("ins")).toHaveText(["[added: Monday morning]"]);
  await expect(history.getByText("Changes since version 1")).toBeVisible();
  await expectNoAxeViolations(page);

  await versions.filter({ hasText: "Version 1" }).click();
  await expect(history.getByText("The oldest version kept.")).toBeVisible();
  await history.getByRole("button", { name: "Restore this version" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Restore version 1?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Restore" }).click();
  await expectToast(page, "Your changes have been saved.");
  await expect(versions).toHaveText([
    /^Version 4 \(current\)/,
    /^Version 3/,
    /^Version 2/,
    /^Version 1/,
  ]);
  await expect(history.getByRole("heading", { name: "Version 4 (current)" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(history).toBeHidden();
  await expect(section(page, title).locator(".prism-content")).toHaveText(
    "I plan my week on Sunday evening.",
  );

  // A reader sees that the prism changed, and nothing of its history.
  const reader = await browser.newContext({ baseURL: ORIGIN });
  const visitor = await reader.newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(section(visitor, title).getByText(/^Edited /)).toBeVisible();
  await expect(visitor.getByRole("button", { name: "History" })).toHaveCount(0);
  await reader.close();
});

test("a response whose passage was edited away shows it on the earlier version, which the owner can open", async ({
  page,
  browser,
  signIn,
}) => {
  // On a phone's width: the sidebar and the History view stack their parts.
  await page.setViewportSize({ width: 360, height: 740 });
  const owner = await signIn(page);
  const title = "How I listen";
  const content = "<p>I listen first and ask questions after.</p><p>I write down what I heard.</p>";
  const prismId = await addPrism(page.request, { title, content });
  const readerContext = await browser.newContext({ baseURL: ORIGIN });
  await signIn(readerContext, newMember("reader"));
  await respond(readerContext.request, {
    prismId,
    content,
    quote: "ask questions after",
    annotationText: "Questions after, always.",
  });
  await readerContext.close();
  const saved = await page.request.put(`/api/prisms/${prismId}`, {
    data: { title, content: "<p>I speak up early.</p><p>I write down what I heard.</p>" },
    headers: { origin: ORIGIN },
  });
  expect(saved.status()).toBe(200);

  await page.goto(`/${owner.username}`);
  await section(page, title)
    .getByRole("button", { name: /^Responses/ })
    .click();
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  const card = sidebar.getByRole("listitem").filter({ hasText: "Questions after, always." });
  await expect(card).toContainText(
    "On an earlier version: …I listen first and ask questions after. I write down what I heard.…",
    { useInnerText: true },
  );
  await expect(card.locator("strong")).toHaveText("ask questions after");
  await card.getByRole("button", { name: "Open that version" }).click();
  const history = page.getByRole("dialog", { name: "History" });
  await expect(history.getByRole("heading", { name: "Version 1" })).toBeVisible();
  await expect(history).toContainText("I listen first and ask questions after.");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
});
