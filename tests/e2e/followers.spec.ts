// A member who approves followers themselves manages them on /profile/followers: a follow waiting
// for them first, with Accept and Decline, then their followers with the total and Remove (asked
// first); by keyboard on a desktop, and at 360 px on a phone. The followers are written into the
// server's database as its inbox would keep them: their servers (social.example) are not reached.
import { eq } from "drizzle-orm";
import type { Database } from "../../src/server/db/client.ts";
import { users } from "../../src/server/db/schema.ts";
import { actorOf, addFollower } from "../../src/server/features/federation/service.ts";
import { expect, expectHydrated, expectNoAxeViolations, expectToast, test } from "./fixtures.ts";
import { phone } from "./phone.ts";

const { defaultBrowserType: _chromium, ...phoneInGroup } = phone;

/** The member federates, approves followers, and has wren waiting and bob and eve following. */
async function withFollowers(database: Database, userId: number) {
  const [member] = await database.db
    .update(users)
    .set({ federated: true, approveFollowers: true })
    .where(eq(users.id, userId))
    .returning();
  if (!member) throw new Error("no such member");
  await actorOf(database.db, member);
  for (const [name, pending] of [
    ["wren", true],
    ["bob", false],
    ["eve", false],
  ] as const) {
    const actorId = `https://social.example/users/${name}`;
    const follower = {
      actorId,
      followId: `https://social.example/follows/${name}`,
      inbox: `${actorId}/inbox`,
      sharedInbox: null,
      handle: `@${name}@social.example`,
    };
    await addFollower(database.db, userId, follower, pending);
  }
}

test("the owner accepts a waiting follower and removes another, by keyboard", async ({
  page,
  signIn,
  database,
}) => {
  // Three writes, each followed by its toast, and two checks by axe.
  test.slow();
  const member = await signIn(page);
  await withFollowers(database, member.id);

  await page.goto("/profile");
  await expect(page.getByLabel("Approve followers myself")).toBeChecked();
  await page.getByRole("link", { name: "Your followers on the fediverse" }).click();
  await expect(page).toHaveURL(/\/profile\/followers$/);
  await expect(page.getByRole("heading", { name: "Followers on the fediverse" })).toBeVisible();
  const waiting = page.getByRole("region", { name: "Waiting for you (1)" });
  await expect(waiting.getByRole("link", { name: "@wren@social.example" })).toBeVisible();
  await expect(page.getByRole("region", { name: "2 followers" })).toBeVisible();
  await expectNoAxeViolations(page);

  await waiting.getByRole("button", { name: "Accept @wren@social.example" }).focus();
  await page.keyboard.press("Enter");
  await expectToast(page, "@wren@social.example follows you now");
  const followers = page.getByRole("region", { name: "3 followers" });
  await expect(followers).toBeVisible();
  await expect(page.getByRole("region", { name: /Waiting for you/ })).toHaveCount(0);

  const remove = followers.getByRole("button", { name: "Remove @bob@social.example" });
  await remove.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: "Remove @bob@social.example?" });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Remove" }).focus();
  await page.keyboard.press("Enter");
  await expectToast(page, "@bob@social.example no longer follows you");
  await expect(page.getByRole("region", { name: "2 followers" })).toBeVisible();
  const left = await page.request.get("/api/user/followers");
  expect((await left.json()).map((f: { handle: string }) => f.handle)).toEqual([
    "@wren@social.example",
    "@eve@social.example",
  ]);
});

test.describe("on a phone", () => {
  test.use(phoneInGroup);

  test("the followers page fits 360 px, and a waiting follow is declined", async ({
    page,
    signIn,
    database,
  }) => {
    test.slow();
    const member = await signIn(page);
    await withFollowers(database, member.id);
    await page.goto("/profile/followers");
    const waiting = page.getByRole("region", { name: "Waiting for you (1)" });
    await expect(
      waiting.getByRole("button", { name: "Decline @wren@social.example" }),
    ).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await expectNoAxeViolations(page);

    const decline = waiting.getByRole("button", { name: "Decline @wren@social.example" });
    await expectHydrated(decline);
    await decline.tap();
    await expectToast(page, "Declined @wren@social.example");
    await expect(page.getByRole("region", { name: /Waiting for you/ })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "2 followers" })).toBeVisible();
  });
});
