import type { Page } from "@playwright/test";
import {
  expect,
  expectHydrated,
  expectNoAxeViolations,
  expectToast,
  ORIGIN,
  test,
} from "./fixtures.ts";

function section(page: Page, title: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("button", { name: title }) });
}

test("a draft only its owner sees is published to the team, and appears on a teammate's open page @live", async ({
  page,
  browser,
  request,
  signIn,
}) => {
  const owner = await signIn(page);
  const headers = { origin: ORIGIN };
  const team = await page.request.post("/api/teams", { data: { name: "Field Notes" }, headers });
  expect(team.status(), await team.text()).toBe(201);
  const invite = await page.request.post(`/api/teams/${(await team.json()).slug}/invites`, {
    headers,
  });
  const token = new URL((await invite.json()).url).pathname.split("/invites/")[1];

  const teammateContext = await browser.newContext({ baseURL: ORIGIN });
  await signIn(teammateContext);
  const joined = await teammateContext.request.post(`/api/invites/${token}`, { headers });
  expect(joined.status(), await joined.text()).toBe(200);

  // The owner writes a draft: "Only me".
  await page.goto(`/${owner.username}`);
  // The form is the app's once its code has hydrated it (typed into before, React starts empty).
  await expectHydrated(page.getByLabel("Title"));
  await page.getByLabel("Title").fill("Tuesday notes");
  await page.getByRole("textbox", { name: "Content" }).fill("Ship the small thing first.");
  const audience = page.getByRole("group", { name: "Who can see this" });
  await expect(audience.getByRole("radio", { name: /^Public/ })).toBeChecked();
  await audience.getByRole("radio", { name: /^Only me/ }).check();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your new prism has been added.");
  const draft = section(page, "Tuesday notes");
  await expect(draft.getByText("Only me", { exact: true })).toBeVisible();

  // The page the server sends a visitor holds nothing of it: body, head and share card alike.
  const html = await (await request.get(`/${owner.username}`)).text();
  expect(html).toContain(`@${owner.username}`);
  expect(html).not.toContain("Tuesday notes");
  expect(html).not.toContain("Ship the small thing first.");

  // The teammate's open page does not show it.
  const teammatePage = await teammateContext.newPage();
  await teammatePage.goto(`/${owner.username}`);
  await expect(teammatePage.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(teammatePage.getByRole("button", { name: /Tuesday notes/ })).toHaveCount(0);

  // The owner publishes it to the team; the teammate's page shows it at once, labelled.
  const edit = draft.getByRole("button", { name: "Edit" });
  if (!(await edit.isVisible())) await draft.getByRole("button", { name: /Tuesday notes/ }).click();
  await edit.click();
  await audience.getByRole("radio", { name: /^Team/ }).check();
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your changes have been saved.");
  const title = draft.getByRole("button", { name: /Tuesday notes/ });
  await expect(title.getByText("Team", { exact: true })).toBeVisible();

  const shared = section(teammatePage, "Tuesday notes");
  await expect(shared).toBeVisible();
  await expect(shared.getByText("Team", { exact: true })).toBeVisible();

  // And back to a draft: it leaves the teammate's page as it came.
  if (!(await edit.isVisible())) await draft.getByRole("button", { name: /Tuesday notes/ }).click();
  await edit.click();
  await audience.getByRole("radio", { name: /^Only me/ }).check();
  await page.getByRole("button", { name: "Save" }).click();
  // The label beside the title (the editor, until it closes, names the audiences too).
  await expect(title.getByText("Only me", { exact: true })).toBeVisible();
  await expect(teammatePage.getByRole("button", { name: /Tuesday notes/ })).toHaveCount(0);
  await teammateContext.close();
});
