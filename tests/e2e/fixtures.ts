// Shared steps of the end-to-end stories: fresh members, signed in by writing a session straight
// into the database the server under test reads (as the Epic Stack does), not through a form.
import { randomBytes } from "node:crypto";
import {
  type APIRequestContext,
  type BrowserContext,
  test as base,
  expect,
  type Locator,
  type Page,
} from "@playwright/test";
import axe from "axe-core";
// @ts-expect-error: a plain ES module shared with the server script
import { e2eDatabaseUrl } from "../../scripts/e2e-database.mjs";
import type { Annotation } from "../../src/contract/annotations.ts";
import { htmlToPlainText } from "../../src/contract/plain-text.ts";
import type { HeartStatus } from "../../src/contract/prisms.ts";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { users } from "../../src/server/db/schema.ts";
import { hashPassword } from "../../src/server/security/passwords.ts";
import { createSession, SESSION_COOKIE } from "../../src/server/security/session-store.ts";
import { personCheck } from "../../src/server/test/person-check.ts";
import { PAGE_DATA_ID } from "../../src/web/lib/page-data.ts";

export { expect };

export const PASSWORD = "e2e-password";
/**
 * The server under test: the origin of this worker's project (playwright.config.ts chooses the
 * ports), set before the worker's first story; a worker runs the stories of one project alone.
 */
export let ORIGIN = "";

export interface Member {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  /** An admin of Catalyst; members are not unless this says so. */
  isAdmin?: boolean;
}

export function newMember(prefix = "member"): Member {
  const username = `${prefix}_${randomBytes(4).toString("hex")}`;
  return { username, email: `${username}@example.com`, firstName: "Robin", lastName: "Quill" };
}

export interface MemberFixtures {
  /** Adds a member (password: PASSWORD) to the server's database, without signing anyone in. */
  addMember(member?: Member): Promise<Member & { id: number }>;
  /**
   * Adds a member and signs `target` (a page's context, or a context) in as them: a session row
   * made by the server's own createSession, and its cookie set in the browser.
   */
  signIn(target: Page | BrowserContext, member?: Member): Promise<Member & { id: number }>;
  /**
   * A member (a new "owner" unless `member` is given) signed in on a browser context apart from the story's
   * page, owning `prisms` (added in order through the API): the member, the prisms' ids, and the
   * context's `request` to act as them later. The context closes when the story ends.
   */
  addOwner<const T extends readonly PrismInput[]>(prisms: T, member?: Member): Promise<Owner<T>>;
}

/** A prism as a story adds it: its title and its HTML. */
export interface PrismInput {
  title: string;
  content: string;
}

export interface Owner<T extends readonly PrismInput[] = PrismInput[]> {
  member: Member & { id: number };
  /** The prisms' ids, in the order given. */
  ids: { [K in keyof T]: number };
  request: APIRequestContext;
}

interface WorkerFixtures {
  /** The database of the project's server (an option of the project). */
  databaseUrl: string;
  /** Sets ORIGIN from the project's baseURL. */
  origin: string;
  database: Database;
  /** The hash of PASSWORD, computed once per worker (argon2 is slow on purpose). */
  passwordHash: string;
}

export const test = base.extend<MemberFixtures, WorkerFixtures>({
  context: async ({ context }, use) => {
    await recordToasts(context);
    await use(context);
  },
  databaseUrl: [e2eDatabaseUrl() as string, { scope: "worker", option: true }],
  origin: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's needs from this pattern
    async ({}, use, workerInfo) => {
      ORIGIN = String(workerInfo.project.use.baseURL);
      await use(ORIGIN);
    },
    { scope: "worker", auto: true },
  ],
  database: [
    async ({ databaseUrl }, use) => {
      const database = openDatabase(databaseUrl);
      await use(database);
      await database.close();
    },
    { scope: "worker" },
  ],
  passwordHash: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's needs from this pattern
    async ({}, use) => {
      await use(await hashPassword(PASSWORD));
    },
    { scope: "worker" },
  ],
  addMember: async ({ database, passwordHash }, use) => {
    await use(async (member = newMember()) => {
      const [row] = await database.db
        .insert(users)
        .values({ ...member, password: passwordHash })
        .returning({ id: users.id });
      if (!row) throw new Error(`could not add ${member.username}`);
      return { ...member, id: row.id };
    });
  },
  signIn: async ({ database, addMember }, use) => {
    await use(async (target, member) => {
      const added = await addMember(member);
      const token = await createSession(database.db, added.id, "playwright");
      const context = "goto" in target ? target.context() : target;
      await context.addCookies([
        { name: SESSION_COOKIE, value: token, url: ORIGIN, httpOnly: true, sameSite: "Lax" },
      ]);
      return added;
    });
  },
  addOwner: async ({ browser, signIn }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (prisms, member = newMember("owner")) => {
      const context = await browser.newContext({ baseURL: ORIGIN });
      contexts.push(context);
      const added = await signIn(context, member);
      return {
        member: added,
        ids: await addPrisms(context.request, prisms),
        request: context.request,
      };
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});

