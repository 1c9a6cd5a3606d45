// The owner's review queue: 100 responses waiting on two prisms cleared from the keyboard in a
// handful of presses; the keys that move, select and decide one at a time; and the same queue on
// a 360 px phone by touch. Axe passes on the page and its dialog throughout.
import type { Page } from "@playwright/test";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../src/server/db/client.ts";
import { annotations, auditLog } from "../../src/server/db/schema.ts";
import {
  addPrism,
  expect,
  expectHydrated,
  expectNoAxeViolations,
  type MemberFixtures,
  newMember,
  test,
} from "./fixtures.ts";
import { phone } from "./phone.ts";

const CONTENT = "<p>Mornings are for deep work, afternoons for talking.</p>";

/**
 * The signed-in owner with two prisms and `count` anonymous responses waiting on them, written
 * straight into the database (not through the page), oldest first: "Reader 1" wrote the first.
 */
async function ownerWithQueue(
  page: Page,
  { signIn, database }: { signIn: MemberFixtures["signIn"]; database: Database },
  count: number,
) {
  const owner = await signIn(page, newMember("reviewer"));
  const prismIds = [
    await addPrism(page.request, { title: "My best hours", content: CONTENT }),
    await addPrism(page.request, { title: "How I give feedback", content: CONTENT }),
  ];
  const rows = await database.db
    .insert(annotations)
    .values(
      Array.from({ length: count }, (_, i) => ({
        prismId: prismIds[i % 2] as number,
        prismTitle: i % 2 ? "How I give feedback" : "My best hours",
        selectedText: "Mornings",
        selectionStart: 0,
        selectionEnd: 8,
        annotationText: `Response number ${i + 1}`,
        annotatorName: `Reader ${i + 1}`,
        visitorHash: `review-queue-${owner.username}-${i}`,
        createdAt: new Date(Date.now() - (count - i) * 60_000),
      })),
    )
    .returning({ id: annotations.id });
  return { owner, ids: rows.map((row) => row.id).sort((a, b) => a - b) };
}

async function statusesOf(database: Database, ids: number[]) {
  const rows = await database.db
    .select({ status: annotations.status })
    .from(annotations)
    .where(inArray(annotations.id, ids))
    .orderBy(asc(annotations.id));
  return rows.map((row) => row.status);
}

/**
 * Opens /review on the owner's queue of `count` responses (see `ownerWithQueue`), once the page
 * answers to the hand and the keys: the responses' ids, the queue's rows, the line that says what
 * was just decided, and the count of those selected.
 */
async function openQueue(
  page: Page,
  fixtures: { signIn: MemberFixtures["signIn"]; database: Database },
  count: number,
) {
  const { owner, ids } = await ownerWithQueue(page, fixtures, count);
  await page.goto("/review");
  const rows = page.getByRole("list", { name: "Responses to review" }).locator(":scope > li");
  await expect(rows).toHaveCount(Math.min(count, 50));
  await expectHydrated(rows.first().getByRole("checkbox"));
  return {
    owner,
    ids,
    rows,
    said: page.getByRole("status").filter({ hasText: /responses? (approved|rejected)/ }),
    selected: page.getByText(/^\d+ selected$/),
  };
}

test("100 waiting responses are cleared in at most 10 key presses, each decision audited", async ({
  page,
  signIn,
  database,
}) => {
  // Three accessibility passes over pages of 50 responses: a long story on a busy machine.
  test.setTimeout(120_000);
  const { owner, ids, rows, said, selected } = await openQueue(page, { signIn, database }, 100);
  await expect(rows.first()).toContainText("Reader 1 (visitor)");
  await expect(rows.first()).toContainText("Response number 1");
  await expect(rows.first()).toContainText("Mornings");
  await expect(rows.first()).toContainText("My best hours");
  await expect(page.getByText("select or clear the whole page")).toBeVisible();
  await expectNoAxeViolations(page);

  let presses = 0;
  const press = async (key: string) => {
    presses += 1;
    await page.keyboard.press(key);
  };

  // The first page: select it all, approve, and confirm.
  await press("*");
  await expect(selected).toHaveText("50 selected");
  await press("a");
  const dialog = page.getByRole("alertdialog", { name: "Approve 50 responses?" });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await press("Tab");
  await expect(dialog.getByRole("button", { name: "Approve" })).toBeFocused();
  await press("Enter");
  await expect(said).toHaveText("50 responses approved");
  // The next 50 take their place, the first of them focused.
  await expect(rows.first()).toContainText("Response number 51");
  await expect(rows).toHaveCount(50);
  await expect(rows.first().getByRole("checkbox")).toBeFocused();

  // The second page: the same, rejecting.
  await press("*");
  await press("r");
  await expect(page.getByRole("alertdialog", { name: "Reject 50 responses?" })).toBeVisible();
  await press("Tab");
  await press("Enter");
  await expect(said).toHaveText("50 responses rejected");
  await expect(page.getByText("Nothing to review")).toBeVisible();
  await expectNoAxeViolations(page);
  expect(presses).toBeLessThanOrEqual(10);

  expect(await statusesOf(database, ids)).toEqual([
    ...Array<string>(50).fill("approved"),
    ...Array<string>(50).fill("rejected"),
  ]);
  const audited = await database.db
    .select({ actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.action, "annotation.status"), inArray(auditLog.targetId, ids)));
  expect(audited).toHaveLength(100);
  expect(audited.every((line) => line.actorId === owner.id)).toBe(true);
});

