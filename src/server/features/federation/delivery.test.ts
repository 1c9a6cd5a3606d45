// Prism among other servers, over HTTP: another Fedify server (its own keys, on its own port)
// follows a member and is sent the Accept; the member's prisms then arrive there as they are
// written, saved and deleted, and the member's actor is deleted when they turn federation off.
// An inbound activity without a valid signature, or whose body was changed after signing, is
// answered 401.
import { type SignRequestOptions, signRequest } from "@fedify/fedify";
import {
  Accept,
  Article,
  Create,
  Delete,
  Follow,
  Person,
  Reject,
  Tombstone,
  Undo,
  Update,
} from "@fedify/fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { beforeAll, describe, expect, it } from "vitest";
import { federationActors, type UserRow } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { setupFediverse } from "../../test/fediverse.ts";
import { profileBody, signIn, TEST_PASSWORD } from "../../test/helpers.ts";
import { INBOX_BODY_LIMIT } from "./routes.ts";

const t = setupFediverse();
let ada: UserRow;
let session: Record<string, string>;

beforeAll(async () => {
  ada = await buildUser(t.database, { username: "ada-fedi", federated: true });
  session = await signIn(t.database, ada);
});

const actorOfAda = () => new URL(`${t.prism.origin}/ap/actors/${ada.id}`);

/** bob follows a member (Ada unless named), from his server: a signed Follow to their inbox. */
async function bobFollows(n: number, actor = actorOfAda()): Promise<Follow> {
  const ctx = t.remote.federation.createContext(new URL(t.remote.origin), undefined);
  const follow = new Follow({
    id: new URL(`${t.remote.origin}/follows/${n}`),
    actor: t.remote.bob,
    object: actor,
  });
  const inboxId = new URL(`${actor.href}/inbox`);
  await ctx.sendActivity({ identifier: "bob" }, { id: actor, inboxId }, follow);
  return follow;
}

const call = (method: "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.prism.app.inject({
    method,
    url,
    headers: { ...session, origin: t.prism.origin, "content-type": "application/json" },
    ...(payload ? { payload } : {}),
  });

/** An address of Prism's, asked for over HTTP as another server asks for it. */
const fetchActivityPub = (url: string) =>
  fetch(url, { headers: { accept: "application/activity+json" } });

/** Asks Prism's WebFinger for a handle, as another server does. */
const webFinger = (username: string) =>
  fetch(
    `${t.prism.origin}/.well-known/webfinger?resource=acct:${username}@${new URL(t.prism.origin).host}`,
  );

/** The activities of `type` bob has received. */
const arrived = <T>(type: new (...args: never[]) => T) =>
  t.remote.received.filter((activity): activity is T & typeof activity => activity instanceof type);

