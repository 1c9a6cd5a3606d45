import type { APIRequestContext, Page } from "@playwright/test";
import {
  expect,
  expectNoAxeViolations,
  type Member,
  newMember,
  ORIGIN,
  test,
  toggleHeart,
} from "./fixtures.ts";

// Other stories run alongside and add members and prisms of their own, so these tests look for
// their own rows, walking the pages when others have pushed them further down.

async function setDisplayName(request: APIRequestContext, member: Member, displayName: string) {
  const response = await request.put("/api/user/profile", {
    headers: { origin: ORIGIN },
    data: {
      firstName: member.firstName,
      lastName: member.lastName,
      email: member.email,
      displayName,
      websiteUrl: "",
      twitterUrl: "",
      linkedinUrl: "",
    },
  });
  expect(response.status()).toBe(200);
}

/**
 * Walks the pages of the list titled `listName`, calling `look` with each page's number once the
 * page has loaded, until it answers true.
 */
async function pageUntil(page: Page, listName: string, look: (n: number) => Promise<boolean>) {
  for (let n = 1; n <= 50; n++) {
    await expect(page.getByText(`Page ${n}`, { exact: true })).toBeVisible();
    await expect(page.getByRole("list", { name: listName })).toBeVisible();
    if (await look(n)) return;
    const next = page.getByRole("button", { name: "Next" });
    if (await next.isDisabled()) break;
    await next.click();
  }
  throw new Error(`not all found on the pages of ${listName}`);
}

/** Where each title first appears: [page, position on the page]. */
async function positionsOf(page: Page, listName: string, wanted: string[]) {
  const found = new Map<string, [number, number]>();
  const list = page.getByRole("list", { name: listName });
  await pageUntil(page, listName, async (n) => {
    const onPage = await list
      .getByRole("listitem")
      .getByRole("heading", { level: 3 })
      .allTextContents();
    for (const title of wanted) {
      const index = onPage.indexOf(title);
      if (index >= 0 && !found.has(title)) found.set(title, [n, index]);
    }
    return wanted.every((title) => found.has(title));
  });
  return (title: string) => found.get(title) ?? [0, 0];
}

/** Whether position a comes before position b. */
const before = ([pageA, indexA]: [number, number], [pageB, indexB]: [number, number]) =>
  pageA < pageB || (pageA === pageB && indexA < indexB);

test("people: members with their first prism, each a link to their profile", async ({
  page,
  addMember,
  addOwner,
}) => {
  const suffix = Math.random().toString(36).slice(2, 8);
  const writer = await addOwner(
    [
      {
        title: `Start here ${suffix}`,
        content:
          "<p>I write things down before I say them. Meetings are for deciding, not for discovering what we think about a problem together.</p>",
      },
      { title: `Later thoughts ${suffix}`, content: "<p>Not the first one.</p>" },
    ],
    { ...newMember("explorer"), firstName: "Ada", lastName: `Lark${suffix}` },
  );
  const quiet = await addOwner(
    [
      {
        title: `Short and sweet ${suffix}`,
        content: "<p>I <strong>like</strong> quiet mornings.</p>",
      },
    ],
    { ...newMember("explorer"), firstName: "Bo", lastName: `Fern${suffix}` },
  );
  // A display name is shown instead of the full name.
  await setDisplayName(quiet.request, quiet.member, `Quiet Bo ${suffix}`);
  // A member without prisms is not listed.
  const empty = await addMember(newMember("noprisms"));

  await page.goto("/explore");
  await expect(page).toHaveTitle("Explore Prism");
  await expect(page.getByRole("heading", { level: 1, name: "Explore Prism" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "People" })).toHaveAttribute("aria-selected", "true");
  await expect(
    page.getByRole("heading", { level: 2, name: "Members & Their Ideas" }),
  ).toBeVisible();

  const writerName = `Ada Lark${suffix}`;
  const quietName = `Quiet Bo ${suffix}`;
  const at = await positionsOf(page, "Members & Their Ideas", [writerName, quietName]);
  // The most recently active first: the member who joined last.
  expect(before(at(quietName), at(writerName))).toBe(true);
  await page.goto(`/explore?page=${at(writerName)[0]}`);

  const list = page.getByRole("list", { name: "Members & Their Ideas" });
  const rowOf = (name: string) =>
    list.getByRole("listitem").filter({ has: page.getByRole("link", { name, exact: true }) });
  const writerRow = rowOf(writerName);
  await expect(writerRow).toContainText(`@${writer.member.username}`);
  await expect(writerRow).toContainText(`Start here ${suffix}`);
  await expect(writerRow).not.toContainText("Later thoughts");
  await expect(writerRow).toContainText(
    "I write things down before I say them. Meetings are for deciding, not for discovering what we think…",
  );
  await expect(page.getByText(`@${empty.username}`)).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.goto(`/explore?page=${at(quietName)[0]}`);
  const quietRow = rowOf(quietName);
  await expect(quietRow).toContainText(`@${quiet.member.username}`);
  await expect(quietRow).toContainText(`Short and sweet ${suffix}`);
  await expect(quietRow).toContainText("I like quiet mornings.");
  await expect(quietRow).not.toContainText("…");

  await quietRow.getByRole("link", { name: quietName }).click();
  await expect(page).toHaveURL(`${ORIGIN}/${quiet.member.username}`);
  await expect(page.getByRole("heading", { level: 1, name: `Bo Fern${suffix}` })).toBeVisible();
});

