// A member turns on "Follow from the fediverse" in Profile Settings: their page's address, asked
// for as ActivityPub, is then their actor; turned off, it is a page again and nothing more.
import { expect, expectNoAxeViolations, expectToast, newMember, test } from "./fixtures.ts";

test("a member lets the fediverse follow them from Profile Settings", async ({ page, signIn }) => {
  const member = await signIn(page, newMember("fedi"));
  const asActivityPub = { headers: { accept: "application/activity+json" } };
  expect(
    (await page.request.get(`/${member.username}`, asActivityPub)).headers()["content-type"],
  ).not.toMatch(/activity/);

  await page.goto("/profile");
  const follow = page.getByLabel("Follow from the fediverse");
  await expect(follow).not.toBeChecked();
  await follow.check();
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Your profile has been updated successfully");
  await page.reload();
  await expect(page.getByLabel("Follow from the fediverse")).toBeChecked();
  await expectNoAxeViolations(page);

  const actor = await page.request.get(`/${member.username}`, asActivityPub);
  expect(actor.headers()["content-type"]).toMatch(/application\/activity\+json/);
  expect(await actor.json()).toMatchObject({ type: "Person", preferredUsername: member.username });
});
