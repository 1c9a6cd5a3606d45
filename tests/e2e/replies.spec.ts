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
