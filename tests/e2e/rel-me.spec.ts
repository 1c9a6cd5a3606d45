// A member's website that links back to their Prism page with rel="me": Profile Settings says so
// once it is saved (and checks again on demand), and their page marks the website Verified.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, expectNoAxeViolations, expectToast, ORIGIN, test } from "./fixtures.ts";

test("a website that links back is verified in settings and on the profile", async ({
  page,
  signIn,
}) => {
  const member = await signIn(page);
  // The member's own site, on this machine: at first it does not link back.
  let html = "<p>My site</p>";
  const site = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end(html);
  });
  site.listen(0, "127.0.0.1");
  await once(site, "listening");
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

  try {
    await page.goto("/profile");
    await page.getByLabel("Website URL").fill(siteUrl);
    await page.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Your profile has been updated successfully");
    await expect(page.getByText("Not verified.")).toBeVisible();

    html = `<a rel="me" href="${ORIGIN}/${member.username}">Me on Prism</a>`;
    await page.getByRole("button", { name: "Check again" }).click();
    await expect(
      page.getByText("Verified: your website links back to your Prism page."),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto(`/${member.username}`);
    const verified = page.getByRole("img", {
      name: "Verified: this website links back here",
    });
    await expect(verified).toHaveText("✓ Verified");
    await expect(page.locator('link[rel="me"]')).toHaveAttribute("href", siteUrl);
    await expectNoAxeViolations(page);
  } finally {
    site.close();
  }
});
