import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./fixtures.ts";

test("a visitor reads the terms and privacy policy from the footer and finds the way to contact us", async ({
  page,
}) => {
  await page.goto("/");
  await page
    .getByRole("navigation", { name: "Footer" })
    .getByRole("link", { name: "Terms & Privacy" })
    .click();

  await expect(page).toHaveURL("/terms-privacy");
  await expect(page).toHaveTitle("Terms of Service and Privacy Policy | Prism");
  await expect(
    page.getByRole("heading", { level: 1, name: "Terms of Service and Privacy Policy" }),
  ).toBeVisible();
  const terms = page.getByRole("heading", { level: 2, name: "Terms of Service" });
  const privacy = page.getByRole("heading", { level: 2, name: "Privacy Policy" });
  await expect(terms).toBeVisible();
  await expect(privacy).toBeVisible();
  await expect(page.getByText("Last updated: November 22, 2026")).toBeVisible();
  // Under the pointer, a link in the text keeps its contrast.
  await page.getByRole("main").getByRole("link", { name: "Profile Settings" }).hover();
  await expectNoAxeViolations(page);

  const contents = page.getByRole("navigation", { name: "On this page" });
  await contents.getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL("/terms-privacy#privacy-policy");
  await expect(privacy).toBeInViewport();

  await contents.getByRole("link", { name: "Account termination" }).click();
  await expect(page).toHaveURL("/terms-privacy#account-termination");
  await expect(
    page.getByRole("heading", { level: 3, name: "Account termination" }),
  ).toBeInViewport();

  await contents.getByRole("link", { name: "Terms of Service" }).click();
  await expect(page).toHaveURL("/terms-privacy#terms-of-service");
  await expect(terms).toBeInViewport();

  await page
    .getByRole("region", { name: "Terms of Service" })
    .getByRole("link", { name: "contact form" })
    .click();
  await expect(page).toHaveURL("/contact");
});
