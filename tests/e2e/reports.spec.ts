// An admin reads, in Catalyst's Reports tab, what another server reported about a member (as the
// inbox keeps an inbound Flag: written here into the server's database), and dismisses it; the
// dismissal is in the audit log.
import { randomBytes } from "node:crypto";
import { federationReports } from "../../src/server/db/schema.ts";
import {
  expect,
  expectHydrated,
  expectNoAxeViolations,
  expectToast,
  newMember,
  test,
} from "./fixtures.ts";

test("an admin dismisses a report from another server", async ({
  page,
  signIn,
  addMember,
  database,
}) => {
  test.slow();
  await signIn(page, { ...newMember("admin"), isAdmin: true });
  const reported = await addMember(newMember("reported"));
  const domain = `mod-${randomBytes(3).toString("hex")}.example`;
  await database.db.insert(federationReports).values({
    reporterActorId: `https://${domain}/actor`,
    reporterDomain: domain,
    userId: reported.id,
    objects: [`https://prism.example/ap/actors/${reported.id}`],
    comment: "Impersonates someone on our server",
    activityId: `https://${domain}/flags/1`,
  });

  await page.goto("/catalyst?tab=reports");
  const region = page.getByRole("region", { name: "Reports" });
  const row = region.getByRole("row").filter({ hasText: domain });
  await expect(row).toContainText("Impersonates someone on our server");
  await expect(row.getByRole("link", { name: `@${reported.username}` })).toBeVisible();
  await expectNoAxeViolations(page);

  const menu = row.getByRole("button", { name: `Actions for the report from ${domain}` });
  await expectHydrated(menu);
  await menu.click();
  await page.getByRole("menuitem", { name: "Dismiss", exact: true }).click();
  await expectToast(page, "Report dismissed");
  await expect(row).toContainText("Dismissed");

  await page.goto("/catalyst?tab=audit");
  await expect(
    page.getByRole("row").filter({ hasText: `Report from ${domain} about @${reported.username}` }),
  ).toContainText("Dismissed report");
});
