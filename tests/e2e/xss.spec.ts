// The XSS corpus in a real browser (part of `npm run test:security`): every payload goes into
// every field a person can fill (prism title and content, annotation text and name, names,
// links, contact), then every page that shows them is opened in Chromium. No payload may run
// (the `window.__xss` flag they set stays unset and no dialog opens), no link may carry a
// script URL, and the Content-Security-Policy keeps `script-src 'self'` without 'unsafe-inline'.
// Plain-text fields are written straight into the database, so that what the page does with any
// text is tested, not only what the API lets through; rich text goes through the API, whose
// sanitizer is its defence.
import type { Page, Response } from "@playwright/test";
import { eq } from "drizzle-orm";
import { text } from "../../src/contract/text.ts";
import { annotations, notifications, prisms, users } from "../../src/server/db/schema.ts";
import { xssCorpus } from "../fixtures/xss.ts";
import { addPrism, expect, newMember, ORIGIN, test } from "./fixtures.ts";

// Payloads with control characters are refused before anything is stored (contract/text.ts).
const corpus = xssCorpus();
const payloads = corpus.payloads.filter((payload) => text().safeParse(payload).success);

/** Fails the test if a payload ran on the page: a dialog, the flag, or a navigation away. */
function watch(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  return async () => {
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(new URL(page.url()).origin).toBe(ORIGIN);
    const scripted = await page.evaluate(() =>
      [...document.querySelectorAll("[href],[src],[action],[formaction]")]
        .flatMap((el) =>
          ["href", "src", "action", "formaction"].map((name) => el.getAttribute(name) ?? ""),
        )
        .filter((value) => /^\s*(javascript|data|vbscript):/i.test(value)),
    );
    expect(scripted).toEqual([]);
    // Nothing on the page carries an event handler: text stayed text, whatever the CSP allows.
    const handlers = await page.evaluate(() =>
      [...document.querySelectorAll("*")].flatMap((el) =>
        el.getAttributeNames().filter((name) => name.startsWith("on")),
      ),
    );
    expect(handlers).toEqual([]);
  };
}

function expectStrictCsp(response: Response | null) {
  const csp = response?.headers()["content-security-policy"] ?? "";
  const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc.trim()).toBe("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
}

/** Clicks Next until it is disabled, checking each page. */
async function everyPage(page: Page, check: () => Promise<void>) {
  for (let n = 0; n < 100; n++) {
    await check();
    const next = page.getByRole("button", { name: "Next" });
    if (!(await next.isEnabled())) return;
    await next.click();
    await expect(page.getByText(`Page ${n + 2}`)).toBeVisible();
  }
}

const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, i * size + size),
  );

