import type { Browser, Page } from "@playwright/test";
import {
  expect,
  expectNoAxeViolations,
  expectToast,
  type MemberFixtures,
  newMember,
  ORIGIN,
  readerAddress,
  respond,
  test,
  toggleHeart,
} from "./fixtures.ts";
import { phone } from "./phone.ts";

/** A member with one hearted prism that was edited afterwards, and a visitor's pending annotation on it. */
async function authorWithAnnotatedPrism(
  browser: Browser,
  addOwner: MemberFixtures["addOwner"],
  tag: string,
) {
  const title = `Deep work ${tag}`;
  const content = "<p>Mornings are for deep work.</p>";
  const {
    member: author,
    ids: [prismId],
    request,
  } = await addOwner([{ title, content }], newMember(`author${tag}`));
  const visitor = await browser.newContext({ baseURL: ORIGIN });
  await toggleHeart(visitor.request, prismId);
  await respond(visitor.request, {
    prismId,
    content,
    quote: "Mornings",
    annotationText: `Quiet hours matter ${tag}`,
    annotatorName: `Visitor ${tag}`,
  });
  const edited = await request.put(`/api/prisms/${prismId}`, {
    data: { title, content: "<p>Mornings are for deep work, afternoons for people.</p>" },
    headers: { origin: ORIGIN },
  });
  expect(edited.status()).toBe(200);
  await visitor.close();
  return { author, title, annotationText: `Quiet hours matter ${tag}` };
}

/** Opens a row's menu and picks an item. */
async function choose(page: Page, menu: string, item: string) {
  await page.getByRole("button", { name: menu }).click();
  await page.getByRole("menuitem", { name: item, exact: true }).click();
}

/** The names of the items a row's menu offers, then closes it. */
async function menuItems(page: Page, menu: string) {
  await page.getByRole("button", { name: menu }).click();
  const items = await page.getByRole("menuitem").allTextContents();
  await page.keyboard.press("Escape");
  return items;
}

async function search(page: Page, text: string) {
  await page.getByRole("searchbox").fill(text);
  // Debounced: the search lands in the URL once typing pauses.
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(text);
}

/** A random tag that only one story's rows carry: other stories add members of their own meanwhile. */
const newTag = () => Math.random().toString(36).slice(2, 8);

test("an admin's Overview shows the eight numbers and the chart of the last 30 days", async ({
  page,
  signIn,
}) => {
  await signIn(page, { ...newMember("admin"), isAdmin: true });
  const chartRequests: string[] = [];
  page.on("request", (request) => {
    if (/activity-chart/.test(request.url())) chartRequests.push(request.url());
  });

  // The chart arrives in its own chunk.
  await page.goto("/catalyst");
  await expect(page).toHaveTitle("Catalyst: Admin Dashboard | Prism");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Catalyst: Admin Dashboard");
  await expect(page.locator('meta[name="robots"]').first()).toHaveAttribute(
    "content",
    "noindex, nofollow",
  );
  for (const name of [
    "Overview",
    "Users",
    "Prisms",
    "Teams",
    "Annotations",
    "Messages",
    "Reports",
    "Audit",
  ]) {
    await expect(page.getByRole("tab", { name })).toBeVisible();
  }
  // This server has neither Google sign-in nor outgoing mail: the admin is told so.
  const missing = page.getByRole("region", {
    name: "Not configured on this server: Google sign-in, outgoing mail",
  });
  await expect(missing).toContainText("Members cannot sign in with Google.");
  await expect(missing).toContainText(
    "Prism cannot send email, so nobody can receive a password reset link.",
  );
  const cards = page.getByRole("list", { name: "Statistics" }).getByRole("listitem");
  await expect(cards).toHaveCount(8);
  await expect(cards.first()).toContainText("Total Users");
  await expect(cards.first()).toContainText("new this month");
  for (const name of [
    "Total Prisms",
    "Total Likes",
    "Total Annotations",
    "Active Today",
    "Active This Week",
    "New Today",
    "New This Week",
  ]) {
    await expect(cards.filter({ hasText: name })).toHaveCount(1);
  }
  await expect(page.getByRole("figure", { name: "The last 30 days (UTC)" })).toBeVisible();
  await expect(page.locator("canvas")).toBeVisible();
  expect(chartRequests.length).toBeGreaterThan(0);
  await expectNoAxeViolations(page);
});

