// Every page the server renders loads whole (its HTML, then the browser taking it over) without an
// error in the console: to a visitor, a member and an admin, with the data that makes each page
// differ between the server and the browser (times, an error the browser kept, notifications).
import type { Browser, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import type { Database } from "../../src/server/db/client.ts";
import { notifications } from "../../src/server/db/schema.ts";
import { storageKeys } from "../../src/web/lib/storage.ts";
import {
  addPrism,
  expect,
  expectHydrated,
  type Member,
  type MemberFixtures,
  newMember,
  ORIGIN,
  respond,
  test,
  toggleHeart,
} from "./fixtures.ts";

// A reader whose language and time zone are not the server's.
test.use({ locale: "de-DE", timezoneId: "Asia/Kolkata" });
// Some twenty full page loads a story, each rendered by the server and then by the browser.
test.describe.configure({ timeout: 180_000 });

const CONTENT = "<p>I answer messages after lunch, and think best on a walk.</p>";

/** An address no page answers: the browser says so in the console, of the document itself. */
const NOT_FOUND = "/no-such-member-here";

/** Every console error and uncaught error of the page, from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const notFoundDocument =
      message.location().url === `${ORIGIN}${NOT_FOUND}` &&
      message.text().includes("the server responded with a status of 404");
    if (!notFoundDocument) errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
  return errors;
}

/**
 * Signs `page` in as a new member with a prism that a visitor hearted and responded to three hours
 * ago (so that the member has notifications, dated in words); answers the member and their
 * prism's address.
 */
async function memberWithNotifications(
  page: Page,
  browser: Browser,
  { signIn, database }: { signIn: MemberFixtures["signIn"]; database: Database },
  member: Member,
) {
  const signedIn = await signIn(page, member);
  const prismId = await addPrism(page.request, { title: "Where I am reachable", content: CONTENT });
  const visitor = await browser.newContext({ baseURL: ORIGIN });
  await toggleHeart(visitor.request, prismId);
  await respond(visitor.request, {
    prismId,
    content: CONTENT,
    quote: "on a walk",
    annotationText: "Same here, the park works wonders.",
    annotatorName: "Pat",
  });
  await visitor.close();
  await database.db
    .update(notifications)
    .set({ createdAt: new Date(Date.now() - 3 * 3600_000) })
    .where(eq(notifications.userId, signedIn.id));
  return { member: signedIn, prism: `/${signedIn.username}/where-i-am-reachable` };
}

/** Loads each of `paths` in full, in turn, each until the browser has taken the page over. */
async function loadEach(page: Page, paths: string[]) {
  for (const path of paths) {
    if (path === "/error") {
      // What a failed request leaves for the error page, as the app writes it.
      await page.evaluate(([key, context]) => sessionStorage.setItem(key, context), [
        storageKeys.errorContext,
        JSON.stringify({
          statusCode: 503,
          title: "Service Unavailable",
          description: "Prism is taking a short break.",
          message: "Database unavailable",
          retryPath: "/explore",
        }),
      ] as const);
    }
    await page.goto(path);
    await expectHydrated(page.locator("#main"));
    if (path === "/error") {
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Service Unavailable");
      await expect(page).toHaveTitle("Service Unavailable | Prism");
    }
  }
}

/** The pages every visitor can open. */
const PUBLIC_PAGES = [
  "/",
  "/explore",
  "/explore?tab=prisms",
  "/terms-privacy",
  "/contact",
  "/error-demo",
  "/debug",
  "/error",
  NOT_FOUND,
];

test("a visitor's pages load without a console error", async ({
  page,
  browser,
  signIn,
  database,
}) => {
  const writer = await browser.newContext({ baseURL: ORIGIN });
  const { member, prism } = await memberWithNotifications(
    await writer.newPage(),
    browser,
    { signIn, database },
    newMember("writer"),
  );
  await writer.close();
  const errors = collectErrors(page);
  await loadEach(page, [
    ...PUBLIC_PAGES,
    `/${member.username}`,
    prism,
    "/sign-in",
    "/forgot-password",
    // Pages for members: the visitor is sent to sign in.
    "/profile",
    "/notifications",
    "/catalyst",
  ]);
  expect(errors).toEqual([]);
});

test("a member's pages load without a console error", async ({
  page,
  browser,
  signIn,
  database,
}) => {
  const other = await browser.newContext({ baseURL: ORIGIN });
  const { member: author } = await memberWithNotifications(
    await other.newPage(),
    browser,
    { signIn, database },
    newMember("author"),
  );
  await other.close();
  const { member, prism } = await memberWithNotifications(
    page,
    browser,
    { signIn, database },
    newMember(),
  );
  const errors = collectErrors(page);
  await loadEach(page, [
    ...PUBLIC_PAGES,
    `/${member.username}`,
    prism,
    `/${author.username}`,
    "/notifications",
    "/profile",
    // Not an admin's: the member is told so and sent home.
    "/catalyst",
  ]);
  expect(errors).toEqual([]);
});

test("an admin's pages load without a console error", async ({
  page,
  browser,
  signIn,
  database,
}) => {
  const { member, prism } = await memberWithNotifications(
    page,
    browser,
    { signIn, database },
    {
      ...newMember("admin"),
      isAdmin: true,
    },
  );
  const errors = collectErrors(page);
  await loadEach(page, [
    ...PUBLIC_PAGES,
    `/${member.username}`,
    prism,
    "/notifications",
    "/profile",
    "/catalyst",
    "/catalyst?tab=users",
    "/catalyst?tab=annotations",
    "/catalyst?tab=audit",
  ]);
  expect(errors).toEqual([]);
});
