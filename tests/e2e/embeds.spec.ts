// A prism embedded on another site: the site pastes the oEmbed answer's HTML, and its readers see
// the prism's card in the frame, with no script, and a link to read it on Prism. Only the card may
// be framed: the member's page itself, framed the same way, is refused by the browser.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, newMember, ORIGIN, test } from "./fixtures.ts";

/**
 * Another site, on this machine as the server under test is (a page from a public address may
 * not frame a local one): a server of its own, answering one page with `body`. Answers its origin.
 */
async function siteElsewhere(body: string): Promise<{ origin: string; close: () => void }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

test("another site frames a prism's embed card from its oEmbed answer", async ({
  page,
  addOwner,
}) => {
  const {
    member,
    ids: [prismId],
    request,
  } = await addOwner(
    [{ title: "How I like to work", content: "<p>Quietly, and in the morning.</p>" }],
    newMember("embeds"),
  );
  const link = `${ORIGIN}/${member.username}?prism=${prismId}`;
  const answer = await request.get(`/oembed?url=${encodeURIComponent(link)}&format=json`);
  expect(answer.status()).toBe(200);
  const { html } = (await answer.json()) as { html: string };

  const elsewhere = await siteElsewhere(`<!doctype html><html lang="en"><head>
    <title>Elsewhere</title></head><body><main><h1>A post elsewhere</h1>${html}
    <iframe title="The member's page" src="${ORIGIN}/${member.username}"></iframe>
    </main></body></html>`);
  try {
    expect(elsewhere.origin).not.toBe(new URL(ORIGIN).origin);
    await page.goto(`${elsewhere.origin}/a-post`);
    await readsTheCard(page, link);
  } finally {
    elsewhere.close();
  }
});

/** The prism's card, framed on the other site's page; and the member's page, refused there. */
async function readsTheCard(page: Page, link: string) {
  const card = page.frameLocator('iframe[title="How I like to work"]');
  await expect(card.getByRole("heading", { name: "How I like to work" })).toBeVisible();
  await expect(card.getByText("Quietly, and in the morning.")).toBeVisible();
  await expect(card.getByRole("link", { name: "Read on Prism" })).toHaveAttribute("href", link);
  const frame = page.frames().find((candidate) => candidate.url().includes("/embed/"));
  expect(await frame?.evaluate(() => document.scripts.length)).toBe(0);

  // The page itself may be framed by no other site: the browser shows its error page instead.
  await expect
    .poll(() => page.frames().map((candidate) => candidate.url()))
    .toContain("chrome-error://chromewebdata/");
}

test("an embed card reads well on its own, to everyone", async ({ page, addOwner }) => {
  const {
    member,
    ids: [prismId],
  } = await addOwner(
    [{ title: "What I answer first", content: "<p>Questions from the people I work with.</p>" }],
    newMember("embedcard"),
  );
  await page.setViewportSize({ width: 360, height: 300 });
  await page.goto(`/embed/${member.username}/${prismId}`);
  await expect(page.getByRole("heading", { name: "What I answer first" })).toBeVisible();
  await expect(page.getByText(`by ${member.firstName} ${member.lastName}`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
});