test("an admin searches the members and pages through them, the view kept in the URL", async ({
  page,
  signIn,
  addMember,
}) => {
  const tag = newTag();
  await signIn(page, { ...newMember("admin"), isAdmin: true });
  // Eleven members to search for: two pages, newest first.
  let newest = await addMember(newMember(`cat${tag}0`));
  for (let i = 1; i < 11; i++) newest = await addMember(newMember(`cat${tag}${i}`));

  await page.goto("/catalyst");
  await page.getByRole("tab", { name: "Users" }).click();
  await expect(page).toHaveURL(/\?tab=users$/);
  await search(page, `cat${tag}`);
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  const rows = page.getByRole("region", { name: "Users" }).getByRole("row");
  await expect(rows).toHaveCount(11);
  await expect(rows.nth(1)).toContainText(`@${newest.username}`);
  await expect(rows.nth(1)).toContainText("User");
  await expect(rows.nth(1)).toContainText("Never");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`\\?tab=users&page=2&q=cat${tag}$`));
  await page.reload();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page.getByRole("searchbox")).toHaveValue(`cat${tag}`);
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
});

test("an admin changes a member's role and state from its menu, by keyboard too", async ({
  page,
  signIn,
  addMember,
}) => {
  // A long story: every role and state change, each from a menu, with axe along the way.
  test.slow();
  const admin = await signIn(page, { ...newMember("admin"), isAdmin: true });
  const target = await addMember(newMember(`cat${newTag()}`));
  await page.goto("/catalyst?tab=users");
  await search(page, target.username);
  const row = page.getByRole("region", { name: "Users" }).getByRole("row").nth(1);
  await expect(row).toContainText(`@${target.username}`);

  // Worked by keyboard alone: each item is hidden when it is the current state.
  const menu = `Actions for @${target.username}`;
  expect(await menuItems(page, menu)).toEqual([
    "Make Admin",
    "Deactivate",
    "Silence",
    "Reset Password",
  ]);
  await page.getByRole("button", { name: menu }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Make Admin" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expectToast(page, "User updated");
  await expect(row).toContainText("Admin");
  expect(await menuItems(page, menu)).toEqual([
    "Remove Admin",
    "Deactivate",
    "Silence",
    "Reset Password",
  ]);
  await choose(page, menu, "Remove Admin");
  await expectToast(page, "User updated");
  await expect(row.getByText("Admin", { exact: true })).toHaveCount(0);
  // Deactivate asks first, in the app's own dialog: Cancel changes nothing.
  const confirm = page.getByRole("alertdialog", { name: `Deactivate @${target.username}?` });
  await choose(page, menu, "Deactivate");
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("button", { name: menu })).toBeFocused();
  await expect(row.getByText("Deactivated")).toHaveCount(0);
  // By keyboard: the menu, its item, then the dialog's Deactivate.
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Deactivate" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(confirm.getByRole("button", { name: "Deactivate" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expectToast(page, "User deactivated");
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("button", { name: menu })).toBeFocused();
  await expect(row).toContainText("Deactivated");
  expect(await menuItems(page, menu)).toEqual([
    "Make Admin",
    "Reactivate",
    "Silence",
    "Reset Password",
  ]);
  await choose(page, menu, "Reactivate");
  await expectToast(page, "User reactivated");
  await expect(row.getByText("Deactivated")).toHaveCount(0);
  // This server cannot send e-mail: Reset Password is there, disabled, with the reason, and
  // choosing it by keyboard does nothing and keeps the menu open.
  const resets: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/reset-password")) resets.push(request.url());
  });
  await page.getByRole("button", { name: menu }).click();
  const reset = page.getByRole("menuitem", { name: "Reset Password" });
  await expect(reset).toHaveAttribute("aria-disabled", "true");
  await expect(reset).toHaveAccessibleDescription(
    "This site cannot send email, so no password reset email can be sent.",
  );
  await expect(
    page.getByText("This site cannot send email, so no password reset email can be sent."),
  ).toBeVisible();
  await page.keyboard.press("End");
  await expect(reset).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(reset).toBeVisible();
  expect(resets).toEqual([]);
  await page.keyboard.press("Escape");
  // An admin's own menu offers neither Remove Admin nor Deactivate.
  await search(page, admin.username);
  expect(await menuItems(page, `Actions for @${admin.username}`)).toEqual(["Reset Password"]);

  // The audit log tells what this admin did, with before and after.
  await page.goto("/catalyst?tab=audit");
  const auditRows = page
    .getByRole("region", { name: "Audit log" })
    .getByRole("row")
    .filter({ hasText: `@${admin.username}` });
  await expect(
    auditRows.filter({ hasText: "Deactivated user" }).filter({ hasText: `@${target.username}` }),
  ).toContainText("statusactive");
  await expectNoAxeViolations(page);
});

