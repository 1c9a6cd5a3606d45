// A member who approves followers themselves, over HTTP with another Fedify server: a Follow waits
// (the actor says so), its follower is sent nothing until the owner accepts it (an Accept goes
// out) or declines it (a Reject); turning approval off accepts every follow still waiting.
import { Accept, Create, Follow, Reject, Update } from "@fedify/fedify/vocab";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Follower } from "../../../contract/federation.ts";
import type { App } from "../../app.ts";
import { federatedPrisms, federationQueue, type UserRow } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { type RemoteServer, servePrism, startRemoteServer } from "../../test/fediverse.ts";
import { profileBody, setupTestDatabase, signIn } from "../../test/helpers.ts";

const t = setupTestDatabase();
let prism: { app: App; origin: string };
let remote: RemoteServer;
let ada: UserRow;
let session: Record<string, string>;

beforeAll(async () => {
  prism = await servePrism(t.database);
  remote = await startRemoteServer();
  ada = await buildUser(t.database, {
    username: "ada-approves",
    federated: true,
    approveFollowers: true,
  });
  session = await signIn(t.database, ada);
});
afterAll(async () => {
  await prism?.app.close();
  await remote?.close();
});

const actorOfAda = () => new URL(`${prism.origin}/ap/actors/${ada.id}`);
const actorOf = (name: "bob" | "eve") => new URL(`${remote.origin}/users/${name}`);

/** `name` follows Ada from the other server: a signed Follow to her inbox. */
async function follows(name: "bob" | "eve", n: number): Promise<Follow> {
  const ctx = remote.federation.createContext(new URL(remote.origin), undefined);
  const follow = new Follow({
    id: new URL(`${remote.origin}/follows/${name}-${n}`),
    actor: actorOf(name),
    object: actorOfAda(),
  });
  const inboxId = new URL(`${actorOfAda().href}/inbox`);
  await ctx.sendActivity({ identifier: name }, { id: actorOfAda(), inboxId }, follow);
  return follow;
}

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  prism.app.inject({
    method,
    url,
    headers: { ...session, origin: prism.origin, "content-type": "application/json" },
    ...(payload ? { payload } : {}),
  });

const followers = async (query = ""): Promise<Follower[]> =>
  (await call("GET", `/api/user/followers${query}`)).json();

const arrived = <T>(type: new (...args: never[]) => T) =>
  remote.received.filter((activity): activity is T & typeof activity => activity instanceof type);

const actorDocument = async () =>
  (
    await prism.app.inject({
      method: "GET",
      url: `/ap/actors/${ada.id}`,
      headers: { accept: "application/activity+json" },
    })
  ).json();

/** Every delivery queued so far has been made (or given up). */
const queueEmpty = async () => (await t.database.db.select().from(federationQueue)).length === 0;