describe("a member followed from another server", () => {
  it("accepts a signed Follow at once and sends the Accept over HTTP", {
    timeout: 30_000,
  }, async () => {
    const follow = await bobFollows(1);
    await expect.poll(() => arrived(Accept).length, { timeout: 20_000 }).toBe(1);
    const [accept] = arrived(Accept);
    expect(accept?.actorId?.href).toBe(actorOfAda().href);
    expect(accept?.objectId?.href ?? (await accept?.getObject())?.id?.href).toBe(follow.id?.href);

    const followers = await t.prism.app.inject({
      method: "GET",
      url: `/ap/actors/${ada.id}/followers`,
      headers: { accept: "application/activity+json" },
    });
    expect(followers.json().totalItems).toBe(1);
  });

  it("sends each prism as it is written, saved and deleted", { timeout: 60_000 }, async () => {
    const created = await call("POST", "/api/prisms", {
      title: "First light",
      content: "<p>Hello, fediverse.</p>",
    });
    expect(created.statusCode).toBe(201);
    const prismId = created.json().id as number;
    await expect.poll(() => arrived(Create).length, { timeout: 20_000 }).toBe(1);
    const article = await arrived(Create)[0]?.getObject();
    expect(article).toBeInstanceOf(Article);
    expect((article as Article).name?.toString()).toBe("First light");
    expect((article as Article).url).toEqual(
      new URL(`${t.prism.origin}/ada-fedi?prism=${prismId}`),
    );

    const saved = await call("PUT", `/api/prisms/${prismId}`, {
      title: "First light, again",
      content: "<p>Hello again.</p>",
    });
    expect(saved.statusCode).toBe(200);
    await expect.poll(() => arrived(Update).length, { timeout: 20_000 }).toBe(1);
    const updated = (await arrived(Update)[0]?.getObject()) as Article;
    expect(updated.name?.toString()).toBe("First light, again");
    expect(updated.content?.toString()).toBe("<p>Hello again.</p>");

    expect((await call("DELETE", `/api/prisms/${prismId}`)).statusCode).toBe(204);
    await expect.poll(() => arrived(Delete).length, { timeout: 20_000 }).toBe(1);
    const gone = await arrived(Delete)[0]?.getObject();
    expect(gone).toBeInstanceOf(Tombstone);
    expect(gone?.id?.href).toBe(`${t.prism.origin}/ap/prisms/${prismId}`);
  });

  it("sends only public prisms: a draft stays home, and one that leaves the public is deleted", {
    timeout: 60_000,
  }, async () => {
    const creates = arrived(Create).length;
    const deletes = arrived(Delete).length;
    const draft = await call("POST", "/api/prisms", {
      title: "Not yet",
      content: "<p>A draft.</p>",
      audience: "private",
    });
    expect(draft.statusCode).toBe(201);
    const prismId = draft.json().id as number;
    const published = await call("PUT", `/api/prisms/${prismId}`, {
      title: "Now",
      content: "<p>Ready.</p>",
      audience: "public",
    });
    expect(published.statusCode).toBe(200);
    // The draft went out only once public, as what it then said.
    await expect.poll(() => arrived(Create).length, { timeout: 20_000 }).toBe(creates + 1);
    const article = (await arrived(Create).at(-1)?.getObject()) as Article;
    expect(article.name?.toString()).toBe("Now");
    const narrowed = await call("PUT", `/api/prisms/${prismId}`, {
      title: "Now",
      content: "<p>Ready.</p>",
      audience: "team",
    });
    expect(narrowed.statusCode).toBe(200);
    await expect.poll(() => arrived(Delete).length, { timeout: 20_000 }).toBe(deletes + 1);
    const gone = await arrived(Delete).at(-1)?.getObject();
    expect(gone?.id?.href).toBe(`${t.prism.origin}/ap/prisms/${prismId}`);
    expect(arrived(Create)).toHaveLength(creates + 1);
  });

  it("tells followers when the member's profile changed", { timeout: 30_000 }, async () => {
    const renamed = await call(
      "PUT",
      "/api/user/profile",
      profileBody(ada, { firstName: "Augusta" }),
    );
    expect(renamed.statusCode).toBe(200);
    const personUpdates = async () => {
      const objects = await Promise.all(arrived(Update).map((update) => update.getObject()));
      return objects.filter((object): object is Person => object instanceof Person);
    };
    await expect.poll(async () => (await personUpdates()).length, { timeout: 20_000 }).toBe(1);
    const [person] = await personUpdates();
    expect(person?.id?.href).toBe(actorOfAda().href);
    expect(person?.name?.toString()).toMatch(/^Augusta /);
    ada = { ...ada, firstName: "Augusta" };
  });

  it("shows the owner their followers, and tells one they removed", {
    timeout: 30_000,
  }, async () => {
    const listed = await t.prism.app.inject({
      method: "GET",
      url: "/api/user/followers",
      headers: session,
    });
    expect(listed.statusCode).toBe(200);
    const [bob, ...others] = listed.json();
    expect(others).toEqual([]);
    expect(bob).toMatchObject({ actor: t.remote.bob.href, handle: `@bob@${t.remote.bob.host}` });

    // Nobody else removes them.
    const grace = await buildUser(t.database, { username: "grace-fedi" });
    const notHers = await t.prism.app.inject({
      method: "DELETE",
      url: `/api/user/followers/${bob.id}`,
      headers: { ...(await signIn(t.database, grace)), origin: t.prism.origin },
    });
    expect(notHers.statusCode).toBe(404);

    expect((await call("DELETE", `/api/user/followers/${bob.id}`)).statusCode).toBe(204);
    await expect.poll(() => arrived(Reject).length, { timeout: 20_000 }).toBe(1);
    expect(arrived(Reject)[0]?.objectId?.href).toBe(`${t.remote.origin}/follows/1`);
    const after = await t.prism.app.inject({
      method: "GET",
      url: "/api/user/followers",
      headers: session,
    });
    expect(after.json()).toEqual([]);

    // bob follows again, and is accepted again.
    await bobFollows(2);
    await expect.poll(() => arrived(Accept).length, { timeout: 20_000 }).toBe(2);
  });

  it("forgets a follower who undoes their follow", { timeout: 30_000 }, async () => {
    const ctx = t.remote.federation.createContext(new URL(t.remote.origin), undefined);
    const follow = new Follow({
      id: new URL(`${t.remote.origin}/follows/2`),
      actor: t.remote.bob,
      object: actorOfAda(),
    });
    const undo = new Undo({
      id: new URL(`${t.remote.origin}/undos/2`),
      actor: t.remote.bob,
      object: follow,
    });
    const inboxId = new URL(`${actorOfAda().href}/inbox`);
    await ctx.sendActivity({ identifier: "bob" }, { id: actorOfAda(), inboxId }, undo);
    const followers = () =>
      t.prism.app.inject({ method: "GET", url: "/api/user/followers", headers: session });
    await expect.poll(async () => (await followers()).json(), { timeout: 20_000 }).toEqual([]);

    // And follows once more, for what follows.
    await bobFollows(3);
    await expect.poll(async () => (await followers()).json().length, { timeout: 20_000 }).toBe(1);
  });

  it("refuses an inbound body over its bound before reading it all", async () => {
    const response = await fetch(`${actorOfAda().href}/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: JSON.stringify({ type: "Note", content: "x".repeat(INBOX_BODY_LIMIT) }),
    });
    // Prism answers an oversized body as any other request's: 400, saying so.
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/too large/);
  });

  it("answers 401 to an activity unsigned, tampered with, signed long ago or by another's key", async () => {
    const inbox = `${actorOfAda().href}/inbox`;
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${t.remote.origin}/follows/2`,
      type: "Follow",
      actor: t.remote.bob.href,
      object: actorOfAda().href,
    });
    const headers = { "content-type": "application/activity+json" };
    const unsigned = await fetch(inbox, { method: "POST", headers, body });
    expect(unsigned.status).toBe(401);

    const signed = await signRequest(
      new Request(inbox, { method: "POST", headers, body }),
      t.remote.keys.privateKey,
      new URL(`${t.remote.bob.href}#main-key`),
    );
    const tampered = await fetch(inbox, {
      method: "POST",
      headers: signed.headers,
      body: body.replace("follows/2", "follows/3"),
    });
    expect(tampered.status).toBe(401);

    const keyId = new URL(`${t.remote.bob.href}#main-key`);
    const twoHoursAgo = Temporal.Now.instant().subtract({ hours: 2 });
    const stale = await signRequest(
      new Request(inbox, { method: "POST", headers, body }),
      t.remote.keys.privateKey,
      keyId,
      { currentTime: twoHoursAgo as unknown as SignRequestOptions["currentTime"] },
    );
    expect((await fetch(stale)).status).toBe(401);

    // bob's key, on an activity that says Ada sent it.
    const posing = body.replace(`"actor":"${t.remote.bob.href}"`, `"actor":"${actorOfAda().href}"`);
    expect(posing).not.toBe(body);
    const notHisToSign = await signRequest(
      new Request(inbox, { method: "POST", headers, body: posing }),
      t.remote.keys.privateKey,
      keyId,
    );
    expect((await fetch(notHisToSign)).status).toBe(401);
  });

  it("deletes the member's actor when they turn federation off", { timeout: 30_000 }, async () => {
    const before = arrived(Delete).length;
    const off = await call("PUT", "/api/user/profile", profileBody(ada, { federated: false }));
    expect(off.statusCode).toBe(200);
    await expect.poll(() => arrived(Delete).length, { timeout: 20_000 }).toBe(before + 1);
    const deletion = arrived(Delete).at(-1);
    expect(deletion?.objectId?.href).toBe(actorOfAda().href);
    // Its address and handle are gone, not unknown: servers that ask drop the actor.
    expect((await fetchActivityPub(actorOfAda().href)).status).toBe(410);
    expect((await webFinger("ada-fedi")).status).toBe(410);
    // A member who never federated is unknown.
    const never = await buildUser(t.database, { username: "never-fedi" });
    expect((await fetchActivityPub(`${t.prism.origin}/ap/actors/${never.id}`)).status).toBe(404);
    expect((await webFinger("never-fedi")).status).toBe(404);
  });

  it("deletes the member's actor when they delete their account", { timeout: 30_000 }, async () => {
    const lin = await buildUser(t.database, { username: "lin-fedi", federated: true });
    const linActor = new URL(`${t.prism.origin}/ap/actors/${lin.id}`);
    const accepted = arrived(Accept).length;
    await bobFollows(10, linActor);
    await expect.poll(() => arrived(Accept).length, { timeout: 20_000 }).toBe(accepted + 1);

    const before = arrived(Delete).length;
    const gone = await t.prism.app.inject({
      method: "DELETE",
      url: "/api/user/account",
      headers: {
        ...(await signIn(t.database, lin)),
        origin: t.prism.origin,
        "content-type": "application/json",
      },
      payload: { currentPassword: TEST_PASSWORD },
    });
    expect(gone.statusCode).toBe(204);
    await expect.poll(() => arrived(Delete).length, { timeout: 20_000 }).toBe(before + 1);
    expect(arrived(Delete).at(-1)?.objectId?.href).toBe(linActor.href);
    // Nothing of the actor is kept once its deletion is sent but that it was there: its address
    // and handle answer 410 Gone.
    expect(await t.database.db.select().from(federationActors)).not.toContainEqual(
      expect.objectContaining({ userId: lin.id }),
    );
    const actor = await fetchActivityPub(linActor.href);
    expect(actor.status).toBe(410);
    expect(await actor.json()).toMatchObject({ id: linActor.href, type: "Tombstone" });
    expect((await webFinger("lin-fedi")).status).toBe(410);
  });

  it("serves the actor again, not gone, when its member turns federation back on", {
    timeout: 30_000,
  }, async () => {
    const on = await call("PUT", "/api/user/profile", profileBody(ada, { federated: true }));
    expect(on.statusCode).toBe(200);
    const actor = await fetchActivityPub(actorOfAda().href);
    expect(actor.status).toBe(200);
    expect(await actor.json()).toMatchObject({ id: actorOfAda().href, type: "Person" });
    expect((await webFinger("ada-fedi")).status).toBe(200);
  });
});
