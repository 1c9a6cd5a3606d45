// A member as an ActivityPub actor, read through the app as another server reads it: found by
// WebFinger only once they turn federation on, their actor (also at their page's address, asked
// for as ActivityPub), their outbox with each prism as an Article, their followers' number only,
// and NodeInfo.
import { describe, expect, it } from "vitest";
import { buildPrism, buildUser } from "../../test/builders.ts";
import {
  profileBody,
  setupTestApp,
  signIn,
  TEST_ORIGIN,
  TEST_PASSWORD,
} from "../../test/helpers.ts";

const t = setupTestApp();
const AP = "application/activity+json";
const get = (url: string, accept = AP) => t.app.inject({ method: "GET", url, headers: { accept } });
const host = new URL(TEST_ORIGIN).host;

describe("a member on the fediverse", () => {
  it("is found by WebFinger only once they turn federation on", async () => {
    const off = await buildUser(t.database, { username: "quiet-one" });
    const on = await buildUser(t.database, { username: "Loud-One", federated: true });
    const missing = await get(`/.well-known/webfinger?resource=acct:${off.username}@${host}`);
    expect(missing.statusCode).toBe(404);

    const found = await get(`/.well-known/webfinger?resource=acct:loud-one@${host}`);
    expect(found.statusCode).toBe(200);
    const jrd = found.json() as {
      subject: string;
      links: { rel: string; type?: string; href: string }[];
    };
    expect(jrd.subject).toBe(`acct:loud-one@${host}`);
    const self = jrd.links.find((link) => link.rel === "self");
    expect(self).toMatchObject({ type: AP, href: `${TEST_ORIGIN}/ap/actors/${on.id}` });
    const page = jrd.links.find((link) => link.rel === "http://webfinger.net/rel/profile-page");
    expect(page?.href).toBe(`${TEST_ORIGIN}/Loud-One`);

    // Nor is the actor of a member who has not turned it on served.
    expect((await get(`/ap/actors/${off.id}`)).statusCode).toBe(404);
  });

  it("is a Person with their page as its url and their links as rel=me PropertyValues", async () => {
    const ada = await buildUser(t.database, {
      username: "ada-actor",
      firstName: "Ada",
      lastName: "Lovelace",
      websiteUrl: "https://ada.example/",
      federated: true,
    });
    const response = await get(`/ap/actors/${ada.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/application\/activity\+json/);
    const actor = response.json();
    expect(actor).toMatchObject({
      id: `${TEST_ORIGIN}/ap/actors/${ada.id}`,
      type: "Person",
      preferredUsername: "ada-actor",
      name: "Ada Lovelace",
      url: `${TEST_ORIGIN}/ada-actor`,
      inbox: `${TEST_ORIGIN}/ap/actors/${ada.id}/inbox`,
      outbox: `${TEST_ORIGIN}/ap/actors/${ada.id}/outbox`,
      followers: `${TEST_ORIGIN}/ap/actors/${ada.id}/followers`,
      endpoints: { sharedInbox: `${TEST_ORIGIN}/ap/inbox` },
      manuallyApprovesFollowers: false,
    });
    expect(actor.publicKey.id).toBe(`${TEST_ORIGIN}/ap/actors/${ada.id}#main-key`);
    expect(actor.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    // One attachment is written as JSON-LD compacts it: the object itself.
    expect(actor.attachment).toMatchObject({
      type: "PropertyValue",
      name: "Website",
      value: expect.stringMatching(/^<a href="https:\/\/ada\.example\/" rel="me[^"]*"/),
    });

    // The page's own address, asked for as ActivityPub, is the actor; a browser gets the page.
    const negotiated = await get(
      "/ada-actor",
      'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
    );
    expect(negotiated.statusCode).toBe(200);
    expect(negotiated.json().id).toBe(actor.id);
    const html = await get("/ada-actor", "text/html");
    expect(html.headers["content-type"]).not.toMatch(/activity|ld\+json/);
  });

  it("says in its summary the title of the member's first public prism, and whether there are more", async () => {
    const bo = await buildUser(t.database, {
      username: "bo-summary",
      firstName: "Bo",
      lastName: "Lind",
      federated: true,
    });
    const summary = async () => (await get(`/ap/actors/${bo.id}`)).json().summary;
    expect(await summary()).toBe("Bo Lind is on Prism.");

    // First by the page's order, not the latest written; a prism for the team alone is not told.
    const write = (title: string, index: number, day: number) =>
      buildPrism(t.database, { userId: bo.id, title, index, updatedAt: new Date(2026, 0, day) });
    await buildPrism(t.database, { userId: bo.id, title: "Team only", index: 0, audience: "team" });
    await write("How I decide", 1, 1);
    expect(await summary()).toBe("Get to know Bo: &quot;How I decide&quot; on Prism.");
    await write("Later, lower", 2, 9);
    expect(await summary()).toBe("Get to know Bo: &quot;How I decide&quot; and more on Prism.");
  });

  it("answers 410 with a Tombstone at the page of a member who stopped federating", {
    timeout: 40_000,
  }, async () => {
    const mae = await buildUser(t.database, { username: "mae-gone", federated: true });
    const kai = await buildUser(t.database, { username: "kai-gone", federated: true });
    const never = await buildUser(t.database, { username: "never-federated" });
    for (const member of [mae, kai]) {
      expect((await get(`/ap/actors/${member.id}`)).statusCode).toBe(200);
    }
    const as = async (member: typeof mae) => ({
      ...(await signIn(t.database, member)),
      origin: TEST_ORIGIN,
      "content-type": "application/json",
    });
    const off = await t.app.inject({
      method: "PUT",
      url: "/api/user/profile",
      headers: await as(mae),
      payload: profileBody(mae, { federated: false }),
    });
    expect(off.statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: "/api/user/account",
      headers: await as(kai),
      payload: { currentPassword: TEST_PASSWORD },
    });
    expect(deleted.statusCode).toBe(204);

    for (const member of [mae, kai]) {
      const webFinger = `/.well-known/webfinger?resource=acct:${member.username}@${host}`;
      await expect
        .poll(async () => (await get(webFinger)).statusCode, { timeout: 20_000 })
        .toBe(410);
      const page = await get(`/${member.username}`);
      expect(page.statusCode).toBe(410);
      expect(page.json()).toMatchObject({
        id: `${TEST_ORIGIN}/ap/actors/${member.id}`,
        type: "Tombstone",
      });
    }
    // A browser is answered the page as before, not the Tombstone; one who never federated is
    // unknown to a server.
    const html = await get("/mae-gone", "text/html");
    expect(html.statusCode).not.toBe(410);
    expect(html.headers["content-type"]).not.toMatch(/activity|ld\+json/);
    expect((await get(`/${never.username}`)).statusCode).toBe(404);
  });

  it("lists each prism in its outbox as an Article, and says only how many follow", async () => {
    const grace = await buildUser(t.database, { username: "grace-outbox", federated: true });
    const prism = await buildPrism(t.database, {
      userId: grace.id,
      title: "On compilers",
      content: "<p>Write the <strong>compiler</strong> first.<script>alert(1)</script></p>",
    });
    const outbox = await get(`/ap/actors/${grace.id}/outbox`);
    expect(outbox.statusCode).toBe(200);
    const collection = outbox.json();
    expect(collection.totalItems).toBe(1);
    const first = await get(new URL(collection.first).pathname + new URL(collection.first).search);
    const items = first.json().orderedItems;
    expect(items).toHaveLength(1);
    expect(items[0].type).toBe("Create");
    expect(items[0].object).toMatchObject({
      id: `${TEST_ORIGIN}/ap/prisms/${prism.id}`,
      type: "Article",
      name: "On compilers",
      content: "<p>Write the <strong>compiler</strong> first.</p>",
      summary: "Write the compiler first.",
      url: `${TEST_ORIGIN}/grace-outbox?prism=${prism.id}`,
      attributedTo: `${TEST_ORIGIN}/ap/actors/${grace.id}`,
    });
    expect(JSON.stringify(items[0].object.interactionPolicy)).toContain("manualApproval");

    const article = await get(`/ap/prisms/${prism.id}`);
    expect(article.json()).toMatchObject({ type: "Article", name: "On compilers" });
    // The prism's link, as a reader pastes it into their server's search, is the Article too.
    const linked = await get(`/grace-outbox?prism=${prism.id}`);
    expect(linked.json()).toMatchObject({ id: `${TEST_ORIGIN}/ap/prisms/${prism.id}` });

    const followers = await get(`/ap/actors/${grace.id}/followers`);
    expect(followers.statusCode).toBe(200);
    const body = followers.json();
    expect(body.totalItems).toBe(0);
    expect(body.orderedItems ?? body.items ?? []).toEqual([]);
  });

  it("pages its outbox, 20 activities a page, newest first", async () => {
    const writer = await buildUser(t.database, { username: "many-prisms", federated: true });
    const written = [];
    for (let index = 0; index < 45; index += 1) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, index));
      written.push(
        await buildPrism(t.database, {
          userId: writer.id,
          index,
          title: `Prism ${index}`,
          createdAt: at,
          updatedAt: at,
        }),
      );
    }
    const newestFirst = written.reverse().map((prism) => `${TEST_ORIGIN}/ap/prisms/${prism.id}`);
    const outboxPath = `/ap/actors/${writer.id}/outbox`;
    const collection = (await get(outboxPath)).json();
    expect(collection).toMatchObject({ type: "OrderedCollection", totalItems: 45 });
    expect(collection.orderedItems).toBeUndefined();
    expect(collection.first).toBe(`${TEST_ORIGIN}${outboxPath}?cursor=0`);
    expect(collection.last).toBe(`${TEST_ORIGIN}${outboxPath}?cursor=40`);

    const seen: string[] = [];
    const sizes: number[] = [];
    let next: string | undefined = collection.first;
    while (next) {
      const url = new URL(next);
      const page = (await get(url.pathname + url.search)).json();
      expect(page.type).toBe("OrderedCollectionPage");
      expect(page.partOf).toBe(`${TEST_ORIGIN}${outboxPath}`);
      sizes.push(page.orderedItems.length);
      seen.push(...page.orderedItems.map((item: { object: { id: string } }) => item.object.id));
      next = page.next;
    }
    expect(sizes).toEqual([20, 20, 5]);
    expect(seen).toEqual(newestFirst);

    const second = (await get(`${outboxPath}?cursor=20`)).json();
    expect(second.prev).toBe(`${TEST_ORIGIN}${outboxPath}?cursor=0`);
    expect((await get(`${outboxPath}?cursor=abc`)).statusCode).toBe(404);
  });

  it("tells NodeInfo that this is Prism, speaking ActivityPub", async () => {
    const wellKnown = await get("/.well-known/nodeinfo", "application/json");
    expect(wellKnown.statusCode).toBe(200);
    expect(JSON.stringify(wellKnown.json())).toContain(`${TEST_ORIGIN}/nodeinfo/2.1`);
    const info = (await get("/nodeinfo/2.1", "application/json")).json();
    expect(info.software.name).toBe("prism");
    expect(info.protocols).toEqual(["activitypub"]);
  });
});