describe("a member who approves followers themselves", () => {
  it("says so on the actor, and keeps a Follow waiting, sending it nothing", {
    timeout: 60_000,
  }, async () => {
    expect((await actorDocument()).manuallyApprovesFollowers).toBe(true);
    await follows("bob", 1);
    await expect
      .poll(() => followers("?status=pending"), { timeout: 20_000 })
      .toMatchObject([
        {
          actor: actorOf("bob").href,
          handle: `@bob@${actorOf("bob").host}`,
          server: actorOf("bob").host,
          pending: true,
        },
      ]);
    expect(await followers("?status=accepted")).toEqual([]);

    // A prism published while bob waits is not sent to him.
    const created = await call("POST", "/api/prisms", {
      title: "While you wait",
      content: "<p>Not for you yet.</p>",
    });
    expect(created.statusCode).toBe(201);
    const waitingPrism = created.json().id as number;
    const sent = () =>
      t.database.db.select().from(federatedPrisms).where(eq(federatedPrisms.prismId, waitingPrism));
    await expect.poll(async () => (await sent()).length, { timeout: 20_000 }).toBe(1);
    await expect.poll(queueEmpty, { timeout: 20_000 }).toBe(true);
    expect(remote.deliveries).toEqual([]);

    const collection = await prism.app.inject({
      method: "GET",
      url: `/ap/actors/${ada.id}/followers`,
      headers: { accept: "application/activity+json" },
    });
    expect(collection.json().totalItems).toBe(0);
  });

  it("accepts a waiting follower: an Accept goes out, and what she writes next reaches him", {
    timeout: 60_000,
  }, async () => {
    const [bob] = await followers();
    expect(bob?.pending).toBe(true);
    const accepted = await call("POST", `/api/user/followers/${bob?.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ id: bob?.id, pending: false });
    await expect.poll(() => arrived(Accept).length, { timeout: 20_000 }).toBe(1);
    expect(arrived(Accept)[0]?.objectId?.href).toBe(`${remote.origin}/follows/bob-1`);

    // Accepting again, or someone else's follower, finds nothing to accept.
    expect((await call("POST", `/api/user/followers/${bob?.id}/accept`)).statusCode).toBe(404);
    const grace = await buildUser(t.database, { username: "grace-approves" });
    const notHers = await prism.app.inject({
      method: "POST",
      url: `/api/user/followers/${bob?.id}/accept`,
      headers: { ...(await signIn(t.database, grace)), origin: prism.origin },
    });
    expect(notHers.statusCode).toBe(404);

    const created = await call("POST", "/api/prisms", {
      title: "Now for you",
      content: "<p>Welcome.</p>",
    });
    expect(created.statusCode).toBe(201);
    await expect.poll(() => arrived(Create).length, { timeout: 20_000 }).toBe(1);
    const article = await arrived(Create)[0]?.getObject();
    expect(article?.id?.href).toBe(`${prism.origin}/ap/prisms/${created.json().id}`);
  });

  it("declines a waiting follower with a Reject, and lists waiting ones first", {
    timeout: 60_000,
  }, async () => {
    await follows("eve", 1);
    await expect.poll(async () => (await followers()).length, { timeout: 20_000 }).toBe(2);
    const [eve, bob] = await followers();
    expect(eve).toMatchObject({ actor: actorOf("eve").href, pending: true });
    expect(bob).toMatchObject({ actor: actorOf("bob").href, pending: false });

    expect((await call("DELETE", `/api/user/followers/${eve?.id}`)).statusCode).toBe(204);
    await expect.poll(() => arrived(Reject).length, { timeout: 20_000 }).toBe(1);
    expect(arrived(Reject)[0]?.objectId?.href).toBe(`${remote.origin}/follows/eve-1`);
    expect((await followers()).map((follower) => follower.actor)).toEqual([actorOf("bob").href]);
  });

  it("accepts every waiting follow when she stops approving them herself", {
    timeout: 60_000,
  }, async () => {
    await follows("eve", 2);
    await expect
      .poll(() => followers("?status=pending"), { timeout: 20_000 })
      .toMatchObject([{ actor: actorOf("eve").href }]);
    const updates = arrived(Update).length;

    const off = await call(
      "PUT",
      "/api/user/profile",
      profileBody(ada, { approveFollowers: false }),
    );
    expect(off.statusCode).toBe(200);
    expect(off.json().approveFollowers).toBe(false);
    await expect
      .poll(() => arrived(Accept).map((accept) => accept.objectId?.href), { timeout: 20_000 })
      .toContain(`${remote.origin}/follows/eve-2`);
    expect(await followers("?status=pending")).toEqual([]);
    expect((await actorDocument()).manuallyApprovesFollowers).toBe(false);
    // Followers' servers are told the actor changed.
    await expect.poll(() => arrived(Update).length, { timeout: 20_000 }).toBeGreaterThan(updates);
  });

  it("accepts a Follow at once when the member does not approve followers", {
    timeout: 30_000,
  }, async () => {
    await follows("bob", 2);
    await expect
      .poll(() => arrived(Accept).map((accept) => accept.objectId?.href), { timeout: 20_000 })
      .toContain(`${remote.origin}/follows/bob-2`);
    expect(await followers("?status=pending")).toEqual([]);
  });

  it("refuses an unknown status", async () => {
    expect((await call("GET", "/api/user/followers?status=blocked")).statusCode).toBe(400);
  });
});
