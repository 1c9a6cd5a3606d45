import { expect, expectNoAxeViolations, test } from "./fixtures.ts";

test("a member who forgot their password asks for a link from the sign-in form", async ({
  page,
  addMember,
}) => {
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL("/forgot-password");
  await expect(page).toHaveTitle("Forgot password | Prism");
  await expect(page.getByRole("heading", { level: 1, name: "Forgot password" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("Please enter your username or email")).toBeVisible();

  // The answer is the same whether or not the account exists.
  const member = await addMember();
  await page.getByLabel("Username or email").fill(member.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(
    page.getByText("If that account exists, we have sent a link to reset its password."),
  ).toBeVisible();
  await expectNoAxeViolations(page);
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
