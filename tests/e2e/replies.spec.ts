import {
  addPrism,
  expect,
  expectNoAxeViolations,
  expectToast,
  ORIGIN,
  respond,
  test,
} from "./fixtures.ts";

const CONTENT = "<p>I give feedback in writing first, then offer to talk.</p>";

test("the owner answers a pending response, and the author's open page shows it live", async ({
  page,
  browser,
  signIn,
}) => {
  // Two browsers, each with the sidebar open, and three writes.
  test.slow();
  const owner = await signIn(page);
  const prismId = await addPrism(page.request, { title: "How I give feedback", content: CONTENT });

  // An anonymous visitor responds, and keeps the page open on their response.
  const visitor = await browser.newContext({ baseURL: ORIGIN });
  await respond(visitor.request, {
    prismId,
    content: CONTENT,
    quote: "offer to talk",
    annotationText: "Talking after reading works for me too.",
  });
  const author = await visitor.newPage();
  await author.goto(`/${owner.username}`);
  await author.getByRole("button", { name: "Responses (1)" }).click();
  const authorSidebar = author.getByRole("dialog", { name: "Responses" });
  await expect(
    authorSidebar.getByText("Your annotation is pending approval from the Prism owner."),
  ).toBeVisible();

  // The owner replies; the form says first that this approves the response.
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Responses (1)" }).click();
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await sidebar.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(
    sidebar.getByText(
      "Replying approves this response: it and your reply will be visible to everyone.",
    ),
  ).toBeVisible();
  await expect(sidebar.getByLabel("Your reply")).toBeFocused();
  await expectNoAxeViolations(page);
  await sidebar.getByRole("button", { name: "Approve and reply" }).click();
  await expect(sidebar.getByRole("alert")).toHaveText("Please write a reply");
  await sidebar.getByLabel("Your reply").fill("Then let's talk on Thursday.");
  await sidebar.getByRole("button", { name: "Approve and reply" }).click();
  await expectToast(page, "Your reply is shown under this response.");
  const ownReply = sidebar.getByRole("region", { name: "Your reply" });
  await expect(ownReply.getByText("Then let's talk on Thursday.")).toBeVisible();
  await expect(sidebar.getByText("This annotation is pending approval.")).toHaveCount(0);

  // The author's page follows without a reload: approved, with the owner's reply under it.
  const authorReply = authorSidebar.getByRole("region", { name: "Reply from Robin Quill" });
  await expect(authorReply.getByText("Then let's talk on Thursday.")).toBeVisible();
  await expect(authorSidebar.getByText(/pending approval/)).toHaveCount(0);
  await expectNoAxeViolations(author);

  // The owner rewrites it, then takes it back after confirming.
  await ownReply.getByRole("button", { name: "Edit reply" }).click();
  await sidebar.getByLabel("Your reply").fill("Thursday at ten, then.");
  await sidebar.getByRole("button", { name: "Save reply" }).click();
  await expect(ownReply.getByText("Thursday at ten, then.")).toBeVisible();
  await expect(ownReply.getByText(/edited/)).toBeVisible();
  await expect(authorReply.getByText("Thursday at ten, then.")).toBeVisible();

  await ownReply.getByRole("button", { name: "Delete reply" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete your reply?" });
  await expectNoAxeViolations(page);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Reply deleted");
  await expect(ownReply).toHaveCount(0);
  await expect(sidebar.getByRole("button", { name: "Reply", exact: true })).toBeVisible();
  await expect(authorReply).toHaveCount(0);
  await expect(authorSidebar.getByText("Talking after reading works for me too.")).toBeVisible();
  await visitor.close();
});

test("an anonymous author keeps a private link and follows their response there", async ({
  page,
  browser,
  addOwner,
}) => {
  test.slow();
  const {
    member: owner,
    ids: [prismId],
    request: asOwner,
  } = await addOwner([{ title: "How I give feedback", content: CONTENT }]);

  // The visitor responds on the page; the dialog then shows the private link to copy.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Respond to a passage" }).click();
  const form = page.getByRole("dialog", { name: "Respond to this passage" });
  await form.getByLabel("Select the words you want to respond to").focus();
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < "I give feedback".length; i++) await page.keyboard.press("Shift+ArrowRight");
  await form.getByLabel("Your thought").fill("Writing first helps me too.");
  await form.getByRole("button", { name: "Respond" }).click();
  const sent = page.getByRole("dialog", { name: "Response sent" });
  const link = await sent.getByLabel("Your private link").inputValue();
  expect(link).toMatch(new RegExp(`^${ORIGIN}/responses/[\\w-]{22}$`));
  await expectNoAxeViolations(page);
  await sent.getByRole("button", { name: "Copy" }).click();
  await expectToast(page, "Link copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await sent.getByRole("button", { name: "Done" }).click();
  await expect(
    page.getByRole("dialog", { name: "Responses" }).getByText("Writing first helps me too."),
  ).toBeVisible();

  // Later, on another device: the link shows the response, pending, and is kept out of search.
  const elsewhere = await browser.newContext({ baseURL: ORIGIN });
  const status = await elsewhere.newPage();
  await status.goto(link);
  await expect(status.getByRole("heading", { name: "Your response" })).toBeVisible();
  await expect(status.getByText("Writing first helps me too.")).toBeVisible();
  await expect(status.getByText("I give feedback", { exact: true })).toBeVisible();
  await expect(
    status.getByText("Your annotation is pending approval from the Prism owner."),
  ).toBeVisible();
  await expect(status.locator('meta[name="robots"]')).toHaveAttribute(
    "content",
    "noindex, nofollow",
  );
  await expectNoAxeViolations(status);

  // The owner answers; the author's open page shows it by itself (it asks every 5 s).
  const [annotation] = await (await asOwner.get(`/api/prisms/${prismId}/annotations`)).json();
  const replied = await asOwner.put(`/api/annotations/${annotation.id}/reply`, {
    headers: { origin: ORIGIN },
    data: { text: "Then we agree: writing first." },
  });
  expect(replied.status()).toBe(200);
  const approved = status.getByRole("status").filter({
    hasText: "Approved: everyone who reads this prism can see your response.",
  });
  await expect(approved).toBeVisible({ timeout: 15_000 });
  await expect(approved).toHaveAttribute("data-status", "approved");
  const reply = status.getByRole("region", { name: "Reply from Robin Quill" });
  await expect(reply.getByText("Then we agree: writing first.")).toBeVisible();
  await expectNoAxeViolations(status);
  await status.getByRole("link", { name: '"How I give feedback"' }).click();
  await expect(status).toHaveURL(`/${owner.username}?prism=${prismId}`);

  // A link that never was says so.
  await status.goto("/responses/AAAAAAAAAAAAAAAAAAAAAA");
  await expect(
    status.getByText("This link does not lead to a response.", { exact: false }),
  ).toBeVisible();
  await elsewhere.close();
});

test("a member author is notified when the owner answers", async ({ page, signIn, addOwner }) => {
  const {
    member: owner,
    ids: [prismId],
    request: asOwner,
  } = await addOwner([{ title: "How I give feedback", content: CONTENT }]);
  await signIn(page);
  const { id } = await respond(page.request, {
    prismId,
    content: CONTENT,
    quote: "offer to talk",
    annotationText: "I like talking after.",
  });
  await page.goto("/notifications");
  await expect(page.getByText("No notifications yet")).toBeVisible();

  const replied = await asOwner.put(`/api/annotations/${id}/reply`, {
    headers: { origin: ORIGIN },
    data: { text: "Good, let's." },
  });
  expect(replied.status()).toBe(200);
  // The open page hears of it.
  const item = page.getByText('Robin Quill replied to your response to "How I give feedback"');
  await expect(item).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: /replied to your response/ }).click();
  await expect(page).toHaveURL(new RegExp(`/${owner.username}`));
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await expect(
    sidebar.getByRole("region", { name: "Reply from Robin Quill" }).getByText("Good, let's."),
  ).toBeVisible();
});
