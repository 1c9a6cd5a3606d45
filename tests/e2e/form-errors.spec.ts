// A failure without a field stays beside its form once the toast has gone (issue 37): sign-in,
// registration and Profile Settings say it as an alert the form is described by.
import type { Locator, Page } from "@playwright/test";
import { authMessages } from "../../src/contract/auth.ts";
import {
  createAccount,
  expect,
  expectNoAxeViolations,
  expectToast,
  newMember,
  test,
} from "./fixtures.ts";
import { phone } from "./phone.ts";

/** What the page says when no answer comes back at all. */
const UNREACHABLE =
  "Unable to connect to the server. Please check your internet connection and try again.";

/** The phone, in a group of its own: the browser is the project's Chromium already. */
const { defaultBrowserType: _chromium, ...phoneInGroup } = phone;

/** Waits until every toast has left the screen. */
async function toastsGone(page: Page) {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
}

/** Expects `form` to say `message` as an alert above its submit button, and to be described by it. */
async function expectFailureBeside(form: Locator, message: string, submit: Locator) {
  const alert = form.getByRole("alert");
  await expect(alert).toHaveText(message);
  await expect(alert).toBeVisible();
  await expect(form).toHaveAttribute("aria-describedby", (await alert.getAttribute("id")) ?? "");
  const [alertBox, submitBox] = [await alert.boundingBox(), await submit.boundingBox()];
  expect(alertBox && submitBox && alertBox.y + alertBox.height <= submitBox.y).toBe(true);
}

/** Signs in with a wrong password; the failure stays beside the form after its toast. */
async function failSignIn(page: Page) {
  await page.goto("/sign-in");
  const form = page.getByRole("tabpanel", { name: "Sign in" }).locator("form");
  const submit = page.getByRole("button", { name: "Sign in", exact: true });
  await page.getByLabel("Username").fill("nobody_at_all");
  await page.getByLabel("Password").fill("wrong-password");
  await submit.click();
  await expectToast(page, "Login failed", authMessages.wrongCredentials);
  await toastsGone(page);
  await expectFailureBeside(form, authMessages.wrongCredentials, submit);
  await expectNoAxeViolations(page);
  return form;
}

test("a failed sign-in stays beside the form until the member edits it", async ({ page }) => {
  const form = await failSignIn(page);
  await page.getByLabel("Password").fill("another-password");
  await expect(form.getByRole("alert")).toHaveCount(0);
  await expect(form).not.toHaveAttribute("aria-describedby");
});

test("a failed registration stays beside the form until it is sent again", async ({ page }) => {
  await page.route("**/api/register", (route) => route.abort("internetdisconnected"));
  await page.goto("/auth");
  const member = newMember("cut_off");
  await createAccount(page, member);
  const form = page.getByRole("tabpanel", { name: "Create account" }).locator("form");
  const submit = page.getByRole("button", { name: "Create account" });
  await expectToast(page, "Registration failed", UNREACHABLE);
  await toastsGone(page);
  await expectFailureBeside(form, UNREACHABLE, submit);
  await expectNoAxeViolations(page);

  // Sent again: the failure goes at once, while the new answer is on its way.
  await page.unroute("**/api/register");
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/register", async (route) => {
    await held;
    await route.continue();
  });
  await submit.click();
  await expect(page.getByRole("button", { name: "Creating account..." })).toBeDisabled();
  await expect(form.getByRole("alert")).toHaveCount(0);
  await expect(form).not.toHaveAttribute("aria-describedby");
  release();
  await expect(page).toHaveURL(`/${member.username}`);
});

test("a failed save of Profile Settings stays beside the form", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/profile");
  const form = page.getByRole("form", { name: "Profile settings" });
  const submit = form.getByRole("button", { name: "Save" });
  await page.route("**/api/user/profile", (route) => route.abort("internetdisconnected"));
  await form.getByLabel("First name").fill("Rowan");
  await submit.click();
  await expectToast(page, "Update failed", UNREACHABLE);
  await toastsGone(page);
  await expectFailureBeside(form, UNREACHABLE, submit);
  await expectNoAxeViolations(page);
});

test.describe("on a phone", () => {
  test.use(phoneInGroup);

  test("a failed sign-in stays beside the form at 360 px", async ({ page }) => {
    const form = await failSignIn(page);
    await expect(form.getByRole("alert")).toBeInViewport();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
  });
});