/**
 * Waits until React has taken a control's server-rendered element over: a lazily loaded part of
 * the page (the member menu, the bell, the owner's controls) is plain markup until its code
 * arrives, and a click or a choice made on it before then does nothing, as it would for a person
 * who acted that early.
 */
export async function expectHydrated(control: Locator) {
  await expect
    .poll(() =>
      control.evaluate((element) =>
        Object.keys(element).some((key) => key.startsWith("__reactProps$")),
      ),
    )
    .toBe(true);
}

const TOASTS_KEY = "e2e:toasts";

/**
 * Keeps the text of every toast a page of `context` shows, in the tab's session storage so that a
 * full page load keeps it too: a story asks whether a toast was shown (`expectToast`) without
 * racing the few seconds it stays on screen. Every story's own context does this already.
 */
export async function recordToasts(context: BrowserContext) {
  await context.addInitScript((key) => {
    const seen = new WeakSet<Element>();
    const record = () => {
      for (const toast of document.querySelectorAll("[data-sonner-toast]")) {
        const text = toast.textContent?.trim();
        if (seen.has(toast) || !text) continue;
        seen.add(toast);
        const shown: string[] = JSON.parse(sessionStorage.getItem(key) ?? "[]");
        sessionStorage.setItem(key, JSON.stringify([...shown, text]));
      }
    };
    new MutationObserver(record).observe(document, { childList: true, subtree: true });
  }, TOASTS_KEY);
}

/**
 * Expects a toast holding each of `texts` (its title, its description) to have been shown on `page`
 * since the last toast this step took: each call takes the toast it found, so the same message
 * twice needs two toasts.
 */
export async function expectToast(page: Page, ...texts: string[]) {
  await expect
    .poll(() =>
      page.evaluate(
        ({ key, texts }) => {
          const shown: string[] = JSON.parse(sessionStorage.getItem(key) ?? "[]");
          const index = shown.findIndex((toast) => texts.every((text) => toast.includes(text)));
          if (index < 0) return shown;
          shown.splice(index, 1);
          sessionStorage.setItem(key, JSON.stringify(shown));
          return true;
        },
        { key: TOASTS_KEY, texts },
      ),
    )
    .toBe(true);
}

/**
 * Starts watching the page's requests; the function it answers waits until the page's live stream
 * is ready and nothing the page asked for is still on its way. A first stream that reaches
 * another instance than the one that rendered the page (the pair project's proxy) cannot replay
 * the changes since the render, and the page refetches what it shows: that too must have
 * arrived, as it has on a page that settled.
 */
export async function watchSettling(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  let ready: { resumed?: boolean } | undefined;
  let refetches = 0;
  const onTheirWay = new Set<string>();
  cdp.on("Network.eventSourceMessageReceived", ({ eventName, data }) => {
    if (eventName === "live.ready") ready ??= JSON.parse(data || "{}");
  });
  cdp.on("Network.requestWillBeSent", ({ requestId, request }) => {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith("/api/") || pathname === "/api/events") return;
    onTheirWay.add(requestId);
    if (ready) refetches += 1;
  });
  const arrived = ({ requestId }: { requestId: string }) => onTheirWay.delete(requestId);
  cdp.on("Network.loadingFinished", arrived);
  cdp.on("Network.loadingFailed", arrived);
  await cdp.send("Network.enable");
  return () =>
    expect
      .poll(
        () =>
          ready !== undefined && (ready.resumed === true || refetches > 0) && onTheirWay.size === 0,
        { message: "the page settled" },
      )
      .toBe(true);
}

