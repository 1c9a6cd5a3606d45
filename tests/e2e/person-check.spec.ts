// A reader without an account is checked for being a person while writing: ALTCHA's widget in the
// dialog solves the server's challenge by itself, in Chromium, under the site's CSP; the response
// carries the proof and waits for the owner. A member's dialog has no check at all.
import type { Page, Request } from "@playwright/test";
import {
  dragSelect,
  expect,
  expectNoAxeViolations,
  expectToast,
  keepStatusLink,
  type MemberFixtures,
  newMember,
  test,
} from "./fixtures.ts";
import { phone, touchSelect } from "./phone.ts";

const CONTENT =
  "<p>I think out loud in writing before any meeting.</p><p>Send me the question a day early and I will come with an answer.</p>";
const PRISM = { title: "How I prepare", content: CONTENT };

/** What a sent response carried of the check: the proof's solution and the form's time. */
function checkOf(request: Request) {
  const body = request.postDataJSON();
  const payload = JSON.parse(Buffer.from(body.altcha, "base64").toString("utf8"));
  return {
    solution: payload.solution as { counter: number; time: number },
    typingMs: body.typingMs as number,
    website: body.website as string | undefined,
  };
}

/** `page` on a new owner's page (`name`) with the prism: the prism's content. */
async function visitPrism(page: Page, addOwner: MemberFixtures["addOwner"], name: string) {
  const {
    member: owner,
    ids: [prismId],
  } = await addOwner([PRISM], newMember(name));
  await page.goto(`/${owner.username}`);
  return page.locator(`#prism-${prismId} .prism-content`);
}

/** The dialog's thought is written and sent; the request that sent it. */
async function send(page: Page, thought: string, press: () => Promise<void>) {
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  await dialog.getByLabel("Your thought").fill(thought);
  const sent = page.waitForRequest(
    (request) => request.method() === "POST" && request.url().endsWith("/api/annotations"),
  );
  await press();
  return sent;
}

test("a visitor's browser confirms it is a person by itself, and the response is sent and pending", async ({
  page,
  addOwner,
}) => {
  test.slow();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await dragSelect(page, await visitPrism(page, addOwner, "checked"), "think out loud");
  await page.getByRole("button", { name: "Respond", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  // Nobody clicks it: the check runs as the dialog opens, and says when it is done.
  const check = dialog.getByRole("checkbox", { name: "Confirmed: you're a person" });
  await expect(check).toBeChecked();
  await expectNoAxeViolations(page);

  // By keyboard: from the e-mail to the check, then on to Cancel; the honeypot is never reached.
  await dialog.getByLabel("Email").focus();
  await page.keyboard.press("Tab");
  await expect(check).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expect(dialog.getByRole("textbox", { name: "Website" })).toHaveCount(0);

  const sent = await send(page, "Writing first keeps me honest.", () =>
    dialog.getByLabel("Your thought").press("Enter"),
  );
  const { solution, typingMs, website } = checkOf(sent);
  expect(solution.counter).toBeGreaterThan(0);
  expect(typingMs).toBeGreaterThanOrEqual(2000);
  expect(website).toBeUndefined();
  expect((await sent.response())?.status()).toBe(201);
  test.info().annotations.push({ type: "solved in", description: `${solution.time} ms` });
  await expectToast(page, "Your response has been submitted successfully.");
  await keepStatusLink(page);
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await expect(
    sidebar.getByText("Your annotation is pending approval from the Prism owner."),
  ).toBeVisible();
  // Nothing the CSP refused, no worker that failed.
  expect(errors).toEqual([]);
});

test("a member's dialog has no check, and their response is sent without one", async ({
  page,
  addOwner,
  signIn,
}) => {
  await signIn(page, newMember("reader"));
  await dragSelect(page, await visitPrism(page, addOwner, "unchecked"), "a day early");
  await page.getByRole("button", { name: "Respond", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  await expect(dialog.getByLabel("Your thought")).toBeVisible();
  await expect(dialog.getByRole("checkbox")).toHaveCount(0);
  const sent = await send(page, "A day is enough for me too.", () =>
    dialog.getByRole("button", { name: "Respond" }).click(),
  );
  expect(sent.postDataJSON()).not.toHaveProperty("altcha");
  expect(sent.postDataJSON()).not.toHaveProperty("typingMs");
  expect((await sent.response())?.status()).toBe(201);
  await expectToast(page, "Your response has been submitted successfully.");
});

// The phone's size, touch and user agent (the browser is this file's Chromium already).
const { defaultBrowserType: _, ...phoneProfile } = phone;

test.describe("on a phone", () => {
  test.use(phoneProfile);

  test("the check fits the 360 px dialog and solves on a phone's CPU (four times slower)", async ({
    page,
    addOwner,
  }) => {
    test.slow();
    const content = await visitPrism(page, addOwner, "phone");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await touchSelect(content, ["think", 0], ["writing", 7]);
    await page.getByRole("button", { name: "Respond", exact: true }).tap();
    const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
    const check = dialog.getByRole("checkbox", { name: "Confirmed: you're a person" });
    await expect(check).toBeChecked();
    const widget = await dialog.locator("altcha-widget").boundingBox();
    const box = await dialog.boundingBox();
    if (!widget || !box) throw new Error("no boxes");
    expect(widget.x).toBeGreaterThanOrEqual(box.x);
    expect(widget.x + widget.width).toBeLessThanOrEqual(box.x + box.width);
    await expectNoAxeViolations(page);

    const sent = await send(page, "Thinking on paper, same here.", () =>
      dialog.getByRole("button", { name: "Respond" }).tap(),
    );
    const { solution } = checkOf(sent);
    test.info().annotations.push({
      type: "solved at 4× CPU throttling in",
      description: `${solution.time} ms`,
    });
    expect((await sent.response())?.status()).toBe(201);
    await expectToast(page, "Your response has been submitted successfully.");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  });
});