test("j and k move between responses, x selects, and a or r decide, focus going on", async ({
  page,
  signIn,
  database,
}) => {
  const { ids, rows, said, selected } = await openQueue(page, { signIn, database }, 4);
  const box = (at: number) => rows.nth(at).getByRole("checkbox");

  await page.keyboard.press("j");
  await expect(box(0)).toBeFocused();
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await expect(box(2)).toBeFocused();
  await page.keyboard.press("k");
  await expect(box(1)).toBeFocused();

  // Nothing selected: a decides the focused response alone, and the next one takes the focus.
  await page.keyboard.press("a");
  await expect(said).toHaveText("1 response approved");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("Response number 3");
  await expect(box(1)).toBeFocused();

  // x selects the focused one; r rejects the selection (one: no need to ask).
  await page.keyboard.press("x");
  await expect(selected).toHaveText("1 selected");
  await expect(box(1)).toBeChecked();
  await page.keyboard.press("r");
  await expect(said).toHaveText("1 response rejected");
  await expect(rows).toHaveCount(2);
  await expect(box(1)).toBeFocused();
  await expect(rows.nth(1)).toContainText("Response number 4");

  expect(await statusesOf(database, ids)).toEqual(["pending", "approved", "rejected", "pending"]);
});

test("s sets a response aside as spam; the Spam folder shows why, and Not spam brings one back", async ({
  page,
  signIn,
  database,
}) => {
  const { owner, ids, rows } = await openQueue(page, { signIn, database }, 2);
  // A scripted-looking response the server set aside as it came.
  const [scripted] = await database.db
    .insert(annotations)
    .values({
      prismId: (
        await database.db
          .select({ prismId: annotations.prismId })
          .from(annotations)
          .where(eq(annotations.id, ids[0] as number))
      )[0]?.prismId as number,
      prismTitle: "My best hours",
      selectedText: "Mornings",
      selectionStart: 0,
      selectionEnd: 8,
      annotationText: "Deals at three links",
      annotatorName: "Bot",
      visitorHash: `review-queue-${owner.username}-bot`,
      status: "spam",
      signals: { typingMs: 2100, proofAgeMs: 900, score: 3, reasons: ["Has 3 links"] },
    })
    .returning({ id: annotations.id });

  await page.keyboard.press("j");
  await page.keyboard.press("s");
  await expect(
    page.getByRole("status").filter({ hasText: "1 response marked as spam" }),
  ).toBeVisible();
  await expect(rows).toHaveCount(1);

  await page.getByRole("link", { name: "Spam" }).click();
  await expect(page.getByRole("link", { name: "Spam" })).toHaveAttribute("aria-current", "page");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Response number 1");
  await expect(rows.nth(1)).toContainText("Deals at three links");
  await expect(rows.nth(1)).toContainText("Has 3 links");
  await expect(page.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await rows.nth(0).getByRole("button", { name: "Not spam the response by Reader 1" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "1 response moved back to review" }),
  ).toBeVisible();
  await expect(rows).toHaveCount(1);

  await page.getByRole("link", { name: "Waiting" }).click();
  await expect(rows).toHaveCount(2);
  expect(await statusesOf(database, [...ids, scripted?.id as number])).toEqual([
    "pending",
    "pending",
    "spam",
  ]);
});

// The phone's browser is this project's own (a describe group cannot choose another).
const { defaultBrowserType: _browser, ...phoneScreen } = phone;

test.describe("on a 360 px phone", () => {
  test.use(phoneScreen);

  test("the owner selects and decides responses by touch; axe passes", async ({
    page,
    signIn,
    database,
  }) => {
    const { ids, rows, said, selected } = await openQueue(page, { signIn, database }, 3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await expectNoAxeViolations(page);

    await rows.nth(0).getByRole("checkbox").tap();
    await rows.nth(1).getByRole("checkbox").tap();
    await expect(selected).toHaveText("2 selected");
    await page.getByRole("button", { name: "Approve", exact: true }).tap();
    const dialog = page.getByRole("alertdialog", { name: "Approve 2 responses?" });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Approve" }).tap();
    await expect(said).toHaveText("2 responses approved");

    await rows
      .first()
      .getByRole("button", { name: /^Reject the response by Reader 3/ })
      .tap();
    await expect(said).toHaveText("1 response rejected");
    await expect(page.getByText("Nothing to review")).toBeVisible();
    expect(await statusesOf(database, ids)).toEqual(["approved", "approved", "rejected"]);
  });
});