/**
 * After an anonymous author's response is sent, the dialog shows their private status link: reads
 * it, then Done opens the responses as for a member. Answers the link.
 */
export async function keepStatusLink(page: Page): Promise<string> {
  const sent = page.getByRole("dialog", { name: "Response sent" });
  const link = await sent.getByLabel("Your private link").inputValue();
  await sent.getByRole("button", { name: "Done" }).click();
  await expect(sent).toHaveCount(0);
  return link;
}

/** Adds a prism through the API as the member `request` is signed in as; answers its id. */
export async function addPrism(request: APIRequestContext, prism: PrismInput): Promise<number> {
  const response = await request.post("/api/prisms", {
    data: prism,
    headers: { origin: ORIGIN },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).id;
}

/** Adds `prisms` in order, as `addPrism` does; answers their ids in that order. */
export async function addPrisms<const T extends readonly PrismInput[]>(
  request: APIRequestContext,
  prisms: T,
): Promise<{ [K in keyof T]: number }> {
  const ids: number[] = [];
  for (const prism of prisms) ids.push(await addPrism(request, prism));
  return ids as { [K in keyof T]: number };
}

/** Hearts or un-hearts a prism through the API, as whoever `request` is: asks for a 200, answers the status. */
export async function toggleHeart(
  request: APIRequestContext,
  prismId: number,
): Promise<HeartStatus> {
  const response = await request.post(`/api/prisms/${prismId}/heart`, {
    headers: { origin: ORIGIN },
  });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}

/**
 * Responds through the API to the first place `quote` stands in the plain text of `content` (the
 * prism's HTML), as whoever `request` is; answers the new annotation.
 */
let readers = 0;
/**
 * An address of its own for a reader a story sets up (198.18.0.0/15, kept for tests), sent as
 * `X-Forwarded-For`, which the servers under test take from their local proxy hop: the per-address
 * limits then count each reader apart, as they would count people on their own connections.
 */
export function readerAddress(): string {
  readers += 1;
  const worker = test.info().parallelIndex;
  return `198.${18 + (worker % 2)}.${(readers >> 8) & 255}.${readers & 255}`;
}

export async function respond(
  request: APIRequestContext,
  {
    prismId,
    content,
    quote,
    annotationText,
    annotatorName,
  }: {
    prismId: number;
    content: string;
    quote: string;
    annotationText: string;
    annotatorName?: string;
  },
): Promise<Annotation> {
  const start = htmlToPlainText(content).indexOf(quote);
  expect(start, `"${quote}" is not in the prism's text`).toBeGreaterThanOrEqual(0);
  const address = readerAddress();
  // Without an account the person check is asked for (a member's is ignored): solved here as the
  // dialog's widget solves it in a browser.
  const issued = await request.get("/api/challenge", { headers: { "x-forwarded-for": address } });
  expect(issued.status(), await issued.text()).toBe(200);
  const response = await request.post("/api/annotations", {
    data: {
      prismId,
      selectedText: quote,
      selectionStart: start,
      selectionEnd: start + quote.length,
      annotationText,
      annotatorName,
      ...(await personCheck(await issued.json())),
    },
    headers: { origin: ORIGIN, "x-forwarded-for": address },
  });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

/** Every rule axe ships, those it leaves off by default (experimental, deprecated, AAA) too. */
const everyAxeRule = Object.fromEntries(
  axe.getRules().map(({ ruleId }) => [ruleId, { enabled: true }]),
);

/** Runs `check` with the page asking for reduced motion, then lifts that again. */
async function withReducedMotion<T>(page: Page, check: () => Promise<T>): Promise<T> {
  await page.emulateMedia({ reducedMotion: "reduce" });
  try {
    return await check();
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
}

/** Creates `member`'s account through the sign-in page's form (already open), as a person would. */
export async function createAccount(page: Page, member: Member) {
  await page.getByRole("tab", { name: "Create account" }).click();
  await page.getByLabel("First name").fill(member.firstName);
  await page.getByLabel("Last name").fill(member.lastName);
  await page.getByLabel("Username").fill(member.username);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** A server-rendered page's markup and data, from #root to the end of its JSON block. */
const RENDERED_BODY = new RegExp(
  `<div id="root">[\\s\\S]*?<script type="application/json" id="${PAGE_DATA_ID}">[\\s\\S]*?</script>`,
);

/**
 * Serves `page` every document as the empty shell the browser renders itself, as a server that
 * renders nothing would: the page then asks for its data from the browser, where a story can hold
 * up or fail those requests.
 */
export async function renderInBrowser(page: Page) {
  await page.route("**/*", async (route) => {
    if (route.request().resourceType() !== "document") return route.fallback();
    const response = await route.fetch();
    const body = (await response.text()).replace(RENDERED_BODY, '<div id="root"></div>');
    await route.fulfill({ response, body });
  });
}

export async function expectNoAxeViolations(page: Page) {
  // Colours are judged as they end up: a toast or dialog caught halfway through fading in or out
  // would read as low contrast. A toast may time out while axe runs, so the check runs with
  // reduced motion, under which sonner's toasts appear and leave without fading (no other style
  // of the app depends on it); and it waits for the finite animations and transitions to finish.
  const results = await withReducedMotion(page, async () => {
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter(
            (animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY,
          )
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
    );
    // Axe's source is put in a page once per document, and only violations are gathered: the
    // passes, which AxeBuilder also builds a selector for, are never read. Prism's pages hold no
    // frames (the check refuses one), so axe runs in the page alone.
    // Left out: the invisible focus guards Radix puts at the body's ends while a menu is open
    // (a menu keeps Tab to itself; a guard only hands the focus back in). Axe's experimental
    // focus-order rule asks them for a role, which an element no one sees or hears has none of.
    expect(page.frames(), "frames, which this check does not look into").toHaveLength(1);
    if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
    return page.evaluate(
      (rules) =>
        (window as unknown as { axe: typeof axe }).axe.run(
          { exclude: ["[data-radix-focus-guard]"] },
          { rules, resultTypes: ["violations"] },
        ),
      everyAxeRule,
    );
  });
  expect(
    results.violations.map(
      (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
}

/**
 * Drags the mouse across `phrase` inside `within`, as a reader selecting it would; with `upTo`,
 * from the phrase's end up to that element instead.
 */
export async function dragSelect(page: Page, within: Locator, phrase: string, upTo?: Locator) {
  await within.scrollIntoViewIfNeeded();
  const box = await within.evaluate((root, text) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let full = "";
    const nodes: { node: Text; start: number }[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push({ node: node as Text, start: full.length });
      full += (node as Text).data;
    }
    const at = full.indexOf(text);
    const locate = (offset: number) => {
      const hit = [...nodes].reverse().find((n) => n.start <= offset);
      if (!hit) throw new Error("offset not found");
      return { node: hit.node, offset: offset - hit.start };
    };
    const from = locate(at);
    const to = locate(at + text.length);
    const first = document.createRange();
    first.setStart(from.node, from.offset);
    first.setEnd(from.node, Math.min(from.offset + 1, from.node.length));
    const last = document.createRange();
    last.setStart(to.node, Math.max(0, to.offset - 1));
    last.setEnd(to.node, to.offset);
    const a = first.getBoundingClientRect();
    const b = last.getBoundingClientRect();
    return { x1: a.left + 1, y1: a.top + a.height / 2, x2: b.right - 1, y2: b.top + b.height / 2 };
  }, phrase);
  await page.mouse.move(upTo ? box.x2 : box.x1, upTo ? box.y2 : box.y1);
  await page.mouse.down();
  if (upTo) {
    const target = await upTo.boundingBox();
    if (!target) throw new Error("no box");
    await page.mouse.move(target.x + 5, target.y + target.height / 2, { steps: 8 });
  } else {
    await page.mouse.move(box.x2, box.y2, { steps: 8 });
  }
  await page.mouse.up();
}
