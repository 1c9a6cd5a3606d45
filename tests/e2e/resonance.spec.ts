// Resonance (issue 23): the owner's heat map of what their readers responded to, told in words as
// well as colour; the "Top passage" readers see once three people's approved responses overlap;
// the views a reader's page counts; and the owner's "This week".
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import {
  addPrism,
  expect,
  expectHydrated,
  expectNoAxeViolations,
  type MemberFixtures,
  ORIGIN,
  respond,
  test,
  toggleHeart,
} from "./fixtures.ts";
import { phone } from "./phone.ts";

/** The phone, in a group of its own: the browser is the project's Chromium already. */
const { defaultBrowserType: _chromium, ...phoneInGroup } = phone;

/** A desktop Chrome that says nothing of being headless: the server counts its views. */
const READER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const TITLE = "How I work";
const CONTENT =
  "<p>I answer messages in batches. I keep mornings for deep work.</p><p>Ask me anything, anytime.</p>";

/** The button that opens and closes a prism's section: its number and title. */
const opener = (page: Page, title: string) =>
  page.getByRole("button", { name: new RegExp(`^\\d+\\. ${title}$`) });

/** A prism's section of the page. */
function section(page: Page, title: string) {
  return page.locator('li[id^="prism-"]').filter({ has: opener(page, title) });
}

/** The words each named highlight of the page draws, in order. */
function drawn(page: Page, name: string) {
  return page.evaluate(
    (name) => [...(CSS.highlights.get(name) ?? [])].map((range) => (range as Range).toString()),
    name,
  );
}

/** A reader of their own (a browser context), signed in as a new member unless `anonymous`. */
async function reader(browser: Browser, signIn: MemberFixtures["signIn"], anonymous = false) {
  const context = await browser.newContext({ baseURL: ORIGIN, userAgent: READER_AGENT });
  if (!anonymous) await signIn(context);
  return context;
}

/** Each of `quotes` answered by a new reader of its own; answers the responses' ids. */
async function respondAsMany(
  browser: Browser,
  signIn: MemberFixtures["signIn"],
  prismId: number,
  quotes: string[],
) {
  const ids: number[] = [];
  for (const [index, quote] of quotes.entries()) {
    const context = await reader(browser, signIn);
    const response = await respond(context.request, {
      prismId,
      content: CONTENT,
      quote,
      annotationText: `Thought number ${index + 1}`,
    });
    ids.push(response.id);
    await context.close();
  }
  return ids;
}

