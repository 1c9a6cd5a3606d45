import { expect, expectNoAxeViolations, expectToast, test } from "./fixtures.ts";

test("the debug page checks the database connection", async ({ page }) => {
  await page.goto("/debug");
  await expect(page).toHaveTitle("Diagnostics | Prism");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Registration Diagnostics");
  await expect(page.getByRole("tab", { name: "Connectivity Test" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expectNoAxeViolations(page);

  const results = page.getByRole("status", { name: "Results" });
  await page.getByRole("button", { name: "Run Connectivity Test" }).click();
  await expect(results).toContainText('"status": "ok"');
  await expectToast(page, "Test Complete");

  await page.getByRole("button", { name: "Clear Results" }).click();
  await expect(results).toHaveText("No results yet. Run a test above.");
});

test("the registration test registers a member and rolls it back", async ({ page, request }) => {
  await page.goto("/debug");
  await page.getByRole("tab", { name: "Registration Test" }).click();
  const username = await page.getByLabel("Test username").inputValue();
  expect(username).toMatch(/^test_[a-z0-9]+$/);
  await expect(page.getByLabel("Test email")).toHaveValue(`${username}@example.com`);
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Run Registration Test" }).click();
  await expect(page.getByRole("status", { name: "Results" })).toContainText(
    "Registration flow works: the member was created and then rolled back",
  );
  await expectToast(page, "Test Complete");
  expect((await request.get(`/api/users/${username}`)).status()).toBe(404);

  await page.getByRole("tab", { name: "Reset Connection" }).click();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Run Connection Reset" }).click();
  await expect(page.getByRole("status", { name: "Results" })).toContainText(
    "Connection reset: the database connection was closed and opened again",
  );
});

test("the error demo leads to the error page and contains a crash", async ({ page }) => {
  await page.goto("/error-demo");
  await expect(page).toHaveTitle("Error handling demo | Prism");
  await expect(page.getByLabel("API path")).toHaveValue("/api/demo/not-found");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Send" }).click();
  const response = page.getByRole("status", { name: "API test response" });
  await expect(response).toContainText("Status: 404");
  await expect(page).toHaveURL("/error-demo");

  await page.getByRole("button", { name: "Crash a Component" }).click();
  await expect(page.getByRole("heading", { name: "Component Error" })).toBeVisible();
  await expect(
    page.getByText("Something went wrong in this part of the application."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Error handling demo" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Reset Demo" }).click();
  await expect(page.getByRole("heading", { name: "Component Error" })).toBeHidden();

  await page.getByRole("button", { name: "Simulate 404 Error" }).click();
  await expect(page).toHaveURL("/error");
  await expect(page.getByRole("heading", { name: "Resource Not Found" })).toBeVisible();
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the error demo's server error leads to a 500 error page", async ({ page }) => {
  await page.goto("/error-demo");
  await page.getByRole("button", { name: "Simulate Server Error" }).click();
  await expect(page).toHaveURL("/error");
  await expect(page.getByText("500", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Request Failed" })).toBeVisible();
});
