// Entity tags tell nobody more than the answer they stand for: an unread count is confirmed only
// to its member, once their session is checked; a tag named by a session cookie is confirmed only
// while that session stands; a public list of annotations keeps its tag while
// only annotations it does not show change; and a tag is keyed with the app secret, so that
// nobody can make one.
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { buildPrism, buildUser } from "../../src/server/test/builders.ts";
import {
  asSent,
  send,
  setupTestApp,
  signIn,
  TEST_ORIGIN,
  visitorCookie,
} from "../../src/server/test/helpers.ts";

const t = setupTestApp();

type App = typeof t.app;

const unreadCount = (headers: Record<string, string>, app: App = t.app) =>
  app.inject({ method: "GET", url: "/api/notifications/unread-count", headers });

const respond = async (prismId: number, headers: Record<string, string>, annotationText: string) =>
  send(t.app, "POST", "/api/annotations", {
    headers,
    payload: await asSent(t.app, headers, {
      prismId,
      annotationText,
      selectedText: "Mornings",
      selectionStart: 0,
      selectionEnd: 8,
    }),
  });

describe("the unread count's tag", () => {
  it("is checked against the session before any 304: a replayed tag whose session ended gets a 401", async () => {
    const member = await buildUser(t.database);
    const headers = await signIn(t.database, member);
    const first = await unreadCount(headers);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await unreadCount({ ...headers, "if-none-match": etag })).statusCode).toBe(304);

    expect((await send(t.app, "POST", "/api/logout", { headers })).statusCode).toBeLessThan(300);
    const replayed = await unreadCount({ ...headers, "if-none-match": etag });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.headers.etag).toBeUndefined();
  });

  it("cannot be made by someone without a session: guessed tags get a 401", async () => {
    const owner = await buildUser(t.database);
    await buildPrism(t.database, { userId: owner.id });
    // What a public answer's tag gives away, and every guess built from it for a made-up cookie.
    const publicTag = (await t.app.inject({ method: "GET", url: `/api/prisms/${owner.username}` }))
      .headers.etag as string;
    const prefix = publicTag.replaceAll('"', "").split("-")[0];
    const cookie = "prism_session=made-up";
    const guesses = Array.from({ length: 50 }, (_, counter) => {
      const tag = `${prefix}-${counter}`;
      const digest = createHash("sha256").update(`${tag} made-up`).digest("base64url");
      const inner = `"${prefix}-${digest.slice(0, 16)}"`;
      return `"${createHash("sha256").update(inner).digest("base64url").slice(0, 22)}"`;
    });
    for (const guess of [...guesses, publicTag]) {
      const answer = await unreadCount({ cookie, "if-none-match": guess });
      expect(answer.statusCode).toBe(401);
    }
  });

  it("of one member never validates for another", async () => {
    const a = await signIn(t.database, await buildUser(t.database));
    const b = await signIn(t.database, await buildUser(t.database));
    const tagOfA = (await unreadCount(a)).headers.etag as string;
    const tagOfB = (await unreadCount(b)).headers.etag as string;
    expect(tagOfA).not.toBe(tagOfB);
    const asB = await unreadCount({ ...b, "if-none-match": tagOfA });
    expect(asB.statusCode).toBe(200);
    expect(asB.json()).toEqual({ count: 0 });
    expect((await unreadCount({ ...a, "if-none-match": tagOfA })).statusCode).toBe(304);
  });

  it("moves with the member's own notifications only", async () => {
    const owner = await buildUser(t.database);
    const ownerHeaders = await signIn(t.database, owner);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const bystander = await signIn(t.database, await buildUser(t.database));
    const before = (await unreadCount(bystander)).headers.etag as string;
    const ownerBefore = (await unreadCount(ownerHeaders)).headers.etag as string;

    const heart = await send(t.app, "POST", `/api/prisms/${prism.id}/heart`, {
      headers: { cookie: visitorCookie("tags-visitor-hearting-01") },
    });
    expect(heart.statusCode).toBe(200);
    expect((await unreadCount({ ...bystander, "if-none-match": before })).statusCode).toBe(304);
    const owners = await unreadCount({ ...ownerHeaders, "if-none-match": ownerBefore });
    expect(owners.statusCode).toBe(200);
    expect(owners.json()).toEqual({ count: 1 });
  });
});