async function approve(owner: APIRequestContext, annotationId: number) {
  const answer = await owner.put(`/api/annotations/${annotationId}/status`, {
    headers: { origin: ORIGIN },
    data: { status: "approved" },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

test("the owner turns Resonance on and reads the heat in colour, in words and by keyboard", async ({
  page,
  browser,
  signIn,
}) => {
  test.slow();
  const owner = await signIn(page);
  const prismId = await addPrism(page.request, { title: TITLE, content: CONTENT });
  const batches = "I answer messages in batches";
  const ids = await respondAsMany(browser, signIn, prismId, [
    batches,
    batches,
    batches,
    batches,
    batches,
    "deep work",
    "deep work",
    "anything",
  ]);
  // Approved and pending responses alike are counted.
  await approve(page.request, ids[0] as number);

  await page.goto(`/${owner.username}`);
  const toggle = page.getByRole("button", { name: "Resonance", exact: true });
  await expectHydrated(toggle);
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("region", { name: "Resonance" })).toHaveCount(0);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");

  const map = section(page, TITLE).getByRole("region", { name: "Resonance" });
  const summary = "3 passages drew responses; the most, 5, on 'I answer messages in batches'";
  await expect(map.getByText(summary, { exact: true })).toBeVisible();
  // The sentence is the map's description for a screen reader.
  await expect(map).toHaveAccessibleDescription(summary);
  await expect(
    map.getByRole("list", { name: "Legend: responses per stretch" }).getByRole("listitem"),
  ).toHaveText(["1", "2", "3–4", "5+"]);

  await expect.poll(() => drawn(page, "prism-heat-4")).toEqual([batches]);
  expect(await drawn(page, "prism-heat-2")).toEqual(["deep work"]);
  expect(await drawn(page, "prism-heat-1")).toEqual(["anything"]);

  const passages = map.getByRole("list", { name: "Passages and their responses" });
  await expect(passages.getByRole("button")).toHaveText([
    `‘${batches}’5 responses`,
    "‘deep work’2 responses",
    "‘anything’1 response",
  ]);
  // The keyboard reaches each passage with its count, and marks its words in the text.
  await passages.getByRole("button").first().focus();
  await page.keyboard.press("Tab");
  await expect(passages.getByRole("button").nth(1)).toBeFocused();
  await expect.poll(() => drawn(page, "prism-heat-focus")).toEqual(["deep work"]);

  // A pointer over the words shows the count of the stretch beneath it.
  const box = await page.evaluate(() => {
    const range = [...(CSS.highlights.get("prism-heat-4") ?? [])][0] as Range;
    const rect = range.getClientRects()[0] as DOMRect;
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  });
  await page.mouse.move(box.x, box.y);
  await expect(page.getByRole("tooltip")).toHaveText("5 responses");
  await expectNoAxeViolations(page);
  // The pointer leaves the text: the count goes.
  await page.mouse.move(box.x, 1);
  await expect(page.getByRole("tooltip")).toHaveCount(0);

  // Turned off, the heat and the map go.
  await toggle.click();
  await expect(map).toHaveCount(0);
  await expect.poll(() => drawn(page, "prism-heat-4")).toEqual([]);
});

test("readers see the Top passage once three people's approved responses overlap", async ({
  page,
  browser,
  signIn,
  addOwner,
}) => {
  test.slow();
  const {
    member,
    ids: [prismId],
    request: asOwner,
  } = await addOwner([{ title: TITLE, content: CONTENT }]);
  const quote = "I keep mornings for deep work";
  const ids = await respondAsMany(browser, signIn, prismId, [quote, quote, quote]);
  await approve(asOwner, ids[0] as number);
  await approve(asOwner, ids[1] as number);

  // Two people are not yet three; a pending response does not count.
  await page.goto(`/${member.username}`);
  await expect(section(page, TITLE).locator(".prism-content")).toContainText("deep work");
  await expect(page.getByText("Top passage")).toHaveCount(0);

  await approve(asOwner, ids[2] as number);
  // The mark comes with the page the server renders: nothing moves when the script arrives.
  const html = await (await page.request.get(`/${member.username}`)).text();
  expect(html).toContain("Top passage");
  await page.goto(`/${member.username}`);
  const note = section(page, TITLE).locator("[data-top-passage]");
  await expect(note).toHaveText(`Top passage${quote}· 3 people responded`);
  await expect(note).toHaveCount(1);
  await expect.poll(() => drawn(page, "prism-top-passage")).toEqual([quote]);
  await expectNoAxeViolations(page);
});

test("This week counts a reader's view, heart and response, and opens the prism on the map", async ({
  page,
  browser,
  signIn,
}) => {
  test.slow();
  const owner = await signIn(page);
  const valueId = await addPrism(page.request, {
    title: "What I value",
    content: "<p>Candour and care.</p>",
  });
  const prismId = await addPrism(page.request, { title: TITLE, content: CONTENT });
  await addPrism(page.request, { title: "Later", content: "<p>Not read today.</p>" });

  // The owner's own visits count no views: their page sends no beacon at all.
  const beacons: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/prisms/views") beacons.push(request.method());
  });
  await page.goto(`/${owner.username}`);
  const panel = page.getByRole("region", { name: "This week" });
  const stats = panel.locator("dl > div");
  // A new page says it has no readers yet, rather than rows of zeros.
  await expect(panel.getByText("No readers yet")).toBeVisible();
  await expect(stats).toHaveCount(0);
  await expect(panel.getByText("No responses yet")).toHaveCount(0);

  // A reader's page tells the server which prisms it showed them: the first, open as the page
  // opens, and not the two folded under it.
  const visitor = await reader(browser, signIn, true);
  const readerPage = await visitor.newPage();
  const readerBeacons: { prismIds: number[] }[] = [];
  readerPage.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/prisms/views") {
      readerBeacons.push(request.postDataJSON());
    }
  });
  const beacon = () =>
    readerPage.waitForRequest((request) => new URL(request.url()).pathname === "/api/prisms/views");
  const first = beacon();
  await readerPage.goto(`/${owner.username}`);
  const sent = await first;
  expect(sent.method()).toBe("POST");
  expect(sent.postDataJSON()).toEqual({ prismIds: [valueId] });
  expect((await sent.response())?.status()).toBe(204);
  // Opened, the second prism is shown and sent; the first, folded and opened again, is not.
  const second = beacon();
  await expectHydrated(opener(readerPage, TITLE));
  await opener(readerPage, TITLE).click();
  expect((await second).postDataJSON()).toEqual({ prismIds: [prismId] });
  await opener(readerPage, "What I value").click();
  await expect(opener(readerPage, "What I value")).toHaveAttribute("aria-expanded", "true");
  await readerPage.waitForTimeout(1500);
  expect(readerBeacons).toEqual([{ prismIds: [valueId] }, { prismIds: [prismId] }]);
  await toggleHeart(visitor.request, prismId);
  await respond(visitor.request, {
    prismId,
    content: CONTENT,
    quote: "Ask me anything",
    annotationText: "What about afternoons?",
    annotatorName: "Sam",
  });
  await visitor.close();

  // One reader of the page, who read two of its prisms.
  await page.reload();
  await expect(stats).toHaveText([
    "Views1reader · 2 readslast week 0 readers · 0 reads",
    "Hearts1last week 0",
    "Responses1last week 0",
  ]);
  expect(beacons).toEqual([]);
  await expect(panel.getByRole("listitem").filter({ hasText: TITLE })).toContainText(
    "Ask me anything · 1 response",
  );
  await expectNoAxeViolations(page);

  const open = panel.getByRole("button", { name: `Resonance map of ${TITLE}` });
  await expectHydrated(open);
  await open.click();
  await expect(page.getByRole("button", { name: "Resonance", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(opener(page, TITLE)).toBeFocused();
  await expect(opener(page, TITLE)).toHaveAttribute("aria-expanded", "true");
  await expect(
    section(page, TITLE).getByText("1 passage drew responses; the most, 1, on 'Ask me anything'", {
      exact: true,
    }),
  ).toBeInViewport();
});

test.describe("on a phone", () => {
  test.use(phoneInGroup);

  test("the map fits 360 px, and a tap shows a stretch's count", async ({
    page,
    browser,
    signIn,
  }) => {
    test.slow();
    const owner = await signIn(page);
    const prismId = await addPrism(page.request, { title: TITLE, content: CONTENT });
    await respondAsMany(browser, signIn, prismId, ["deep work", "deep work", "anything"]);

    await page.goto(`/${owner.username}`);
    const toggle = page.getByRole("button", { name: "Resonance", exact: true });
    await expectHydrated(toggle);
    await toggle.tap();
    const map = section(page, TITLE).getByRole("region", { name: "Resonance" });
    await expect(
      map.getByText("2 passages drew responses; the most, 2, on 'deep work'", { exact: true }),
    ).toBeVisible();

    // A tap on a passage in the list marks its words.
    await map.getByRole("button", { name: /anything/ }).tap();
    await expect.poll(() => drawn(page, "prism-heat-focus")).toEqual(["anything"]);

    // A tap on the words shows their count, and it stays once the finger has lifted.
    const box = await page.evaluate(() => {
      const range = [...(CSS.highlights.get("prism-heat-2") ?? [])][0] as Range;
      range.startContainer.parentElement?.scrollIntoView({ block: "center" });
      const rect = range.getClientRects()[0] as DOMRect;
      return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
    });
    await page.touchscreen.tap(box.x, box.y);
    await expect(page.getByRole("tooltip")).toHaveText("2 responses");

    const widths = await page.evaluate(() => ({
      inner: window.innerWidth,
      scroll: document.documentElement.scrollWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
    await expectNoAxeViolations(page);
  });
});