test(`no payload runs where members' text is shown (${payloads.length} of ${corpus.label})`, async ({
  page,
  signIn,
  database,
}) => {
  test.setTimeout(240_000);
  const owner = await signIn(page, newMember("xss_owner"));
  const { db } = database;
  const [p0 = "", p1 = "", p2 = ""] = payloads;

  // The owner's own names and links.
  await db
    .update(users)
    .set({
      firstName: p0,
      lastName: p1,
      displayName: p2,
      websiteUrl: `https://ok.example/?q=${encodeURIComponent(p0)}`,
      twitterUrl: "javascript:window.__xss=1",
      linkedinUrl: `https://ok.example/"onmouseover="window.__xss=1`,
    })
    .where(eq(users.id, owner.id));

  // Rich text through the API, in prisms of at most 30 KB; titles straight into the table.
  const contents = chunks(payloads, 40).map((group) => group.map((p) => `<p>${p}</p>`).join(""));
  for (const [i, content] of contents.entries()) {
    await addPrism(page.request, { title: `Payloads ${i + 1}`, content });
  }
  const [answered] = await db
    .insert(prisms)
    .values({
      userId: owner.id,
      title: payloads[3] ?? "",
      content: "<p>Mornings are for deep work.</p>",
      index: contents.length,
    })
    .returning();
  if (!answered) throw new Error("no prism");
  await db.insert(prisms).values(
    payloads.slice(4, 40).map((title, i) => ({
      userId: owner.id,
      title,
      content: "<p>Plain words.</p>",
      index: contents.length + 1 + i,
    })),
  );

  // Members whose names are payloads, each with a prism (explore lists them) and an approved
  // response (the sidebar names them); anonymous responses whose name and text are payloads.
  const named = await db
    .insert(users)
    .values(
      chunks(payloads, 3).map((names, i) => ({
        username: `xss_${owner.id}_${i}`,
        email: `xss_${owner.id}_${i}@example.com`,
        firstName: names[0] ?? "",
        lastName: names[1] ?? names[0] ?? "",
        displayName: names[2] ?? null,
      })),
    )
    .returning({ id: users.id });
  await db.insert(prisms).values(
    named.map(({ id }, i) => ({
      userId: id,
      title: payloads[i % payloads.length] ?? "",
      content: `<p>${(payloads[(i + 1) % payloads.length] ?? "").replace(/[<>&]/g, "")}</p>`,
      index: 0,
    })),
  );
  const response = (fields: Partial<typeof annotations.$inferInsert>) => ({
    prismId: answered.id,
    selectedText: "Mornings",
    selectionStart: 0,
    selectionEnd: 8,
    prismTitle: answered.title,
    status: "approved" as const,
    annotationText: "",
    ...fields,
  });
  await db
    .insert(annotations)
    .values([
      ...payloads.map((p) => response({ annotationText: p, annotatorName: p })),
      ...named.map(({ id }, i) => response({ userId: id, annotationText: payloads[i] ?? "" })),
    ]);
  await db.insert(notifications).values(
    payloads.map((p) => ({
      userId: owner.id,
      prismId: answered.id,
      type: "annotation" as const,
      actorName: p,
    })),
  );

  const check = watch(page);

  // The profile, as its owner sees it, every section open, the responses listed.
  expectStrictCsp(await page.goto(`/${owner.username}`));
  await page.getByRole("button", { name: "Editing" }).click();
  const sections = page.getByRole("button", { name: /^\d{2}\./ });
  // Every title shows on its section's button; the sections holding rich text are opened.
  expect(await sections.count()).toBe(contents.length + 1 + 36);
  await check();
  for (let i = 0; i < contents.length; i++) {
    await sections.nth(i).click();
    await check();
  }
  await sections.nth(contents.length).click();
  await page.getByRole("button", { name: /^Responses \(/ }).click();
  await expect(page.getByRole("dialog", { name: "Responses" })).toBeVisible();
  await check();

  // The notifications, page by page; the tray.
  expectStrictCsp(await page.goto("/notifications"));
  await expect(page.getByText("added an annotation to your Prism").first()).toBeVisible();
  await expect(page.getByText("Page 1")).toBeVisible();
  await everyPage(page, check);

  // Explore: people and prisms, page by page.
  expectStrictCsp(await page.goto("/explore"));
  await expect(page.getByText("Page 1")).toBeVisible();
  await everyPage(page, check);
  await page.getByRole("tab", { name: "Prisms" }).click();
  await expect(page.getByText("Page 1")).toBeVisible();
  await everyPage(page, check);

  // Profile Settings shows the owner's own fields.
  expectStrictCsp(await page.goto("/profile"));
  await expect(page.getByLabel("First name")).toHaveValue(p0);
  await check();

  // A visitor sees the profile too, with highlights on.
  const visitor = await page.context().browser()?.newPage({ baseURL: ORIGIN });
  if (!visitor) throw new Error("no browser");
  const checkVisitor = watch(visitor);
  expectStrictCsp(await visitor.goto(`/${owner.username}`));
  await visitor.getByRole("button", { name: /Show Highlights/ }).click();
  await checkVisitor();
  await visitor.close();
});

test("no payload runs from the contact form", async ({ page }) => {
  const check = watch(page);
  expectStrictCsp(await page.goto("/contact"));
  const [payload = ""] = payloads;
  await page.getByLabel("Name").fill(payload.slice(0, 100));
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Subject").fill(payload.slice(0, 200));
  await page.getByLabel("Message").fill(payloads.slice(0, 10).join("\n").slice(0, 5000));
  await page.getByRole("button", { name: /Send/ }).click();
  await expect(page.getByText("Thank You!")).toBeVisible();
  await check();
});