test("prisms: most hearted first, with author, hearts and excerpt, linking to the prism", async ({
  page,
  browser,
  addOwner,
}) => {
  const suffix = Math.random().toString(36).slice(2, 8);
  const hearted = `Hearted idea ${suffix}`;
  const unhearted = `Unhearted idea ${suffix}`;
  const author = await addOwner(
    [
      {
        title: hearted,
        content:
          "<p>Good feedback is specific, kind and soon.</p><p>I ask before I give it, I say what I saw rather than what I guess, and I follow up a week later to see whether it helped at all.</p>",
      },
      // Newer, so only the heart puts the other one first.
      { title: unhearted, content: "<p>Nobody has hearted this yet.</p>" },
    ],
    { ...newMember("explorer"), firstName: "Cy", lastName: `Reed${suffix}` },
  );
  const [heartedId] = author.ids;
  const fan = await browser.newContext({ baseURL: ORIGIN });
  await toggleHeart(fan.request, heartedId);
  await fan.close();

  await page.goto("/explore");
  await page.getByRole("tab", { name: "Prisms" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Popular Prisms" })).toBeVisible();
  await expect(page).toHaveURL(/\?tab=prisms$/);

  const at = await positionsOf(page, "Popular Prisms", [hearted, unhearted]);
  const [heartedPage] = at(hearted);
  expect(before(at(hearted), at(unhearted))).toBe(true);

  await page.goto(`/explore?tab=prisms&page=${heartedPage}`);
  const row = page
    .getByRole("list", { name: "Popular Prisms" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: hearted, exact: true }) });
  await expect(row).toContainText(`Cy Reed${suffix}`);
  await expect(row).toContainText(`@${author.member.username}`);
  await expect(row.getByText("1 heart", { exact: true })).toHaveCount(1);
  await expect(row).toContainText(
    "Good feedback is specific, kind and soon. I ask before I give it, I say what I saw rather than what I guess, and I follow up a week later to see…",
  );
  await expectNoAxeViolations(page);

  // The prism opens on its author's page at its own address, which stays in the address bar.
  await row.getByRole("link", { name: hearted }).click();
  const address = `${ORIGIN}/${author.member.username}/hearted-idea-${suffix}`;
  await expect(page).toHaveURL(address);
  await expect(page.getByRole("heading", { level: 1, name: `Cy Reed${suffix}` })).toBeVisible();
  await expect(page.getByRole("button", { name: `1 heart for "${hearted}"` })).toBeVisible();
  await expect(
    page.getByRole("button", { name: new RegExp(`^01\\.\\s*${hearted}$`) }),
  ).toHaveAttribute("aria-expanded", "true");
  // Past the deep link's scroll and the moment a ?prism= parameter would have been dropped.
  await page.waitForTimeout(1500);
  await expect(page).toHaveURL(address);
});
