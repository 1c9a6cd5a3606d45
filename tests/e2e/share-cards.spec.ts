// A member's page and a link to one of their prisms unfurl with a share card: the head the server
// sends names the card's image, the card is a 1200 × 630 picture with something on it, and an
// edit gives the page a new card address, so that chats fetch the card again.
import type { Page } from "@playwright/test";
import { expect, newMember, ORIGIN, test } from "./fixtures.ts";

/** The head's value of a meta tag, as the browser holds it. */
const meta = (page: Page, kind: string) =>
  page.locator(`head meta[property="${kind}"], head meta[name="${kind}"]`).getAttribute("content");

/** The image at `url`, drawn in the page: its size, its colours, and how much of it is not white. */
function look(page: Page, url: string) {
  return page.evaluate(async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext("2d") as CanvasRenderingContext2D;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    const colors = new Set<number>();
    let inked = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r = 0, g = 0, b = 0] = [data[i], data[i + 1], data[i + 2]];
      colors.add((r << 16) | (g << 8) | b);
      if (r < 250 || g < 250 || b < 250) inked += 1;
    }
    return {
      width: image.naturalWidth,
      height: image.naturalHeight,
      colors: colors.size,
      inked: inked / (canvas.width * canvas.height),
    };
  }, url);
}

test("a member's page and a prism's link unfurl with their own share card", async ({
  page,
  addOwner,
}) => {
  const {
    member,
    ids: [first, second],
    request: asWriter,
  } = await addOwner(
    [
      {
        title: "How I like to work",
        content: "<p>Quietly, and in the morning, with the door closed.</p>",
      },
      {
        title: "What I answer first",
        content: "<p>Questions from the people I work with, before anything new.</p>",
      },
    ],
    newMember("cards"),
  );

  await page.goto(`/${member.username}`);
  const pageCard = await meta(page, "og:image");
  expect(pageCard).toMatch(new RegExp(`^${ORIGIN}/og/${member.username}\\.png\\?v=[0-9a-z]+$`));
  expect(await meta(page, "twitter:image")).toBe(pageCard);
  expect(await meta(page, "twitter:card")).toBe("summary_large_image");
  expect(await meta(page, "og:image:alt")).toBe(
    `"How I like to work" by Robin Quill (@${member.username}) on Prism`,
  );
  const drawn = await look(page, pageCard ?? "");
  expect(drawn).toMatchObject({ width: 1200, height: 630 });
  expect(drawn.colors).toBeGreaterThan(50);
  expect(drawn.inked).toBeGreaterThan(0.03);

  await page.goto(`/${member.username}/what-i-answer-first`);
  const prismCard = await meta(page, "og:image");
  expect(prismCard).toMatch(
    new RegExp(`^${ORIGIN}/og/${member.username}/${second}\\.png\\?v=[0-9a-z]+$`),
  );
  expect(await meta(page, "twitter:image")).toBe(prismCard);
  expect(await look(page, prismCard ?? "")).toMatchObject({ width: 1200, height: 630 });

  // The owner rewrites the first prism: the page points to a new card, which shows the new words.
  const before = await page.request.get(pageCard ?? "");
  const edited = await asWriter.put(`/api/prisms/${first}`, {
    data: { title: "How I like to work", content: "<p>Loudly, and late at night.</p>" },
    headers: { origin: ORIGIN },
  });
  expect(edited.status()).toBe(200);
  await page.goto(`/${member.username}`);
  const newCard = await meta(page, "og:image");
  expect(newCard).toMatch(new RegExp(`^${ORIGIN}/og/${member.username}\\.png\\?v=[0-9a-z]+$`));
  expect(newCard).not.toBe(pageCard);
  const after = await page.request.get(newCard ?? "");
  expect(after.status()).toBe(200);
  expect(after.headers().etag).not.toBe(before.headers().etag);
  expect(Buffer.compare(await after.body(), await before.body())).not.toBe(0);
});

test("a card of someone who is not there answers 404", async ({ page }) => {
  const missing = await page.request.get(`/og/${newMember("nobody").username}.png`);
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ message: "User not found" });
});
