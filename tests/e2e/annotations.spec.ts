import type { Browser, Locator, Page } from "@playwright/test";
import {
  addPrism,
  dragSelect,
  expect,
  expectNoAxeViolations,
  expectToast,
  keepStatusLink,
  newMember,
  ORIGIN,
  PASSWORD,
  recordToasts,
  respond,
  test,
} from "./fixtures.ts";

const CONTENT =
  "<p>I give feedback in writing first, then offer to talk.</p><p>Writing forces me to <strong>separate what I observed</strong> from what I inferred.</p>";

const FEEDBACK = { title: "How I give feedback", content: CONTENT };

/** An anonymous visitor responds to "offer to talk", pending the owner's decision; its id. */
async function visitorResponds(browser: Browser, prismId: number) {
  const visitor = await browser.newContext({ baseURL: ORIGIN });
  const { id } = await respond(visitor.request, {
    prismId,
    content: CONTENT,
    quote: "offer to talk",
    annotationText: "Talking after reading works for me too.",
  });
  await visitor.close();
  return id;
}

test("a visitor answers a passage, the owner approves it, and readers see it highlighted", async ({
  page,
  browser,
  addOwner,
}) => {
  // Three browsers and a sign-in: a long story on a busy machine.
  test.slow();
  const {
    member,
    ids: [prismId],
  } = await addOwner([FEEDBACK], newMember("author"));

  // An anonymous visitor selects a phrase with the mouse and responds.
  await page.goto(`/${member.username}`);
  const content = page.locator(`#prism-${prismId} .prism-content`);
  await dragSelect(page, content, "separate what I observed");
  await page.getByRole("button", { name: "Respond", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  await expect(dialog.getByText("separate what I observed", { exact: true })).toBeVisible();
  const respond = dialog.getByRole("button", { name: "Respond" });
  await expect(respond).toBeDisabled();
  await expectNoAxeViolations(page);
  await dialog.getByLabel("Your thought").fill("Naming the difference is half the work.");
  await expect(respond).toBeEnabled();
  await dialog.getByLabel("Your thought").press("Enter");
  await expectToast(page, "Your response has been submitted successfully.");
  expect(await keepStatusLink(page)).toMatch(new RegExp(`^${ORIGIN}/responses/[\\w-]{22}$`));

  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await expect(
    sidebar.getByText("Your annotation is pending approval from the Prism owner."),
  ).toBeVisible();
  await expect(sidebar.getByText("You", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(sidebar).toBeHidden();

  // The owner signs in and approves it.
  const ownerContext = await browser.newContext({ baseURL: ORIGIN });
  await recordToasts(ownerContext);
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto("/sign-in");
  await ownerPage.getByLabel("Username").fill(member.username);
  await ownerPage.getByLabel("Password").fill(PASSWORD);
  await ownerPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(ownerPage).toHaveURL(`/${member.username}`);
  await ownerPage.getByRole("button", { name: "Responses (1)" }).click();
  const ownerSidebar = ownerPage.getByRole("dialog", { name: "Responses" });
  await expect(ownerSidebar.getByText("This annotation is pending approval.")).toBeVisible();
  await expectNoAxeViolations(ownerPage);
  await ownerSidebar.getByRole("button", { name: "Approve" }).click();
  await expectToast(ownerPage, "The annotation has been approved and is now visible to others.");
  await expect(ownerSidebar.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await ownerContext.close();

  // A third reader turns highlights on and sees the passage and the response.
  const readerContext = await browser.newContext({ baseURL: ORIGIN });
  const reader = await readerContext.newPage();
  await reader.goto(`/${member.username}`);
  await reader.getByRole("button", { name: "Show Highlights (1)" }).click();
  await expect(reader.getByRole("button", { name: "Hide Highlights (1)" })).toBeVisible();
  await expect
    .poll(() =>
      reader.evaluate(() => {
        const highlight = CSS.highlights.get("prism-annotation");
        return highlight ? [...highlight].map((range) => (range as Range).toString()) : [];
      }),
    )
    .toEqual(["separate what I observed"]);
  await reader.getByRole("button", { name: "Responses (1)" }).click();
  await expect(reader.getByText("Naming the difference is half the work.")).toBeVisible();
  await expect(reader.getByText(/pending approval/)).toHaveCount(0);
  await reader.reload();
  await expect(reader.getByRole("button", { name: "Hide Highlights (1)" })).toBeVisible();
  // On a small screen the same toggle sits in the menu.
  await reader.setViewportSize({ width: 375, height: 800 });
  await reader.getByRole("button", { name: "Open menu" }).click();
  const menu = reader.getByRole("navigation", { name: "Mobile" });
  await expect(menu.getByRole("button", { name: "Hide Highlights (1)" })).toBeVisible();
  await expectNoAxeViolations(reader);
  await menu.getByRole("button", { name: "Hide Highlights (1)" }).click();
  await expect(reader.getByRole("button", { name: "Show Highlights (1)" })).toBeVisible();
  await reader.setViewportSize({ width: 1280, height: 800 });

  await readerContext.close();
});

test("a deep link to an annotation opens it in the sidebar and leaves the address clean", async ({
  page,
  browser,
  addOwner,
}) => {
  const {
    member,
    ids: [prismId],
  } = await addOwner([FEEDBACK], newMember("author"));
  const annotationId = await visitorResponds(browser, prismId);

  // The author (this browser is another visitor) cannot see it while it is pending.
  await page.goto(`/${member.username}?annotation=${annotationId}`);
  await expectToast(page, "Could not load the requested annotation");

  const owner = await browser.newContext({ baseURL: ORIGIN });
  const login = await owner.request.post("/api/login", {
    headers: { origin: ORIGIN },
    data: { username: member.username, password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  const approved = await owner.request.put(`/api/annotations/${annotationId}/status`, {
    headers: { origin: ORIGIN },
    data: { status: "approved" },
  });
  expect(approved.status()).toBe(200);
  await owner.close();

  await page.goto(`/${member.username}?annotation=${annotationId}`);
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await expect(sidebar.getByText("Talking after reading works for me too.")).toBeVisible();
  await expect(page).toHaveURL(`/${member.username}`);
  await expect(sidebar.getByText("Talking after reading works for me too.")).toBeVisible();
});

test("a corrected selection, bad annotation links and keyboard annotation", async ({
  page,
  addOwner,
}) => {
  const {
    member,
    ids: [prismId],
  } = await addOwner([FEEDBACK], newMember("author"));
  await page.goto(`/${member.username}?annotation=abc`);
  await expectToast(page, "Invalid annotation ID format");
  await page.goto(`/${member.username}?annotation=987654`);
  await expectToast(page, "Could not load the requested annotation");

  // A selection that begins above the prism is corrected to begin where the prism does.
  const content = page.locator(`#prism-${prismId} .prism-content`);
  await dragSelect(page, content, "I give feedback", page.getByRole("heading", { level: 1 }));
  await page.getByRole("button", { name: "Respond", exact: true }).click();
  const corrected = page.getByRole("dialog", { name: "Respond to this passage" });
  await expect(corrected.getByText("I give feedback", { exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(corrected).toHaveCount(0);

  // A keyboard user picks the passage in the dialog's text box.
  await page.getByRole("button", { name: "Respond to a passage" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  const passage = dialog.getByLabel("Select the words you want to respond to");
  await passage.focus();
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < "I give feedback".length; i++) await page.keyboard.press("Shift+ArrowRight");
  await expect(dialog.getByText("I give feedback", { exact: true })).toBeVisible();
  expect(await sendThought(page, dialog, prismId, "Same here.")).toMatchObject({
    selectedText: "I give feedback",
    selectionStart: 0,
    selectionEnd: 15,
  });
});

test("the owner sees how many responses are approved, with no highlights toggle", async ({
  page,
  browser,
  signIn,
}) => {
  const owner = await signIn(page, newMember("owner"));
  const prismId = await addPrism(page.request, FEEDBACK);
  const annotationId = await visitorResponds(browser, prismId);
  const approved = await page.request.put(`/api/annotations/${annotationId}/status`, {
    headers: { origin: ORIGIN },
    data: { status: "approved" },
  });
  expect(approved.status()).toBe(200);

  await page.goto(`/${owner.username}`);
  await expect(page.getByText("1 annotation", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Highlights/ })).toHaveCount(0);
  const highlighted = () => page.evaluate(() => CSS.highlights.get("prism-annotation")?.size ?? 0);
  expect(await highlighted()).toBe(0);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("navigation", { name: "Mobile" });
  await expect(menu.getByRole("link", { name: "Explore" })).toBeVisible();
  await expect(menu.getByRole("button", { name: /Highlights/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Close menu" }).click();
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole("button", { name: "Editing" }).click();
  await page.getByRole("button", { name: "Responses (1)" }).click();
  await expect(
    page
      .getByRole("dialog", { name: "Responses" })
      .getByText("Talking after reading works for me too."),
  ).toBeVisible();
  expect(await highlighted()).toBe(0);
});

/** Sends a thought from the open response dialog; answers the prism's newest annotation. */
async function sendThought(page: Page, dialog: Locator, prismId: number, thought: string) {
  await dialog.getByLabel("Your thought").fill(thought);
  await dialog.getByLabel("Your thought").press("Enter");
  await keepStatusLink(page);
  await expect(page.getByRole("dialog", { name: "Responses" }).getByText(thought)).toBeVisible();
  const [created] = await (await page.request.get(`/api/prisms/${prismId}/annotations`)).json();
  return created;
}

/** The box on the screen of the reader's current selection. */
function selectionBox(page: Page) {
  return page.evaluate(() => {
    const box = document.getSelection()?.getRangeAt(0).getBoundingClientRect();
    if (!box) throw new Error("no selection");
    return { top: box.top, bottom: box.bottom };
  });
}

test("a selection made with the mouse or the keyboard offers Respond beside it, reached with Tab", async ({
  page,
  addOwner,
}) => {
  const {
    member,
    ids: [prismId],
  } = await addOwner([FEEDBACK], newMember("author"));
  await page.goto(`/${member.username}`);
  const content = page.locator(`#prism-${prismId} .prism-content`);
  const respond = page.getByRole("button", { name: "Respond", exact: true });

  // A drag that starts and ends inside words: the button sits above the passage, off it.
  await dragSelect(page, content, "orces me to sepa");
  await expect(respond).toBeVisible();
  const selected = await selectionBox(page);
  const button = await respond.boundingBox();
  expect((button?.y ?? 0) + (button?.height ?? 0)).toBeLessThanOrEqual(selected.top);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await respond.click();
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  await expect(dialog.getByText("forces me to separate", { exact: true })).toBeVisible();
  await expect(dialog.getByText("Enter to send, Shift+Enter for a new line.")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // A word picked with a double click, stretched with Shift and the arrows; Tab reaches the button.
  const offer = await content.evaluate((root) => {
    const text = root.querySelector("p")?.firstChild as Text;
    const range = document.createRange();
    const at = text.data.indexOf("offer");
    range.setStart(text, at);
    range.setEnd(text, at + "offer".length);
    const box = range.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  });
  await page.mouse.dblclick(offer.x, offer.y);
  await expect(respond).toBeVisible();
  // The button follows the selection a frame later; someone quick on the keys presses it before
  // that frame: the page's frames are held from here until Enter.
  await page.evaluate(() => {
    const held: FrameRequestCallback[] = [];
    const frame = window.requestAnimationFrame;
    window.requestAnimationFrame = (callback) => held.push(callback);
    (window as unknown as { releaseFrames(): void }).releaseFrames = () => {
      window.requestAnimationFrame = frame;
      for (const callback of held) frame(callback);
    };
  });
  for (let i = 0; i < " t".length; i++) await page.keyboard.press("Shift+ArrowRight");
  await expect.poll(() => page.evaluate(() => document.getSelection()?.toString())).toBe("offer t");
  await page.keyboard.press("Tab");
  await expect(respond).toBeFocused();
  await page.keyboard.press("Enter");
  await page.evaluate(() => (window as unknown as { releaseFrames(): void }).releaseFrames());
  await expect(dialog.getByText("offer to", { exact: true })).toBeVisible();
  const created = await sendThought(page, dialog, prismId, "Talking second works for me.");
  const start = "I give feedback in writing first, then ".length;
  expect(created).toMatchObject({
    selectedText: "offer to",
    selectionStart: start,
    selectionEnd: start + "offer to".length,
  });
});

test("clicking a highlighted passage opens its response in the Responses sidebar", async ({
  page,
  browser,
  addOwner,
}) => {
  const {
    member,
    ids: [prismId],
  } = await addOwner([FEEDBACK], newMember("author"));
  const annotationId = await visitorResponds(browser, prismId);
  const owner = await browser.newContext({ baseURL: ORIGIN });
  await owner.request.post("/api/login", {
    headers: { origin: ORIGIN },
    data: { username: member.username, password: PASSWORD },
  });
  const approved = await owner.request.put(`/api/annotations/${annotationId}/status`, {
    headers: { origin: ORIGIN },
    data: { status: "approved" },
  });
  expect(approved.status()).toBe(200);
  await owner.close();

  await page.goto(`/${member.username}`);
  await page.getByRole("button", { name: "Show Highlights (1)" }).click();
  const highlight = await page.evaluate(async () => {
    while (!CSS.highlights.get("prism-annotation")) await new Promise((r) => setTimeout(r, 50));
    const [range] = [...(CSS.highlights.get("prism-annotation") ?? [])] as Range[];
    const box = range?.getBoundingClientRect();
    if (!box) throw new Error("no highlight");
    return { x: box.left + box.width / 2, y: box.top + box.height / 2, left: box.left };
  });
  // A click beside the highlight opens nothing.
  await page.mouse.click(highlight.left - 30, highlight.y);
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.mouse.click(highlight.x, highlight.y);
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await expect(sidebar).toBeVisible();
  await expect(sidebar.locator(`#annotation-${annotationId}`)).toContainText(
    "Talking after reading works for me too.",
  );
  await expect(sidebar.locator(`#annotation-${annotationId}`)).toBeInViewport();
  await expectNoAxeViolations(page);
});
