import type { APIRequestContext } from "@playwright/test";
import {
  addPrism,
  createAccount,
  expect,
  expectHydrated,
  expectNoAxeViolations,
  newMember,
  ORIGIN,
  test,
} from "./fixtures.ts";

/** Creates a team as the member `request` is signed in as, and an invite link to it. */
async function teamWithInvite(request: APIRequestContext, name: string) {
  const headers = { origin: ORIGIN };
  const team = await request.post("/api/teams", { data: { name }, headers });
  expect(team.status(), await team.text()).toBe(201);
  const invite = await request.post(`/api/teams/${(await team.json()).slug}/invites`, { headers });
  expect(invite.status(), await invite.text()).toBe(201);
  const { url } = await invite.json();
  return { slug: (await team.json()).slug as string, path: new URL(url).pathname };
}

test("a new hire opens an invite link, creates an account from it, and joins", async ({
  page,
  addOwner,
}) => {
  const owner = await addOwner([]);
  const { slug, path } = await teamWithInvite(owner.request, "Design Ops");

  await page.goto(path);
  await expect(page).toHaveTitle("Join a team | Prism");
  await expect(page.getByRole("heading", { level: 1, name: "Join a team" })).toBeVisible();
  await expect(page.getByText("Sign in or create an account to join the team.")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  const newHire = newMember("newhire");
  await createAccount(page, newHire);

  await expect(page).toHaveURL(path);
  await expect(page.getByText("You joined Design Ops.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the team" })).toHaveAttribute(
    "href",
    `/teams/${slug}`,
  );
  await expectNoAxeViolations(page);

  const team = await page.request.get(`/api/teams/${slug}`);
  expect((await team.json()).members.map((m: { username: string }) => m.username)).toEqual([
    owner.member.username,
    newHire.username,
  ]);

  // Opening it again changes nothing.
  await page.reload();
  await expect(page.getByText("You are already a member of Design Ops.")).toBeVisible();
});

test("a signed-in member joins as they open the link; a revoked link says so", async ({
  page,
  addOwner,
  signIn,
}) => {
  const owner = await addOwner([]);
  const { slug, path } = await teamWithInvite(owner.request, "Platform");
  const member = await signIn(page);
  await page.goto(path);
  await expect(page.getByText("You joined Platform.")).toBeVisible();

  const other = await teamWithInvite(owner.request, "Growth");
  const links = await owner.request.get(`/api/teams/${other.slug}/invites`);
  const [open] = await links.json();
  const revoked = await owner.request.delete(`/api/teams/${other.slug}/invites/${open.id}`, {
    headers: { origin: ORIGIN },
  });
  expect(revoked.status()).toBe(204);
  await page.goto(other.path);
  await expect(
    page.getByText(
      "This invite link has expired or can no longer be used. Ask a team owner for a new one.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to your page" })).toHaveAttribute(
    "href",
    `/${member.username}`,
  );
  await expectNoAxeViolations(page);
  const mine = await page.request.get("/api/teams");
  expect((await mine.json()).map((t: { slug: string }) => t.slug)).toEqual([slug]);
});

