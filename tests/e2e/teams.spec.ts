import type { APIRequestContext } from "@playwright/test";
import {
  createAccount,
  expect,
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
