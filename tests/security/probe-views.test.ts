// Views and every per-browser counter hold only for browser ids the server issued: a made-up or
// forged `vid` counts no view and keys no limit, and one address counts a prism a few times a day.
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/contract/limits.ts";
import { type App, buildApp } from "../../src/server/app.ts";
import { prismHearts, prismViews } from "../../src/server/db/schema.ts";
import { buildPrism, buildUser } from "../../src/server/test/builders.ts";
import {
  asSent,
  send,
  setupTestApp,
  TEST_SECRET,
  visitorCookie,
} from "../../src/server/test/helpers.ts";
import { type CounterOperation, countingStore } from "../../src/server/test/limit-store.ts";

const t = setupTestApp();
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

// The same app serving a built web app, so that a page can be asked for as a browser does.
const webRoot = mkdtempSync(join(tmpdir(), "prism-views-"));
writeFileSync(
  join(webRoot, "index.html"),
  '<!doctype html><html><body><div id="root"></div></body></html>',
);
let site: App;
beforeAll(async () => {
  site = await buildApp({ config: t.config, database: t.database, webRoot });
  await site.ready();
});
afterAll(async () => {
  await site?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

type Answer = Awaited<ReturnType<typeof send>>;
const vidOf = (answer: Answer) => answer.cookies.find((c) => c.name === "vid")?.value;

const beacon = (prismId: number, cookie: string | undefined, remoteAddress: string) =>
  send(site, "POST", "/api/prisms/views", {
    payload: { prismIds: [prismId] },
    headers: { "user-agent": BROWSER, ...(cookie ? { cookie } : {}) },
    remoteAddress,
  });

/** A browser opening the owner's page from `remoteAddress`: the `vid` cookie it is given. */
async function openPage(username: string, remoteAddress: string): Promise<string> {
  const page = await send(site, "GET", `/${username}`, {
    headers: { "user-agent": BROWSER },
    remoteAddress,
  });
  expect(page.statusCode).toBe(200);
  const vid = vidOf(page);
  expect(vid).toMatch(/^[\w-]+\.[\w-]+$/);
  return `vid=${vid}`;
}

async function viewsOf(prismId: number): Promise<number> {
  const rows = await t.database.db
    .select({ count: prismViews.count })
    .from(prismViews)
    .where(eq(prismViews.prismId, prismId));
  return rows.reduce((sum, row) => sum + row.count, 0);
}

async function ownPrism() {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  return { owner, prism };
}

describe("views, from browser ids the server did not issue", () => {
  it("600 beacons with made-up or forged ids from one address count nothing", async () => {
    const { prism } = await ownPrism();
    const given = [];
    for (let i = 0; i < 600; i++) {
      const id = `made-up-visitor-${String(i).padStart(6, "0")}`;
      const cookie = i % 2 ? `vid=${id}` : `vid=${id}.${"A".repeat(22)}`;
      const answer = await beacon(prism.id, cookie, "10.33.7.1");
      expect(answer.statusCode).toBe(204);
      given.push({ id, vid: vidOf(answer) ?? "" });
    }
    expect(await viewsOf(prism.id)).toBe(0);
    // Each was treated as a browser without an id, and given a fresh one, signed.
    for (const { id, vid } of given) {
      expect(vid).toMatch(/^[\w-]+\.[\w-]+$/);
      expect(vid.startsWith(id)).toBe(false);
    }
  });

  it("a beacon without any id counts nothing, and gives the browser one", async () => {
    const { prism } = await ownPrism();
    const first = await beacon(prism.id, undefined, "10.33.7.2");
    expect(await viewsOf(prism.id)).toBe(0);
    await beacon(prism.id, `vid=${vidOf(first)}`, "10.33.7.2");
    expect(await viewsOf(prism.id)).toBe(1);
  });

  it("a real browser, page then beacon, counts once a day", async () => {
    const { owner, prism } = await ownPrism();
    const cookie = await openPage(owner.username, "10.33.7.3");
    expect((await beacon(prism.id, cookie, "10.33.7.3")).statusCode).toBe(204);
    expect((await beacon(prism.id, cookie, "10.33.7.3")).statusCode).toBe(204);
    expect(await viewsOf(prism.id)).toBe(1);
  });

  it(`one address counts a prism at most ${limits.viewsPerAddress} times a day, each from a real browser`, async () => {
    const { owner, prism } = await ownPrism();
    const other = await buildPrism(t.database, { userId: owner.id, index: 1 });
    for (let i = 0; i < limits.viewsPerAddress + 5; i++) {
      const cookie = await openPage(owner.username, "10.33.7.4");
      expect((await beacon(prism.id, cookie, "10.33.7.4")).statusCode).toBe(204);
    }
    expect(await viewsOf(prism.id)).toBe(limits.viewsPerAddress);
    // Another prism from there, and the same prism from another address, still count.
    await beacon(other.id, await openPage(owner.username, "10.33.7.4"), "10.33.7.4");
    await beacon(prism.id, await openPage(owner.username, "10.33.7.5"), "10.33.7.5");
    expect(await viewsOf(other.id)).toBe(1);
    expect(await viewsOf(prism.id)).toBe(limits.viewsPerAddress + 1);
  });
});

describe("per-browser counters", () => {
  const operations: CounterOperation[] = [];
  let counted: App;
  beforeAll(async () => {
    counted = await buildApp({
      config: t.config,
      database: t.database,
      limitStore: countingStore(operations),
    });
    await counted.ready();
  });
  afterAll(() => counted?.close());

  it("are keyed by browser ids the server issued alone: a made-up or forged one keys none", async () => {
    const { prism } = await ownPrism();
    const respond = async (cookie: string) =>
      send(counted, "POST", "/api/annotations", {
        headers: { cookie },
        remoteAddress: "10.33.7.6",
        payload: await asSent(
          counted,
          { cookie },
          {
            prismId: prism.id,
            selectedText: "Mornings",
            annotationText: "Same here",
            selectionStart: 0,
            selectionEnd: 8,
          },
          "10.33.7.6",
        ),
      });
    const browserKeys = () =>
      operations.filter((op) => op.name === "responses-browser").map((op) => op.key);
    for (const cookie of [
      "vid=made-up-annotator-0001",
      `vid=made-up-annotator-0002.${"A".repeat(22)}`,
    ]) {
      expect((await respond(cookie)).statusCode).toBe(201);
    }
    expect(browserKeys()).toEqual([]);
    const issued = visitorCookie("an-issued-browser");
    expect((await respond(issued)).statusCode).toBe(201);
    expect(browserKeys()).toEqual([issued.replace("vid=", "vid:")]);
  });
});

describe("a browser id from before ids were signed", () => {
  const hashOf = (id: string) => createHmac("sha256", TEST_SECRET).update(id).digest("hex");

  it("stays its browser's when it hearted: signed as it is, its hearts still its own", async () => {
    const { prism } = await ownPrism();
    const old = "an-old-browser-id-0001";
    await t.database.db.insert(prismHearts).values({ prismId: prism.id, visitorHash: hashOf(old) });
    const status = await send(t.app, "GET", `/api/prisms/${prism.id}/heart`, {
      headers: { cookie: `vid=${old}` },
    });
    expect(status.json()).toMatchObject({ hearted: true });
    expect(vidOf(status)).toBe(visitorCookie(old).slice("vid=".length));
  });

  it("is replaced by a fresh one when the database does not know it", async () => {
    const { prism } = await ownPrism();
    const old = "an-old-browser-id-0002";
    const status = await send(t.app, "GET", `/api/prisms/${prism.id}/heart`, {
      headers: { cookie: `vid=${old}` },
    });
    expect(status.json()).toMatchObject({ hearted: false });
    expect(vidOf(status)).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(vidOf(status)?.startsWith(old)).toBe(false);
  });
});
