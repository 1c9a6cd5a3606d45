// Pages arrive rendered: the HTML of a member's page holds their prisms, with the data the page
// needs beside it; the browser takes the page over without fetching that data again, without a
// React warning, and under the strict Content Security Policy.
import type { ConsoleMessage, Page } from "@playwright/test";
import { PAGE_DATA_ID } from "../../src/web/lib/page-data.ts";
import { addPrism, expect, test } from "./fixtures.ts";

const prism = {
  title: "How I like to be asked for help",
  content: "<p>Ask me <strong>early</strong>: half-formed questions are welcome here.</p>",
};

/** Every console error, warning and uncaught error of the page, from now on. */
function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "error" || message.type() === "warning") {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

interface Replacements {
  replacedMain: string[];
}

/** Runs in the page before its HTML: notes any removal of the server-rendered main element. */
function watchMain() {
  const seen: string[] = [];
  (window as unknown as Replacements).replacedMain = seen;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.removedNodes) {
        if (node instanceof Element && (node.id === "main" || node.querySelector("#main"))) {
          seen.push(node.outerHTML.slice(0, 80));
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

test("a member's page arrives as HTML with their prisms and the page's data, readable without scripts", async ({
  browser,
  page,
  signIn,
}) => {
  const owner = await signIn(page);
  await addPrism(page.request, prism);

  // A visitor with no cookies: what a crawler or a link preview reads.
  const answer = await page.request.fetch(`/${owner.username}`, { headers: { cookie: "" } });
  expect(answer.status()).toBe(200);
  const html = await answer.text();
  const root = html.slice(html.indexOf('<div id="root">'));
  expect(root).toContain(prism.title);
  expect(root).toContain("half-formed questions are welcome here.");
  expect(root).toContain(owner.username);
  expect(html).toContain(`<script type="application/json" id="${PAGE_DATA_ID}">`);
  // No inline script: the policy allows scripts from Prism's own files only.
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  for (const tag of scripts) expect(tag).toMatch(/\bsrc=|type="application\/json"/);

  // A browser that runs no script shows the page all the same.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const reader = await noScript.newPage();
  await reader.goto(`/${owner.username}`);
  await expect(reader.getByRole("heading", { name: prism.title })).toBeVisible();
  await expect(reader.getByText("half-formed questions are welcome here.")).toBeVisible();
  await noScript.close();
});

test("pages hydrate without warnings and without fetching their data again", async ({
  browser,
  signIn,
  page,
}) => {
  const owner = await signIn(page);
  await addPrism(page.request, prism);
  const slug = "how-i-like-to-be-asked-for-help";

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  for (const reader of [page, visitor]) await reader.addInitScript(watchMain);
  for (const [reader, paths] of [
    [
      visitor,
      ["/", `/${owner.username}`, `/${owner.username}/${slug}`, "/explore", "/terms-privacy"],
    ],
    [page, [`/${owner.username}`, "/profile", "/notifications", "/explore"]],
  ] as const) {
    for (const path of paths) {
      const problems = collectProblems(reader);
      const dataRequests: string[] = [];
      const onRequest = (request: { url(): string }) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith("/api/") && url.pathname !== "/api/events") {
          dataRequests.push(url.pathname);
        }
      };
      reader.on("request", onRequest);
      const answer = await reader.goto(path);
      expect(await answer?.text(), path).toContain('<main id="main"');
      await reader.waitForLoadState("networkidle");
      // React took the server's markup over rather than rendering the page anew.
      expect(
        await reader.evaluate(() => (window as unknown as Replacements).replacedMain),
        path,
      ).toEqual([]);
      reader.off("request", onRequest);
      reader.removeAllListeners("console");
      reader.removeAllListeners("pageerror");
      expect(problems, `${path}: ${problems.join("\n")}`).toEqual([]);
      if (path === `/${owner.username}`) {
        expect(
          dataRequests.filter((p) => p.startsWith("/api/prisms/")),
          path,
        ).toEqual([]);
      }
    }
  }
  await visitorContext.close();
});

test("a member without prisms gets their page with the first prism's form, taken over without a warning", async ({
  signIn,
  page,
}) => {
  const owner = await signIn(page);
  const problems = collectProblems(page);
  const answer = await page.goto(`/${owner.username}`);
  expect(await answer?.text()).toContain("Write your first prism");
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("heading", { name: "Write your first prism" })).toBeVisible();
  await expect(page.locator('[contenteditable="true"]')).toBeVisible();
  expect(problems, problems.join("\n")).toEqual([]);
});
