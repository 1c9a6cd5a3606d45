// Two machines, one PostgreSQL: two instances of Prism on two ports (this test's, and another OS
// process) behind a round-robin proxy, set up as the README's "Several machines" says (one
// database, one APP_SECRET and APP_ORIGIN, TRUST_PROXY naming the proxy). On PGlite this does not
// apply: the embedded database belongs to one process, which a second instance cannot open.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { HEARD_EVENT_HEADER } from "../contract/events.ts";
import { personCheckMessages } from "../contract/person-check.ts";
import { EventBus } from "./live/bus.ts";
import { SESSION_COOKIE } from "./security/session-store.ts";
import { buildNotification, buildPrism, buildUser } from "./test/builders.ts";
import { testDatabaseUrl, withDatabase } from "./test/databases.ts";
import { isEvent, openStream } from "./test/event-stream.ts";
import {
  jsonHeaders,
  profileBody,
  setupTestApp,
  signIn,
  TEST_ORIGIN,
  TEST_PASSWORD,
  visitorCookie,
} from "./test/helpers.ts";
import { databaseName, spawnInstance } from "./test/instances.ts";
import { personCheck } from "./test/person-check.ts";
import { type RoundRobin, startRoundRobin } from "./test/round-robin.ts";

const postgresUrl = testDatabaseUrl();

