// Pages arrive rendered: the HTML of a member's page holds their prisms, with the data the page
// needs beside it; the browser takes the page over without fetching that data again, without a
// React warning, and under the strict Content Security Policy.
import type { ConsoleMessage, Page } from "@playwright/test";
import { PAGE_DATA_ID } from "../../src/web/lib/page-data.ts";
import { addPrism, expect, ORIGIN, test, toggleHeart } from "./fixtures.ts";

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

interface IntlUses {
  intlUses: string[];
}

/**
 * Runs in the page before its HTML: notes each use of the browser's language data (an Intl
 * object, a number or date written for a locale, a locale-aware comparison).
 */
function watchIntl() {
  const uses: string[] = [];
  (window as unknown as IntlUses).intlUses = uses;
  const intl = Intl as unknown as Record<string, new (...args: unknown[]) => object>;
  for (const name of [
    "Collator",
    "DateTimeFormat",
    "ListFormat",
    "NumberFormat",
    "PluralRules",
    "RelativeTimeFormat",
    "Segmenter",
  ]) {
    intl[name] = new Proxy(intl[name] as new (...args: unknown[]) => object, {
      construct(target, args, newTarget) {
        uses.push(`Intl.${name}`);
        return Reflect.construct(target, args, newTarget);
      },
    });
  }
  const methods: [object, string][] = [
    [Number.prototype, "toLocaleString"],
    [Date.prototype, "toLocaleString"],
    [Date.prototype, "toLocaleDateString"],
    [Date.prototype, "toLocaleTimeString"],
    [String.prototype, "localeCompare"],
  ];
  for (const [prototype, name] of methods) {
    const target = prototype as Record<string, (...args: unknown[]) => unknown>;
    const original = target[name] as (...args: unknown[]) => unknown;
    target[name] = function (this: unknown, ...args: unknown[]) {
      uses.push(name);
      return original.apply(this, args);
    };
  }
}

/**
 * Holds the page's live stream request until `release` is called: whatever changes meanwhile
 * happens after the server rendered the page and before its stream opened.
 */
async function holdStream(page: Page) {
  let requested = () => {};
  const arrived = new Promise<void>((resolve) => {
    requested = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/events*", async (route) => {
    requested();
    await released;
    await route.continue();
  });
  return { arrived, release, stop: () => page.unroute("**/api/events*") };
}

/** Counts the events of a type that the page's live stream receives, as Chromium sees them. */
async function streamEvents(page: Page, type: string) {
  let count = 0;
  const cdp = await page.context().newCDPSession(page);
  cdp.on("Network.eventSourceMessageReceived", ({ eventName }) => {
    if (eventName === type) count += 1;
  });
  await cdp.send("Network.enable");
  return () => count;
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
  addOwner,
}) => {
  // Nine pages, each loaded with its stream held and released: three times a story's time.
  test.slow();
  const owner = await signIn(page);
  await addPrism(page.request, prism);
  const slug = "how-i-like-to-be-asked-for-help";
  // Another member's prism, and a fan who hearts and un-hearts it while each page loads: the
  // traffic of a site where others are active.
  const {
    ids: [elsewhere],
  } = await addOwner([{ title: "Elsewhere", content: "<p>Another member's prism.</p>" }]);
  const fan = await browser.newContext({ baseURL: ORIGIN });

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const readyHeard = new Map<Page, () => number>();
  for (const reader of [page, visitor]) {
    await reader.addInitScript(watchMain);
    readyHeard.set(reader, await streamEvents(reader, "live.ready"));
  }
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
      const onRequest = (request: { url(): string; method(): string }) => {
        const url = new URL(request.url());
        // A reader's page sends one write, the views beacon (POST /api/prisms/views): no data.
        if (request.method() !== "GET") return;
        if (url.pathname.startsWith("/api/") && url.pathname !== "/api/events") {
          dataRequests.push(url.pathname);
        }
      };
      reader.on("request", onRequest);
      const stream = await holdStream(reader);
      const answer = await reader.goto(path);
      expect(await answer?.text(), path).toContain('<main id="main"');
      // Between the render and the stream: a change to another member's prism, which touches
      // nothing this page shows (the stream replays it after live.ready).
      await stream.arrived;
      const heard = readyHeard.get(reader)?.() ?? 0;
      await toggleHeart(fan.request, elsewhere);
      stream.release();
      await expect.poll(() => readyHeard.get(reader)?.(), { message: path }).toBeGreaterThan(heard);
      await stream.stop();
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
      if (path.startsWith(`/${owner.username}`)) {
        expect(
          dataRequests.filter((p) => p.startsWith("/api/prisms/")),
          path,
        ).toEqual([]);
      }
    }
  }
  await Promise.all([visitorContext, fan].map((context) => context.close()));
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

test("public pages load without the browser's language data", async ({ browser, signIn, page }) => {
  // The first Intl object a page makes loads that data: 30 to 120 ms of one task on this machine,
  // four times that on a phone, blocking the page just as it is taken over. None of these pages
  // shows a time, so none should pay for it.
  const owner = await signIn(page);
  await addPrism(page.request, prism);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.addInitScript(watchIntl);
  const ready = await streamEvents(visitor, "live.ready");
  for (const path of ["/", `/${owner.username}`, "/explore"]) {
    const heard = ready();
    await visitor.goto(path);
    // The stream opens from an effect, after the page is taken over and rendered again as the
    // reader's.
    await expect.poll(ready, { message: path }).toBeGreaterThan(heard);
    expect(await visitor.evaluate(() => (window as unknown as IntlUses).intlUses), path).toEqual(
      [],
    );
  }
  await visitorContext.close();
});
