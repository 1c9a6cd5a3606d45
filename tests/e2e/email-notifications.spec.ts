// E-mail notifications in the browser: the choice in Profile Settings, and the page the
// unsubscribe link of every message opens. The server under test cannot send mail (no SMTP_URL),
// so Profile Settings says so; the messages themselves are tested against an SMTP server
// (src/server/features/email).
import {
  expect,
  expectHydrated,
  expectNoAxeViolations,
  expectToast,
  newMember,
  test,
} from "./fixtures.ts";

const legend = "Email me about new responses to review and replies to mine";

test("a member chooses how Prism e-mails them, from a phone-sized window", async ({
  page,
  signIn,
}) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await signIn(page, newMember("mail"));
  await page.goto("/profile");
  const choices = page.getByRole("group", { name: legend });
  await expect(choices.getByRole("radio", { name: "Daily digest" })).toBeChecked();
  await expect(choices.getByRole("radio", { name: "Immediately" })).not.toBeChecked();
  await expect(choices.getByRole("radio", { name: "Never" })).not.toBeChecked();
  await expect(
    choices.getByText(
      "This server cannot send e-mail at the moment: your choice applies once it can.",
    ),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  const immediately = choices.getByRole("radio", { name: "Immediately" });
  await expectHydrated(immediately);
  await immediately.check();
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your profile has been updated successfully");
  await page.reload();
  await expect(
    page.getByRole("group", { name: legend }).getByRole("radio", { name: "Immediately" }),
  ).toBeChecked();
  // Nothing of the form runs off a 360-pixel screen.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
});

test("the unsubscribe page changes nothing until its button is pressed, and says when a link is not valid", async ({
  page,
}) => {
  await page.goto("/unsubscribe?token=1.not-a-token");
  await expect(page).toHaveTitle("Unsubscribe | Prism");
  await expect(page.getByRole("heading", { level: 1, name: "Unsubscribe" })).toBeVisible();
  const button = page.getByRole("button", { name: "Unsubscribe" });
  await expectHydrated(button);
  // Under the pointer, the button keeps its text's contrast (it rests there after the press).
  await button.hover();
  await expectNoAxeViolations(page);
  await button.click();
  await expect(page.getByRole("alert")).toHaveText("This unsubscribe link is not valid");
  await expectNoAxeViolations(page);

  await page.goto("/unsubscribe");
  await expect(page.getByRole("alert")).toHaveText("This unsubscribe link is not valid");
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
});