describe.runIf(postgresUrl)("two instances on one PostgreSQL behind a round-robin proxy", () => {
  const settings = {
    APP_SECRET: "one-secret-for-both-instances-of-prism-01",
    TRUST_PROXY: "127.0.0.1",
  };
  const t = setupTestApp(settings);
  let a = "";
  let b = "";
  let other: Awaited<ReturnType<typeof spawnInstance>> | undefined;
  let proxy: RoundRobin | undefined;
  beforeAll(async () => {
    a = await t.app.listen({ port: 0, host: "127.0.0.1" });
    other = await spawnInstance(
      withDatabase(postgresUrl ?? "", await databaseName(t.database)),
      settings,
    );
    b = other.origin;
    // As a load balancer would, send traffic once each instance says it is ready.
    for (const origin of [a, b]) {
      let ready = await fetch(`${origin}/api/ready`);
      for (let i = 0; i < 100 && ready.status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ready = await fetch(`${origin}/api/ready`);
      }
      expect(ready.status).toBe(200);
    }
    proxy = await startRoundRobin([a, b]);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await other?.stop();
  });

  /** A request through the proxy, which sends it to the next instance. */
  const viaProxy = (path: string, init: RequestInit = {}) => fetch(`${proxy?.origin}${path}`, init);

  /** The status, tag and body of a read, with `tag` as If-None-Match when given. */
  async function read(origin: string, path: string, headers: Record<string, string>, tag = "") {
    const response = await fetch(`${origin}${path}`, {
      headers: tag ? { ...headers, "if-none-match": tag } : headers,
    });
    const text = await response.text();
    return {
      status: response.status,
      etag: response.headers.get("etag") ?? "",
      body: text ? JSON.parse(text) : undefined,
    };
  }

  it("a member signs in and writes through one instance, and a page open on the other hears it live and reads it right", {
    timeout: 60_000,
  }, async () => {
    const owner = await buildUser(t.database, { preapproveMembers: true });
    const prism = await buildPrism(t.database, {
      userId: owner.id,
      title: "Mornings",
      content: "<p>Mornings are for deep work.</p>",
    });
    const member = await buildUser(t.database);
    const ownerHeaders = await signIn(t.database, owner);
    const reader = { cookie: visitorCookie("visitor-two-instances-01", settings.APP_SECRET) };
    const list = `/api/prisms/${owner.username}`;
    const heart = `/api/prisms/${prism.id}/heart`;
    const annotationsOf = `/api/prisms/${prism.id}/annotations`;

    // A reader's page on B has read the prism list, hearts and annotations, which B now keeps;
    // asked again with their tags, B answers 304 from memory.
    const before = {
      list: await read(b, list, reader),
      heart: await read(b, heart, reader),
      annotations: await read(b, annotationsOf, reader),
    };
    expect(before.list.body[0].heartsCount).toBe(0);
    expect(before.heart.body).toEqual({ hearted: false, heartsCount: 0 });
    expect(before.annotations.body).toEqual([]);
    for (const [path, answer] of [
      [list, before.list],
      [heart, before.heart],
      [annotationsOf, before.annotations],
    ] as const) {
      expect(answer.etag).not.toBe("");
      expect((await read(b, path, reader, answer.etag)).status).toBe(304);
    }

    // Through the proxy: the member signs in on A, the owner's open page streams from B.
    const signedIn = await viaProxy("/api/login", {
      method: "POST",
      headers: jsonHeaders(),
      body: JSON.stringify({ username: member.username, password: TEST_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const session = signedIn.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0] as string)
      .find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    if (!session) throw new Error("no session cookie");
    const memberHeaders = { cookie: session };
    const page = await openStream(proxy?.origin ?? "", ownerHeaders);
    expect(page.status).toBe(200);
    await page.waitFor(isEvent("live.ready"), 5000);

    // The member hearts on A; the page on B hears it, and B answers the member (whose session
    // A started) with their heart.
    const hearted = await viaProxy(heart, { method: "POST", headers: jsonHeaders(memberHeaders) });
    expect(await hearted.json()).toEqual({ hearted: true, heartsCount: 1 });
    const heard = await page.waitFor(isEvent("heart.changed", { prismId: prism.id }), 5000);
    expect(JSON.parse(heard.data ?? "").heartsCount).toBe(1);
    await page.waitFor(isEvent("notification.created"), 5000);
    const ownHeart = await viaProxy(heart, { headers: memberHeaders });
    expect(await ownHeart.json()).toEqual({ hearted: true, heartsCount: 1 });

    // The member responds on A; the page on B hears it, and B lists it to the member.
    const annotated = await viaProxy("/api/annotations", {
      method: "POST",
      headers: jsonHeaders(memberHeaders),
      body: JSON.stringify({
        prismId: prism.id,
        annotationText: "Mine too, before the first meeting.",
        selectedText: "deep work",
        selectionStart: 17,
        selectionEnd: 26,
      }),
    });
    expect(annotated.status).toBe(201);
    await page.waitFor(isEvent("annotation.changed", { prismId: prism.id }), 5000);
    await page.waitFor(isEvent("notification.created"), 5000);
    const listed = await viaProxy(annotationsOf, { headers: memberHeaders });
    expect((await listed.json()).map((a: { status: string }) => a.status)).toEqual(["approved"]);
    await page.close();

    // Each request went to the next instance: sign-in, heart and response to A; the page's
    // stream and the member's reads to B.
    expect(proxy?.sentTo).toEqual([a, b, a, b, a, b]);

    // B's answers moved on: the reader's old tags are answered in full with the writes, and the
    // new ones 304 again.
    const after = {
      list: await read(b, list, reader, before.list.etag),
      heart: await read(b, heart, reader, before.heart.etag),
      annotations: await read(b, annotationsOf, reader, before.annotations.etag),
    };
    expect(after.list.status).toBe(200);
    expect(after.list.body[0].heartsCount).toBe(1);
    expect(after.heart.status).toBe(200);
    expect(after.heart.body).toEqual({ hearted: false, heartsCount: 1 });
    expect(after.annotations.status).toBe(200);
    expect(after.annotations.body.map((a: { annotationText: string }) => a.annotationText)).toEqual(
      ["Mine too, before the first meeting."],
    );
    for (const [path, was, now] of [
      [list, before.list, after.list],
      [heart, before.heart, after.heart],
      [annotationsOf, before.annotations, after.annotations],
    ] as const) {
      expect((await read(b, path, reader, now.etag)).status).toBe(304);
      // A answers alike, and no more confirms what the reader held before the writes.
      const fromA = await read(a, path, reader, was.etag);
      expect(fromA.status).toBe(200);
      expect(fromA.body).toEqual(now.body);
    }
    // The owner's unread count on B holds the heart and the response.
    expect((await read(b, "/api/notifications/unread-count", ownerHeaders)).body).toEqual({
      count: 2,
    });
  });

  it("counts a limit once for both instances, per client address the proxy forwards", async () => {
    const member = await buildUser(t.database);
    /** A wrong sign-in through the proxy, from `address` as the proxy saw it; its answer. */
    const guess = (address: string) =>
      new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
        const request = httpRequest(`${proxy?.origin}/api/login`, {
          method: "POST",
          agent: false,
          headers: jsonHeaders({ "x-forwarded-for": address }),
        });
        request.once("error", reject);
        request.once("response", (response) => {
          response.resume();
          response.once("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: response.headers["retry-after"],
            }),
          );
        });
        request.end(JSON.stringify({ username: member.username, password: "wrong-guess" }));
      });
    const sent = proxy?.sentTo.length ?? 0;
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await guess("10.40.0.1"));
    // Five wrong passwords from one address, wherever they went, then 429 on both instances.
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(Number(answers[5]?.retryAfter)).toBeGreaterThan(0);
    expect(Number(answers[5]?.retryAfter)).toBeLessThanOrEqual(15 * 60);
    expect(new Set(proxy?.sentTo.slice(sent))).toEqual(new Set([a, b]));
    // Another visitor behind the same proxy keeps their own count.
    expect((await guess("10.40.0.2")).status).toBe(401);
  });
  it("accepts a visitor's proof on the other instance than the one that issued it, and neither accepts it twice", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, {
      userId: owner.id,
      content: "<p>Mornings are for deep work.</p>",
    });
    const issued = await fetch(`${a}/api/challenge`);
    expect(issued.status).toBe(200);
    const body = JSON.stringify({
      prismId: prism.id,
      annotationText: "Mine too.",
      selectedText: "Mornings",
      selectionStart: 0,
      selectionEnd: 8,
      ...(await personCheck(await issued.json())),
    });
    const respond = (origin: string) =>
      fetch(`${origin}/api/annotations`, { method: "POST", headers: jsonHeaders(), body });
    expect((await respond(b)).status).toBe(201);
    for (const origin of [a, b]) {
      const again = await respond(origin);
      expect(again.status).toBe(400);
      expect((await again.json()).errors).toEqual({ altcha: personCheckMessages.reused });
    }
  });

  it("a session kept on one instance reflects a change made through the other", async () => {
    const member = await buildUser(t.database);
    const headers = await signIn(t.database, member);
    const me = async (origin: string) => {
      const response = await fetch(`${origin}/api/user`, { headers });
      return { status: response.status, body: await response.json() };
    };
    // B now keeps the member behind this session for its reads.
    expect((await me(b)).body).toMatchObject({ firstName: member.firstName });
    expect((await me(b)).status).toBe(200);

    const renamed = await fetch(`${a}/api/user/profile`, {
      method: "PUT",
      headers: jsonHeaders(headers),
      body: JSON.stringify(profileBody(member, { firstName: "Elsewhere" })),
    });
    expect(renamed.status).toBe(200);
    // B hears it as soon as the change's notice reaches it; a kept session would answer the
    // old name for up to a minute.
    await expect
      .poll(async () => (await me(b)).body.firstName, { timeout: 5000 })
      .toBe("Elsewhere");

    const signedOut = await fetch(`${a}/api/logout`, {
      method: "POST",
      headers: { ...headers, origin: TEST_ORIGIN },
    });
    expect(signedOut.status).toBe(204);
    await expect.poll(async () => (await me(b)).status, { timeout: 5000 }).toBe(401);
  });

  it("a page told of a change by one instance is not answered 'unchanged' by another that has not heard it yet", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const ownerHeaders = await signIn(t.database, owner);
    const unread = "/api/notifications/unread-count";
    // B keeps the owner's count, and confirms it with a 304.
    const before = await read(b, unread, ownerHeaders);
    expect(before.body).toEqual({ count: 0 });
    expect((await read(b, unread, ownerHeaders, before.etag)).status).toBe(304);

    // A third instance writes a notification for the owner and announces it. The owner's page
    // hears it from that instance's stream and, at once, asks B again, naming the event: B has not
    // heard it yet (its NOTIFY is not even sent), and must not confirm the old count.
    const announcer = new EventBus(t.database);
    onTestFinished(() => announcer.stop());
    let asked: ReturnType<typeof read> | undefined;
    announcer.subscribe((_event, id) => {
      asked = read(b, unread, { ...ownerHeaders, [HEARD_EVENT_HEADER]: id }, before.etag);
    });
    await buildNotification(t.database, { userId: owner.id, prismId: prism.id });
    await announcer.publish({ type: "notification.created", userId: owner.id });
    expect(await asked).toMatchObject({ status: 200, body: { count: 1 } });
  });
});