test("a new hire joins by link and reads the team page with a teammate's prisms", async ({
  page,
  addOwner,
  signIn,
}) => {
  const teammate = await addOwner([
    { title: "How I give feedback", content: "<p>In writing, the same day.</p>" },
    { title: "When to reach me", content: "<p>Mornings, before standup.</p>" },
  ]);
  const { slug, path } = await teamWithInvite(teammate.request, "Design Ops");
  const newHire = await signIn(page, newMember("newhire"));

  await page.goto(path);
  await page.getByRole("link", { name: "Go to the team" }).click();
  await expect(page).toHaveURL(`/teams/${slug}`);
  await expect(page).toHaveTitle("Design Ops | Prism");
  await expect(page.getByRole("heading", { level: 1, name: "Design Ops" })).toBeVisible();
  await expect(page.getByText("You are a member of this team · 2 members")).toBeVisible();

  const members = page.getByRole("heading", { level: 3 });
  await expect(members).toHaveText([
    `Robin Quill @${teammate.member.username}`,
    `Robin Quill @${newHire.username}`,
  ]);
  const prisms = page.getByRole("list", { name: "Robin Quill's prisms" }).first();
  await expect(prisms.getByRole("link")).toHaveText(["How I give feedback", "When to reach me"]);
  await expect(prisms.getByRole("link", { name: "When to reach me" })).toHaveAttribute(
    "href",
    `/${teammate.member.username}?prism=${teammate.ids[1]}`,
  );
  // Members see no owner's controls.
  await expect(page.getByRole("button", { name: "Create invite link" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await prisms.getByRole("link", { name: "When to reach me" }).click();
  await expect(page).toHaveURL(`/${teammate.member.username}?prism=${teammate.ids[1]}`);
  await expect(page.getByText("Mornings, before standup.")).toBeVisible();

  // Profile Settings leads back to the team.
  await page.goto("/profile");
  await page.getByRole("link", { name: "Your teams" }).click();
  await expect(page).toHaveURL("/teams");
  await expect(page).toHaveTitle("Teams | Prism");
  await expect(page.getByRole("link", { name: "Design Ops" })).toHaveAttribute(
    "href",
    `/teams/${slug}`,
  );
  await page.getByRole("link", { name: "Design Ops" }).click();
  await page.getByRole("button", { name: "Leave" }).click();
  await expect(page).toHaveURL("/teams");
  await expect(page.getByText("No teams yet")).toBeVisible();

  // Out of the team, its page is the not-found page, as for a team that does not exist.
  await page.goto(`/teams/${slug}`);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
});

test("an owner creates a team, copies an invite link and revokes it; the last owner stays", async ({
  page,
  addOwner,
  signIn,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: ORIGIN });
  await signIn(page);
  await page.goto("/teams");
  await expect(page.getByText("No teams yet")).toBeVisible();
  // The form is the app's once the page has hydrated (before, the browser would send it itself).
  await expectHydrated(page.getByRole("button", { name: "Create team" }));
  await page.getByLabel("Team name").fill("Release Crew");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/teams\/release-crew/);
  await expect(page.getByText("You are an owner of this team · 1 member")).toBeVisible();

  await page.getByRole("button", { name: "Create invite link" }).click();
  const link = page.getByLabel("New invite link (shown this once)");
  await expect(link).toHaveValue(new RegExp(`^${ORIGIN}/invites/`));
  await page.getByRole("button", { name: "Copy link" }).click();
  const url = await link.inputValue();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  const open = page.getByRole("list", { name: "Open invite links" }).getByRole("listitem");
  await expect(open).toHaveCount(1);
  await expect(open).toContainText("0 of 50 used");
  await expectNoAxeViolations(page);

  await open.getByRole("button", { name: /^Revoke/ }).click();
  await expect(page.getByText("No open invite links.")).toBeVisible();
  const latecomer = await addOwner([]);
  const joined = await latecomer.request.post(`/api/invites/${url.split("/invites/")[1]}`, {
    headers: { origin: ORIGIN },
  });
  expect(joined.status()).toBe(410);

  await page.getByRole("button", { name: "Leave" }).click();
  await expect(
    page.getByText(
      "A team always has an owner, and this is its last one. Delete the team instead.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Leave" })).toHaveAccessibleDescription(
    "A team always has an owner, and this is its last one. Delete the team instead.",
  );
  await expectNoAxeViolations(page);
});

test("at 360 px, a teammate's change since the member last looked is marked New, once", async ({
  page,
  addOwner,
  signIn,
}) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const teammate = await addOwner([
    { title: "How I give feedback", content: "<p>In writing, the same day.</p>" },
  ]);
  const { slug, path } = await teamWithInvite(teammate.request, "Design Ops");
  await signIn(page);
  const joined = await page.request.post(`/api/${path.slice(1)}`, { headers: { origin: ORIGIN } });
  expect(joined.status()).toBe(200);

  // The first look: what was there before the member joined is not news.
  const looked = page.waitForResponse((r) => r.url().endsWith(`/api/teams/${slug}/seen`));
  await page.goto(`/teams/${slug}`);
  expect((await looked).status()).toBe(204);
  const prisms = page.getByRole("list", { name: "Robin Quill's prisms" }).first();
  await expect(prisms.getByRole("link")).toHaveText(["How I give feedback"]);
  await expect(page.getByText("since you last looked")).toHaveCount(0);
  await expect(page.getByText("No responses waiting for you.")).toBeVisible();

  await addPrism(teammate.request, {
    title: "When to reach me",
    content: "<p>Mornings, before standup.</p>",
  });
  const lookedAgain = page.waitForResponse((r) => r.url().endsWith(`/api/teams/${slug}/seen`));
  await page.reload();
  await lookedAgain;
  const fresh = prisms.getByRole("listitem").filter({ hasText: "When to reach me" });
  await expect(fresh).toContainText("New since you last looked");
  await expect(
    prisms.getByRole("listitem").filter({ hasText: "How I give feedback" }),
  ).not.toContainText("New");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);

  // Looked at, it is no longer news.
  await page.reload();
  await expect(prisms.getByRole("link")).toHaveText(["How I give feedback", "When to reach me"]);
  await expect(page.getByText("since you last looked")).toHaveCount(0);
});
