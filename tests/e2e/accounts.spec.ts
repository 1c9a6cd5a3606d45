import {
  createAccount,
  expect,
  expectHydrated,
  expectNoAxeViolations,
  expectToast,
  newMember,
  ORIGIN,
  PASSWORD,
  test,
} from "./fixtures.ts";

test("a newcomer registers, lands on their page, logs out, and signs back in where they were going", async ({
  page,
}) => {
  const member = newMember("newcomer");
  await page.goto("/");
  await page.getByRole("button", { name: "Get Started" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/auth");
  await expect(page.getByRole("tab", { name: "Sign in" })).toHaveAttribute("aria-selected", "true");
  await expectNoAxeViolations(page);
  // The page a member lands on loads while they fill in the form, not after.
  await expect
    .poll(() =>
      page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .some(({ name }) => /\/assets\/profile-page-[\w-]+\.js$/.test(name)),
      ),
    )
    .toBe(true);
  await createAccount(page, member);

  await expect(page).toHaveURL(`/${member.username}`);
  await expect(page.getByRole("heading", { level: 1, name: "Robin Quill" })).toBeVisible();
  await expect(page.getByText(`@${member.username}`)).toBeVisible();
  await expect(page).toHaveTitle(`Robin Quill (@${member.username}) | Prism`);

  const menu = page.getByRole("button", { name: /account menu$/ });
  await expectHydrated(menu);
  await menu.click();
  const reloaded = page.waitForEvent("load");
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await reloaded;
  await expectToast(page, "You have been logged out successfully.");
  await expect(
    page.getByRole("button", { name: "Sign in" }).or(page.getByRole("link", { name: "Sign in" })),
  ).toBeVisible();

  await page.goto("/profile");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Username").fill(member.username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByRole("heading", { name: "Profile Settings" })).toBeVisible();
  await expectToast(page, `Welcome back, ${member.username}!`);
});

test("the sign-in and registration forms explain what is wrong", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Username").fill("ab");
  await page.getByLabel("Password").fill("123");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Username must be at least 3 characters")).toBeVisible();
  await expect(page.getByText("Password must be at least 6 characters")).toBeVisible();

  await page.getByLabel("Username").fill("nobody_at_all");
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expectToast(page, "Login failed");

  await page.getByRole("tab", { name: "Create account" }).click();
  await page.getByLabel("Password", { exact: true }).fill("secret1");
  await page.getByLabel("Confirm password").fill("secret2");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a signed-in member who opens /auth is sent on to their page", async ({ page, signIn }) => {
  const member = await signIn(page);
  await page.goto("/auth");
  await expect(page).toHaveURL(`/${member.username}`);
});

test("profile settings are saved and read back after a reload", async ({ page, signIn }) => {
  const member = await signIn(page);
  await page.goto("/profile");
  await expect(page.getByText("Email & Password Account")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Website URL").fill("not a url");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Must be a valid URL")).toBeVisible();

  await page.getByLabel("First name").fill("Rowan");
  await page.getByLabel("Display name").fill("Ro");
  await page.getByLabel("Website URL").fill("https://rowan.example");
  await page.getByLabel("LinkedIn URL").fill("https://www.linkedin.com/in/rowan");
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your profile has been updated successfully");

  await page.reload();
  await expect(page.getByLabel("First name")).toHaveValue("Rowan");
  await expect(page.getByLabel("Display name")).toHaveValue("Ro");
  await expect(page.getByLabel("Website URL")).toHaveValue("https://rowan.example");

  await page.getByLabel("First name").fill("Changed my mind");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByLabel("First name")).toHaveValue("Rowan");
  await expect(page.getByLabel("First name")).toBeDisabled();

  await page.goto(`/${member.username}`);
  await expect(page.getByRole("heading", { level: 1, name: "Rowan Quill" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Website (opens in a new tab)" })).toHaveAttribute(
    "href",
    "https://rowan.example",
  );
});