test("an admin moves an annotation through every status and deletes it after a confirm", async ({
  page,
  browser,
  signIn,
  addOwner,
}) => {
  // A long story: four statuses and two deletes, each from a menu, with axe along the way.
  test.slow();
  const tag = newTag();
  await signIn(page, { ...newMember("admin"), isAdmin: true });
  const { title, annotationText } = await authorWithAnnotatedPrism(browser, addOwner, tag);

  await page.goto("/catalyst");
  await page.getByRole("tab", { name: "Annotations" }).click();
  await expect(page).toHaveURL(/\?tab=annotations$/);
  await search(page, annotationText);
  const annotationRows = page.getByRole("region", { name: "Annotations" }).getByRole("row");
  await expect(annotationRows).toHaveCount(2);
  const annotationRow = annotationRows.nth(1);
  await expect(annotationRow).toContainText(annotationText);
  await expect(annotationRow).toContainText(title);
  // An anonymous author is named as a visitor, as everywhere owners and readers see them.
  await expect(annotationRow).toContainText(`Visitor ${tag} (visitor)`);
  await expect(annotationRow).toContainText("Pending");
  await expectNoAxeViolations(page);
  const annotationMenu = `Actions for the annotation "${annotationText}"`;
  expect(await menuItems(page, annotationMenu)).toEqual([
    "Approve",
    "Reject",
    "Mark as Spam",
    "Delete",
  ]);
  await choose(page, annotationMenu, "Approve");
  await expectToast(page, "Annotation status updated");
  await expect(annotationRow).toContainText("Approved");
  expect(await menuItems(page, annotationMenu)).toEqual([
    "Reject",
    "Set to Pending",
    "Mark as Spam",
    "Delete",
  ]);
  await choose(page, annotationMenu, "Reject");
  await expect(annotationRow).toContainText("Rejected");
  expect(await menuItems(page, annotationMenu)).toEqual([
    "Approve",
    "Set to Pending",
    "Mark as Spam",
    "Delete",
  ]);
  await choose(page, annotationMenu, "Mark as Spam");
  await expect(annotationRow).toContainText("Spam");
  expect(await menuItems(page, annotationMenu)).toEqual([
    "Approve",
    "Reject",
    "Set to Pending",
    "Delete",
  ]);
  await choose(page, annotationMenu, "Set to Pending");
  await expect(annotationRow).toContainText("Pending");
  const confirms: string[] = [];
  page.once("dialog", (dialog) => {
    confirms.push(dialog.message());
    void dialog.dismiss();
  });
  await choose(page, annotationMenu, "Delete");
  await expect.poll(() => confirms.length).toBe(1);
  await expect(annotationRow).toContainText(annotationText);
  page.once("dialog", (dialog) => {
    confirms.push(dialog.message());
    void dialog.accept();
  });
  await choose(page, annotationMenu, "Delete");
  await expectToast(page, "Annotation deleted");
  await expect(page.getByText(`No results for "${annotationText}".`)).toBeVisible();
  expect(confirms).toEqual([
    "Are you sure you want to delete this annotation? This action cannot be undone.",
    "Are you sure you want to delete this annotation? This action cannot be undone.",
  ]);
});

test("an admin views and deletes a prism, and the audit log tells it", async ({
  page,
  browser,
  signIn,
  addOwner,
}) => {
  // A table, an accessibility pass, a delete and the audit log: a long story on a busy machine.
  test.slow();
  const admin = await signIn(page, { ...newMember("admin"), isAdmin: true });
  const { author, title } = await authorWithAnnotatedPrism(browser, addOwner, newTag());

  // Likes with the edited mark, annotation count, View, and the delete confirm.
  await page.goto("/catalyst?tab=prisms");
  await search(page, title);
  const prismRow = page.getByRole("region", { name: "Prisms" }).getByRole("row").nth(1);
  await expect(prismRow).toContainText(title);
  await expect(prismRow).toContainText(`@${author.username}`);
  await expect(prismRow.getByRole("cell").nth(2)).toHaveText("1* (edited after receiving likes)");
  await expect(prismRow.getByRole("cell").nth(3)).toHaveText("1");
  await expectNoAxeViolations(page);
  await choose(page, `Actions for "${title}"`, "View");
  await expect(page).toHaveURL(new RegExp(`/${author.username}(\\?prism=\\d+)?$`));
  await page.goBack();
  await expect(prismRow).toContainText(title);
  const confirms: string[] = [];
  page.once("dialog", (dialog) => {
    confirms.push(dialog.message());
    void dialog.accept();
  });
  await choose(page, `Actions for "${title}"`, "Delete");
  await expectToast(page, "Prism deleted");
  await expect(page.getByText(`No results for "${title}".`)).toBeVisible();
  expect(confirms).toEqual([
    "Are you sure you want to delete this prism? This action cannot be undone.",
  ]);
  await page.goto(`/${author.username}`);
  await expect(page.getByText("hasn't added any prisms yet")).toBeVisible();

  // Newest first (other stories' admins may act meanwhile).
  await page.goto("/catalyst?tab=audit");
  const auditRows = page
    .getByRole("region", { name: "Audit log" })
    .getByRole("row")
    .filter({ hasText: `@${admin.username}` });
  await expect(auditRows.first()).toContainText("Deleted prism");
  await expect(auditRows.first()).toContainText(title);
  await expect(auditRows.first()).toContainText(`author${author.username}`);
  await expectNoAxeViolations(page);
});

