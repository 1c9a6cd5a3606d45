import { expect, expectNoAxeViolations, test } from "./fixtures.ts";

test("Forgot password? on a server that cannot send e-mail says so, and to ask an admin", async ({
  page,
}) => {
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL("/forgot-password");
  await expect(page).toHaveTitle("Forgot password | Prism");
  await expect(page.getByRole("heading", { level: 1, name: "Forgot password" })).toBeVisible();
  await expect(
    page.getByText("This site cannot send email, so it cannot send you a reset link."),
  ).toBeVisible();
  await expect(page.getByText("Please ask an admin for help.")).toBeVisible();
  // No form pretends to send a link.
  await expect(page.getByRole("button", { name: "Send reset link" })).toHaveCount(0);
  await expect(page.getByLabel("Username or email")).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Straight from the server too, before the page's code has run.
  const html = await (await page.request.get("/forgot-password")).text();
  expect(html).toContain("Please ask an admin for help.");
});

test("a reset link that is not valid says so", async ({ page }) => {
  await page.goto("/reset-password?token=bogus");
  await expect(page).toHaveTitle("Reset password | Prism");
  await expect(page.getByRole("heading", { level: 1, name: "Reset password" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Confirm new password").fill("different");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("Password must be at least 6 characters")).toBeVisible();
  await expect(page.getByText("Passwords do not match")).toBeVisible();

  await page.getByLabel("New password", { exact: true }).fill("a-new-password");
  await page.getByLabel("Confirm new password").fill("a-new-password");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("This reset link is invalid or has expired.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
  await expectNoAxeViolations(page);
});
