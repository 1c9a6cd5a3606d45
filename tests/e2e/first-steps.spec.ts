// A new account's first screen is its own page, the first prism's title ready for typing; an
// existing account signing in still goes back where it was going.
import {
  createAccount,
  expect,
  expectNoAxeViolations,
  newMember,
  PASSWORD,
  test,
} from "./fixtures.ts";
import { phone } from "./phone.ts";

test.use(phone);

test("a newcomer who signs up from the header lands on their own page, writing their first prism", async ({
  page,
}) => {
  const member = newMember("firststeps");
  await page.goto("/explore");
  // The header's Sign in remembers /explore; a new account goes to its own page all the same.
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/sign-in");
  await createAccount(page, member);

  await expect(page).toHaveURL(`/${member.username}`);
  await expect(page.getByRole("heading", { name: "Write your first prism" })).toBeVisible();
  const title = page.getByLabel("Title");
  await expect(title).toHaveAttribute("placeholder", "Let's give them something to talk about.");
  await expect(title).toBeFocused();
  await expectNoAxeViolations(page);

  // Typing goes straight into the title; the prism is saved and shown.
  await page.keyboard.type("How I like to work");
  await page.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Mornings are for deep work.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("button", { name: /01\.\s*How I like to work/ })).toBeVisible();
  await expect(page.getByText("Mornings are for deep work.")).toBeVisible();

  // Coming back later is an ordinary visit to a page that has a prism.
  await page.reload();
  await expect(page.getByRole("button", { name: /01\.\s*How I like to work/ })).toBeVisible();
});

test("a member who signs in goes back to the page they were on, not to a first prism", async ({
  page,
  addMember,
}) => {
  const member = await addMember(newMember("returning"));
  await page.goto("/explore");
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Username").fill(member.username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL("/explore");

  // Their own page, empty, does not grab the keyboard.
  await page.goto(`/${member.username}`);
  await expect(page.getByRole("heading", { name: "Write your first prism" })).toBeVisible();
  await expect(page.getByLabel("Title")).not.toBeFocused();
});

test("a first Google sign-in that created the account ends on the member's own page, writing", async ({
  page,
  signIn,
}) => {
  // The server sends a Google sign-in that created an account to /auth/callback?welcome=1 (its
  // own tests show it); the session is there already.
  const member = await signIn(page, newMember("google"));
  await page.goto("/auth/callback?welcome=1");
  await expect(page.getByText("Completing authentication...")).toBeVisible();
  await expect(page).toHaveURL(`/${member.username}`);
  await expect(page.getByLabel("Title")).toBeFocused();

  // A Google sign-in to an existing account goes home, as the spec says.
  await page.goto("/auth/callback");
  await expect(page).toHaveURL("/");
});