describe("a prism's public list of annotations", () => {
  it("keeps its tag while only annotations it does not show change, and moves when one is approved", async () => {
    const owner = await buildUser(t.database);
    const ownerHeaders = await signIn(t.database, owner);
    const author = await signIn(t.database, await buildUser(t.database));
    const prism = await buildPrism(t.database, { userId: owner.id, content: "<p>Mornings.</p>" });
    const url = `/api/prisms/${prism.id}/annotations`;
    const reader = { cookie: visitorCookie("tags-visitor-reading-01") };
    const read = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: "GET", url, headers });
    const decide = (id: number, status: "approved" | "rejected") =>
      send(t.app, "PUT", `/api/annotations/${id}/status`, {
        headers: ownerHeaders,
        payload: { status },
      });

    const first = await read(reader);
    expect(first.json()).toEqual([]);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const anonymousTag = (await read()).headers.etag as string;

    const pending = await respond(prism.id, author, "Not yet decided");
    expect(pending.statusCode).toBe(201);
    const afterPending = await read({ ...reader, "if-none-match": etag });
    expect(afterPending.statusCode).toBe(304);
    expect(afterPending.headers.etag).toBe(etag);
    expect((await read()).headers.etag).toBe(anonymousTag);

    expect((await decide(pending.json().id, "rejected")).statusCode).toBe(200);
    expect((await read({ ...reader, "if-none-match": etag })).statusCode).toBe(304);

    const approved = await respond(prism.id, author, "Worth showing");
    expect((await decide(approved.json().id, "approved")).statusCode).toBe(200);
    const afterApproval = await read({ ...reader, "if-none-match": etag });
    expect(afterApproval.statusCode).toBe(200);
    expect(afterApproval.headers.etag).not.toBe(etag);
    expect(afterApproval.json()).toMatchObject([{ annotationText: "Worth showing" }]);
    // The author sees their own rejected one too: their tag is theirs, not the public one.
    const authorTag = (await read(author)).headers.etag;
    expect(authorTag).toBeTruthy();
    expect(authorTag).not.toBe(afterApproval.headers.etag);
  });
});

describe("a tag named by the viewer's cookies", () => {
  /** Signs `headers`' session out: the cookie stays, the session behind it ends. */
  const signOut = async (headers: Record<string, string>) =>
    expect((await send(t.app, "POST", "/api/logout", { headers })).statusCode).toBeLessThan(300);

  it("of the owner's annotation list is not confirmed once their session has ended", async () => {
    const owner = await buildUser(t.database);
    const ownerHeaders = await signIn(t.database, owner);
    const prism = await buildPrism(t.database, { userId: owner.id, content: "<p>Mornings.</p>" });
    const author = await signIn(t.database, await buildUser(t.database));
    expect((await respond(prism.id, author, "Waiting for the owner")).statusCode).toBe(201);
    const url = `/api/prisms/${prism.id}/annotations`;
    const read = (headers: Record<string, string>) => t.app.inject({ method: "GET", url, headers });

    const owners = await read(ownerHeaders);
    expect(owners.json()).toMatchObject([{ annotationText: "Waiting for the owner" }]);
    const etag = owners.headers.etag as string;
    expect((await read({ ...ownerHeaders, "if-none-match": etag })).statusCode).toBe(304);

    await signOut(ownerHeaders);
    const replayed = await read({ ...ownerHeaders, "if-none-match": etag });
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers.etag).not.toBe(etag);
    expect(replayed.json()).toEqual([]);
    // Asked again with the tag it now has, the ended session's answer is confirmed as itself.
    const again = await read({ ...ownerHeaders, "if-none-match": String(replayed.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it("of a member's heart status is not confirmed once their session has ended", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const member = await signIn(t.database, await buildUser(t.database));
    const url = `/api/prisms/${prism.id}/heart`;
    const heart = await send(t.app, "POST", url, { headers: member });
    expect(heart.json()).toMatchObject({ hearted: true });

    const status = await t.app.inject({ method: "GET", url, headers: member });
    expect(status.json()).toMatchObject({ hearted: true });
    const etag = status.headers.etag as string;
    await signOut(member);
    const replayed = await t.app.inject({
      method: "GET",
      url,
      headers: { ...member, "if-none-match": etag },
    });
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json()).toMatchObject({ hearted: false });
  });
});

describe("tags and the app secret", () => {
  const apps: App[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  async function appWithSecret(secret: string) {
    const config = loadConfig({
      APP_ORIGIN: TEST_ORIGIN,
      SEED: "none",
      NODE_ENV: "test",
      APP_SECRET: secret,
    });
    const app = await buildApp({ config, database: t.database });
    await app.ready();
    apps.push(app);
    return app;
  }

  it("are the same for the same answer under one secret, and differ under another", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const url = `/api/prisms/${prism.id}/annotations`;
    const reader = { cookie: visitorCookie("tags-visitor-secret-001") };
    const tagFrom = async (app: App) =>
      (await app.inject({ method: "GET", url, headers: reader })).headers.etag;
    const one = await appWithSecret("a".repeat(32));
    const same = await appWithSecret("a".repeat(32));
    const other = await appWithSecret("b".repeat(32));
    const tag = await tagFrom(one);
    expect(tag).toBeTruthy();
    expect(await tagFrom(same)).toBe(tag);
    expect(await tagFrom(other)).not.toBe(tag);

    const member = await signIn(t.database, owner);
    const memberTag = (await unreadCount(member, one)).headers.etag;
    expect(memberTag).toBeTruthy();
    expect((await unreadCount(member, other)).headers.etag).not.toBe(memberTag);
  });
});
