// Catalyst's Federation tab: an admin sees the delivery queue, blocks a server by its domain
// (a wrong domain is named as such), limits it from its row's menu, and finds both in the audit
// log; at 360 px the domains are cards and nothing is wider than the phone. Axe-clean throughout.
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, expectToast, newMember, ORIGIN, test } from "./fixtures.ts";

/** A domain only this run names. */
const newDomain = () => `spam-${Math.random().toString(36).slice(2, 8)}.example`;

/** The row of `domain` in the tab's table. */
const domainRow = (page: Page, domain: string) =>
  page.getByRole("region", { name: "Other servers" }).getByRole("row").filter({ hasText: domain });

test("an admin blocks a server by its domain, limits it from its row, and the audit log tells it", async ({
  page,
  signIn,
}) => {
  test.slow();
  const admin = await signIn(page, { ...newMember("admin"), isAdmin: true });
  await page.goto("/catalyst?tab=federation");
  const queue = page.getByRole("list", { name: "Delivery queue" });
  await expect(queue).toContainText("Waiting in the queue");
  await expect(queue).toContainText("Failed deliveries");
  await expectNoAxeViolations(page);

  const field = page.getByLabel("Domain", { exact: true });
  await field.fill("not a domain");
  await page.getByRole("button", { name: "Block", exact: true }).click();
  await expect(page.getByText("Enter a domain, like example.social")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  const domain = newDomain();
  await field.fill(domain.toUpperCase());
  await field.press("Enter");
  await expectToast(page, "Domain updated");
  await expect(field).toHaveValue("");
  const row = domainRow(page, domain);
  await expect(row).toContainText("Blocked");

  await page.getByRole("button", { name: `Actions for ${domain}` }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Limit", "Open again"]);
  await page.getByRole("menuitem", { name: "Limit", exact: true }).click();
  await expectToast(page, "Domain updated");
  await expect(row).toContainText("Limited");
  await expectNoAxeViolations(page);

  await page.goto("/catalyst?tab=audit");
  const entries = page
    .getByRole("region", { name: "Audit log" })
    .getByRole("row")
    .filter({ hasText: domain });
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText(`@${admin.username}`);
  await expect(entries.first()).toContainText("Set domain policy");
  await expect(entries.first()).toContainText("limited");
});

test("at 360 px the Federation tab's domains are cards, nothing wider than the phone", async ({
  page,
  signIn,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, { ...newMember("admin"), isAdmin: true });
  const domain = newDomain();
  const answer = await page.request.put(`/api/analytics/federation/domains/${domain}`, {
    data: { policy: "blocked" },
    headers: { origin: ORIGIN },
  });
  expect(answer.status()).toBe(200);
  await page.goto("/catalyst?tab=federation");
  const region = page.getByRole("region", { name: "Other servers" });
  const row = domainRow(page, domain);
  await expect(row).toContainText("Blocked");
  await expect(region.getByRole("columnheader", { name: "Failures" })).toBeAttached();
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const failures = row.getByRole("cell").nth(2);
  expect(await failures.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe(
    '"Failures"',
  );
  await expect(page.getByRole("button", { name: "Block", exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
});
