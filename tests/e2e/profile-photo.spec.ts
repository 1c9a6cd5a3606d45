// A member's face: a photo uploaded in Profile Settings shows on their page and in the header;
// removed, their initials stand on their own colour. On the desktop and on a 360 px phone,
// axe-clean.
import sharp from "sharp";
import { expect, expectNoAxeViolations, expectToast, test } from "./fixtures.ts";
import { phone } from "./phone.ts";

/** A photo as a phone takes it, with where it was taken in its EXIF. */
const photo = () =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: "#8a5a44" } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Make: "PhoneMaker" }, IFD3: { GPSLatitudeRef: "N" } } })
    .toBuffer();

// The phone's screen and touch, in this file's worker (its browser stays the configured one).
const { defaultBrowserType: _browser, ...onAPhone } = phone;

for (const [device, options] of [
  ["the desktop", {}],
  ["a phone", onAPhone],
] as const) {
  test.describe(`on ${device}`, () => {
    test.use(options);

    test("a member uploads a photo, sees it on their page and in the header, and removes it", async ({
      page,
      signIn,
    }) => {
      const member = await signIn(page);
      const name = `${member.firstName} ${member.lastName}`;
      await page.goto("/profile");
      const photoSection = page.locator("section", {
        has: page.getByRole("heading", { name: "Photo" }),
      });
      // No photo yet: the initials, on the member's own colour.
      await expect(photoSection.locator("span[aria-hidden]").first()).toHaveText(
        member.username.slice(0, 2).toUpperCase(),
      );
      await photoSection.getByLabel("Photo file").setInputFiles({
        name: "me.jpg",
        mimeType: "image/jpeg",
        buffer: await photo(),
      });
      await expectToast(page, "Your photo is on your profile.");
      const settingsPhoto = photoSection.locator("img");
      await expect(settingsPhoto).toHaveAttribute(
        "src",
        new RegExp(`^/api/users/${member.username}/photo/[0-9a-f]{16}\\.webp$`),
      );
      await expect(photoSection.getByRole("button", { name: "Remove photo" })).toBeVisible();
      await expectNoAxeViolations(page);

      await page.goto(`/${member.username}`);
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      const pagePhoto = page.locator("main img[src*='/photo/']").first();
      await expect(pagePhoto).toBeVisible();
      expect(await pagePhoto.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
      // The header's is the small image, beside the display name, else the username.
      const menu = page.getByRole("button", {
        name: new RegExp(`^${member.username} ?, account menu$`),
      });
      await expect(menu.locator("img")).toHaveAttribute("src", /-small\.webp$/);
      await expectNoAxeViolations(page);
      await menu.click();
      await expect(page.getByRole("menu").getByText(name, { exact: true })).toBeVisible();
      await page.keyboard.press("Escape");

      await page.goto("/profile");
      await photoSection.getByRole("button", { name: "Remove photo" }).click();
      await expectToast(page, "Your photo is removed.");
      await expect(photoSection.locator("img")).toHaveCount(0);
      await expect(photoSection.getByRole("button", { name: "Upload a photo" })).toBeVisible();
    });
  });
}