test("a new e-mail address and a new password ask for the current password", async ({
  page,
  signIn,
}) => {
  const member = await signIn(page);
  await page.goto("/profile");
  const profile = page.getByRole("form", { name: "Profile settings" });
  await expect(profile.getByLabel("Email")).toHaveValue(member.email);
  await expect(profile.getByLabel("Current password")).toHaveCount(0);
  await profile.getByLabel("Email").fill(`moved-${member.email}`);
  const current = profile.getByLabel("Current password");
  await expect(current).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(profile.getByText("Enter your current password")).toBeVisible();
  await current.fill("not-my-password");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(profile.getByText("The current password is not correct")).toBeVisible();
  await expect(current).toHaveAttribute("aria-invalid", "true");
  await current.fill(PASSWORD);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your profile has been updated successfully")).toBeVisible();
  await expect(profile.getByLabel("Current password")).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("Email")).toHaveValue(`moved-${member.email}`);

  const password = page.getByRole("form", { name: "Password" });
  await password.getByLabel("Current password").fill(PASSWORD);
  await password.getByLabel("New password", { exact: true }).fill("a-new-secret");
  await password.getByLabel("Confirm new password").fill("a-new-secret");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("You are signed out on your other devices.")).toBeVisible();
  const login = await page.request.post("/api/login", {
    data: { username: member.username, password: "a-new-secret" },
    headers: { origin: ORIGIN },
  });
  expect(login.status()).toBe(200);
});

test("without Google sign-in on the server, Profile Settings offers no Connect Google", async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Profile Settings" })).toBeVisible();
  await expect(page.getByText("Email & Password Account")).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete Account" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Connect Google" })).toHaveCount(0);
  // Asked for anyway (a tab opened before, a bookmark), the browser comes back and is told so.
  await page.goto("/auth/google?connect=1");
  await expect(page).toHaveURL("/profile?google=google-not-configured");
  await expect(page.getByText("Google sign-in is not available on this server.")).toBeVisible();
});

test("deleting the account leaves nothing of the member", async ({ page, signIn }) => {
  const member = await signIn(page);
  await page.goto("/profile");
  await page.getByRole("button", { name: "Delete Account" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Are you absolutely sure?" });
  await expect(dialog).toBeVisible();
  // Under the pointer, the destructive button keeps its text's contrast.
  await dialog.getByRole("button", { name: "Delete Account" }).hover();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Delete Account" }).click();
  await expect(dialog.getByText("Enter your current password")).toBeVisible();
  await dialog.getByLabel("Current password").fill(PASSWORD);
  await dialog.getByRole("button", { name: "Delete Account" }).click();
  await expect(page).toHaveURL("/");
  await expectToast(page, "Your account has been permanently deleted");
  await expect(page.getByRole("button", { name: "Get Started" })).toBeVisible();

  const profile = await page.request.get(`/api/users/${member.username}`);
  expect(profile.status()).toBe(404);
  const login = await page.request.post("/api/login", {
    data: { username: member.username, password: PASSWORD },
    headers: { origin: ORIGIN },
  });
  expect(login.status()).toBe(401);
  await page.goto(`/${member.username}`);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
});

test("an unknown page shows the not-found page; an unknown API path answers JSON 404", async ({
  page,
}) => {
  await page.goto("/this/page/does-not-exist");
  await expect(page.getByText("404")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await expect(
    page.getByText(
      "We couldn't find the page you're looking for. It might have been moved, deleted, or never existed.",
    ),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  const api = await page.request.get("/api/no-such-thing");
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ message: expect.any(String) });
});

test("a server without Google sign-in offers none, and says so at /auth/google", async ({
  page,
}) => {
  await page.goto("/auth");
  await expectHydrated(page.getByRole("button", { name: "Sign in", exact: true }));
  await expect(page.getByRole("link", { name: "Continue with Google" })).toHaveCount(0);
  const html = await (await page.request.get("/auth")).text();
  expect(html).not.toContain("Continue with Google");

  // Someone who goes to the old address anyway is told why nothing happens.
  await page.goto("/auth/google");
  await expect(page).toHaveURL("/auth/callback?error=google-not-configured");
  await expect(page.getByRole("heading", { name: "Authentication Failed" })).toBeVisible();
  await expect(page.getByText("Google sign-in is not available on this server.")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the sign-in callback says when a Google sign-in failed, and leads back", async ({ page }) => {
  await page.goto("/auth/callback?error=google-auth-failed");
  await expect(page.getByRole("heading", { name: "Authentication Failed" })).toBeVisible();
  await expect(
    page.getByText("We couldn't sign you in with Google. Please try again."),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Back to sign in" }).click();
  await expect(page).toHaveURL("/auth");
});

test("the landing page is accessible and invites newcomers in", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Get Started" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Terms & Privacy" })).toBeVisible();
  await expectNoAxeViolations(page);
});
