// Members own their page: pre-approving members' responses, and downloading all of their data.
import { readFile } from "node:fs/promises";
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

test("a member pre-approves members and downloads their data from Profile Settings", async ({
  page,
  browser,
  signIn,
}) => {
  const member = await signIn(page, newMember("owner"));
  const content = "<p>I plan the week on Monday.</p>";
  const prismId = await addPrism(page.request, { title: "How I plan", content });

  await page.goto("/profile");
  const preapprove = page.getByLabel("Pre-approve members");
  await expect(preapprove).not.toBeChecked();
  await preapprove.check();
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your profile has been updated successfully");
  await page.reload();
  await expect(page.getByLabel("Pre-approve members")).toBeChecked();
  await expectNoAxeViolations(page);

  // Another member responds: approved at once; the owner is told, with nothing left to decide.
  const readerContext = await browser.newContext({ baseURL: ORIGIN });
  await signIn(readerContext, newMember("reader"));
  const responded = await respond(readerContext.request, {
    prismId,
    content,
    quote: "Monday",
    annotationText: "Mondays work for me too.",
  });
  expect(responded).toMatchObject({ status: "approved" });
  await readerContext.close();
  await page.goto("/notifications");
  await expect(page.getByText("added an annotation to your Prism")).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve Annotation" })).toHaveCount(0);
  await page.goto("/profile");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download my data" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`prism-${member.username}.json`);
  const data = JSON.parse(await readFile(await download.path(), "utf8"));
  expect(data).toMatchObject({
    format: "prism-export",
    account: { username: member.username, preapproveMembers: true },
    prisms: [{ title: "How I plan", text: "I plan the week on Monday." }],
    annotationsReceived: [{ selectedText: "Monday", status: "approved" }],
    webAnnotations: { "@context": "http://www.w3.org/ns/anno.jsonld", total: 1 },
  });

  // At 360 px the settings still fit the screen.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(page.getByRole("link", { name: "Download my data" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
});
