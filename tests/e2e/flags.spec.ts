// A reader flags a published response on a 360 px phone: Flag under it in the Responses sidebar,
// a dialog with the four reasons, Send flag; the flag is kept for the owner's Flagged folder,
// whose count the owner's open review page shows at once.
import { eq } from "drizzle-orm";
import { annotationFlags, annotations } from "../../src/server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "../../src/server/security/session-store.ts";
import { expect, expectNoAxeViolations, expectToast, ORIGIN, test } from "./fixtures.ts";
import { phone } from "./phone.ts";

test.use(phone);

const CONTENT = "<p>Mornings are for deep work, afternoons for talking.</p>";

test("a phone reader flags a published response with a reason @live", async ({
  page,
  browser,
  addOwner,
  database,
}) => {
  // Two pages, the reader's and the owner's review page, each loaded and checked with axe.
  test.slow();
  const {
    member: owner,
    ids: [prismId],
  } = await addOwner([{ title: "My best hours", content: CONTENT }]);
  const [response] = await database.db
    .insert(annotations)
    .values({
      prismId,
      prismTitle: "My best hours",
      selectedText: "Mornings",
      selectionStart: 0,
      selectionEnd: 8,
      annotationText: "Mine too, before the mail arrives.",
      annotatorName: "Sam",
      visitorHash: `flag-story-${owner.username}`,
      status: "approved",
    })
    .returning({ id: annotations.id });
  if (!response) throw new Error("no response");

  // The owner's review page is open on the Flagged folder, empty.
  const ownerContext = await browser.newContext({ baseURL: ORIGIN });
  const token = await createSession(database.db, owner.id, "playwright");
  await ownerContext.addCookies([
    { name: SESSION_COOKIE, value: token, url: ORIGIN, httpOnly: true, sameSite: "Lax" },
  ]);
  const review = await ownerContext.newPage();
  await review.goto("/review?status=flagged");
  const folders = review.getByRole("navigation", { name: "Folders" });
  await expect(review.getByText("Nothing flagged")).toBeVisible();
  await expect(folders.getByRole("link", { name: "Flagged", exact: true })).toBeVisible();

  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Responses (1)" }).click();
  const sidebar = page.getByRole("dialog", { name: "Responses" });
  await sidebar.getByRole("button", { name: "Flag the response by Sam (visitor)" }).click();

  const dialog = page.getByRole("dialog", { name: "Flag this response" });
  await expect(dialog.getByRole("radio")).toHaveCount(4);
  await expectNoAxeViolations(page);
  // The dialog fits the phone's width, its buttons within reach.
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
  await dialog.getByRole("button", { name: "Send flag" }).click();
  await expect(dialog.getByText("Choose a reason")).toBeVisible();

  await dialog.getByText("Abuse or harassment").click();
  await dialog.getByLabel("Add a note (optional)").fill("It insults a colleague by name.");
  await dialog.getByRole("button", { name: "Send flag" }).click();
  await expectToast(page, "Flag sent");
  await expect(dialog).toHaveCount(0);

  const flags = await database.db
    .select({ reason: annotationFlags.reason, note: annotationFlags.note })
    .from(annotationFlags)
    .where(eq(annotationFlags.annotationId, response.id));
  expect(flags).toEqual([{ reason: "abuse", note: "It insults a colleague by name." }]);

  // The owner's open page counts it, and lists it, without a reload.
  await expect(folders.getByRole("link", { name: "Flagged (1 response)" })).toBeVisible();
  await expect(review.getByText("Mine too, before the mail arrives.")).toBeVisible();
  await expectNoAxeViolations(review);
  await ownerContext.close();
});