test("at 360 px every table row is a card, its cells named by their column, nothing wider than the phone", async ({
  page,
  signIn,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const admin = await signIn(page, { ...newMember("admin"), isAdmin: true });
  await page.goto("/catalyst?tab=users");
  const region = page.getByRole("region", { name: "Users" });
  const row = region.getByRole("row").filter({ hasText: `@${admin.username}` });
  await expect(row).toBeVisible();
  // A screen reader still reads a table: the header row is there, only not drawn.
  await expect(region.getByRole("columnheader", { name: "Email" })).toBeAttached();
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const email = row.getByRole("cell").nth(2);
  await expect(email).toHaveText(admin.email);
  expect(await email.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe(
    '"Email"',
  );
  // The label sits beside the value, on one line with it.
  const [label, value] = await email.evaluate((cell) => {
    const box = cell.getBoundingClientRect();
    const inner = (cell.firstElementChild as HTMLElement).getBoundingClientRect();
    return [box.left, inner.left];
  });
  expect(value).toBeGreaterThan(label + 60);
  await expectNoAxeViolations(page);
});

test("a visitor's contact message is kept and an admin reads it in Messages, on a phone too", async ({
  page,
  browser,
  signIn,
}) => {
  const tag = newTag();
  // The visitor writes from a phone, from an address of their own (the form's limit is per address).
  const visitor = await browser.newContext({
    ...phone,
    baseURL: ORIGIN,
    extraHTTPHeaders: { "x-forwarded-for": readerAddress() },
  });
  const form = await visitor.newPage();
  await form.goto("/contact");
  await form.getByLabel("Name").fill(`Noor ${tag}`);
  await form.getByLabel("Email").fill(`noor.${tag}@example.com`);
  await form.getByLabel("Subject").fill(`Passages ${tag}`);
  await form.getByLabel("Message").fill(`The way answers point at a passage is lovely ${tag}.`);
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(form.getByText("Your message reached us.")).toBeVisible();
  await visitor.close();

  // This server has no CONTACT_TO: the message is in Catalyst all the same.
  await signIn(page, { ...newMember("admin"), isAdmin: true });
  await page.goto("/catalyst");
  await page.getByRole("tab", { name: "Messages" }).click();
  await expect(page).toHaveURL(/\?tab=messages$/);
  const table = page.getByRole("region", { name: "Messages" });
  const row = table.getByRole("row").filter({ hasText: `Passages ${tag}` });
  await expect(row).toContainText(`Noor ${tag}`);
  await expect(row.getByRole("link", { name: `noor.${tag}@example.com` })).toHaveAttribute(
    "href",
    `mailto:noor.${tag}@example.com`,
  );
  await expect(row).toContainText(`The way answers point at a passage is lovely ${tag}.`);
  await expect(table.getByRole("columnheader")).toHaveText([
    "Name",
    "Email",
    "Message",
    "Received",
  ]);
  await expectNoAxeViolations(page);

  // At 360 px the table scrolls inside the page, which stays as wide as the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(row).toContainText(`Noor ${tag}`);
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  await expectNoAxeViolations(page);
});

test("a member is turned away with a toast, and a visitor is sent to sign in", async ({
  page,
  browser,
  signIn,
}) => {
  await signIn(page);
  await page.goto("/catalyst");
  await expectToast(page, "Access Denied", "You don't have permission to access this page.");
  await expect(page).toHaveURL(`${ORIGIN}/`);

  const visitor = await browser.newPage({ baseURL: ORIGIN });
  await visitor.goto("/catalyst?tab=users");
  await expect(visitor).toHaveURL(`${ORIGIN}/sign-in`);
  expect(await visitor.evaluate(() => localStorage.getItem("prism:last-page"))).toBe(
    "/catalyst?tab=users",
  );
  await visitor.close();
});

test("a visitor's profile page loads no Catalyst or chart code", async ({ page, addOwner }) => {
  const { member } = await addOwner(
    [{ title: "How I work", content: "<p>Mornings are for deep work.</p>" }],
    newMember("profile"),
  );

  const scripts: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(response.url());
  });
  await page.goto(`/${member.username}`);
  await expect(page.getByRole("heading", { level: 1, name: "Robin Quill" })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /catalyst|activity-chart/.test(url))).toEqual([]);
  // Nor is uPlot bundled into any script the page did load.
  for (const url of scripts) {
    const body = await (await page.request.get(url)).text();
    expect(body.includes("u-legend"), url).toBe(false);
  }
});
