// Sharing a page and a prism: Copy link puts its address on the clipboard, and a prism's address
// opens that prism and stays in the address bar.
import { expect, expectNoAxeViolations, newMember, ORIGIN, test } from "./fixtures.ts";

test("Copy link shares the page and each prism at its own address, which opens that prism", async ({
  page,
  addOwner,
}) => {
  const { member: owner } = await addOwner(
    [
      { title: "First things", content: "<p>The first words.</p>" },
      { title: "What's my best hour?", content: "<p>The deep-linked words.</p>" },
    ],
    newMember("sharer"),
  );

  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: ORIGIN });
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await page.goto(`/${owner.username}`);

  await page.getByRole("button", { name: "Copy link to this page" }).click();
  await expect(page.getByText("Link copied")).toBeVisible();
  expect(await clipboard()).toBe(`${ORIGIN}/${owner.username}`);

  await page.getByRole("button", { name: /02\.\s*What's my best hour\?/ }).click();
  await page.getByRole("button", { name: "Copy link to this prism" }).click();
  const address = `${ORIGIN}/${owner.username}/whats-my-best-hour`;
  await expect(page.getByText(address)).toBeVisible();
  expect(await clipboard()).toBe(address);
  await expectNoAxeViolations(page);

  // The copied address opens that prism, and keeps its place in the address bar.
  await page.goto(address);
  await expect(page.getByText("The deep-linked words.")).toBeVisible();
  await expect(page.getByRole("button", { name: /02\.\s*What's my best hour\?/ })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  await expect(page.getByRole("button", { name: /01\.\s*First things/ })).toHaveAttribute(
    "aria-expanded",
    "false",
  );
  await expect(page.getByText("The deep-linked words.")).toBeInViewport();
  // Past the moment a ?prism= parameter would have been dropped from the address.
  await page.waitForTimeout(1000);
  await expect(page).toHaveURL(address);
});
