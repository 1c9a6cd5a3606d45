import { expect, expectNoAxeViolations, expectToast, test } from "./fixtures.ts";

test("a visitor writes to the team, is thanked, and can write again", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Contact" }).click();
  await expect(page).toHaveURL("/contact");
  await expect(page).toHaveTitle("Contact | Prism");

  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Name must be at least 2 characters.")).toBeVisible();
  await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Subject must be at least 2 characters.")).toBeVisible();
  await expect(page.getByText("Message must be at least 10 characters.")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Name").fill("Noor");
  await page.getByLabel("Email").fill("noor@example.com");
  await page.getByLabel("Subject").fill("Annotations");
  await page.getByLabel("Message").fill("The way answers point at a passage is lovely.");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: "Thank You!" })).toBeVisible();
  await expectToast(page, "Message sent!");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Send Another Message" }).click();
  await expect(page.getByLabel("Name")).toHaveValue("");
});
