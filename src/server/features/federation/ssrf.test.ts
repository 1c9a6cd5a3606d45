// Addresses another server names that Prism never fetches. Every request this process's `fetch`
// makes (Fedify's) is recorded by a dispatcher wrapped around the global one, and traps listen on
// 127.0.0.3 and ::1, counting what reaches them. As in production, a signature whose keyId is on
// 127.0.0.0/8, 10.0.0.0/8 or ::1 is answered 401 and its key never asked for. A reply's inReplyTo
// on any of them is never fetched at all (Prism reads the prism it names from the address). And
// with the guard main.ts puts on the process's `fetch`, a keyId on a server Prism may reach that
// redirects to a loopback address is answered 401 and the redirect never followed to it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Create, Note } from "@fedify/fedify/vocab";
import { genRsaKeyPair } from "@misskey-dev/node-http-message-signatures";
import { eq } from "drizzle-orm";
import { getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../app.ts";
import { annotations, federationFollowers, type UserRow } from "../../db/schema.ts";
import { guardGlobalFetch } from "../../security/guarded-dispatcher.ts";
import { isPrivateAddress } from "../../security/outgoing-fetch.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { type RemoteServer, servePrism, startRemoteServer } from "../../test/fediverse.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { postSigned } from "../../test/signed-request.ts";

const t = setupTestDatabase();
const original = getGlobalDispatcher();
/** The origin of every request this process's `fetch` made. */
const dispatched: string[] = [];
/** How many requests reached each trap, by its origin. */
const hits = new Map<string, number>();
const servers: Server[] = [];
let loopbackTrap: string;
let ipv6Trap: string;
const PRIVATE = "http://10.0.0.7";
/** The key every signed Follow here is signed with: whatever it is, its keyId says elsewhere. */
let signingKey: ReturnType<typeof genRsaKeyPair> | undefined;

const listen = async (host: string, handle: Parameters<typeof createServer>[1]) => {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
};

/** A server that counts what reaches it and answers nothing useful. */
const trap = async (host: string) => {
  const origin = await listen(host, (request, response) => {
    hits.set(origin, (hits.get(origin) ?? 0) + 1);
    request.resume();
    response.writeHead(404).end();
  });
  return origin;
};

/** Records the origin of every request the global dispatcher is given, then dispatches it. */
function recording() {
  setGlobalDispatcher(
    getGlobalDispatcher().compose((dispatch) => (options, handler) => {
      dispatched.push(String(options.origin));
      return dispatch(options, handler);
    }),
  );
}

const reached = (origin: string) => ({
  hits: hits.get(origin) ?? 0,
  fetched: dispatched.filter((each) => each === origin).length,
});

beforeAll(async () => {
  loopbackTrap = await trap("127.0.0.3");
  ipv6Trap = await trap("::1");
});
afterAll(() => {
  setGlobalDispatcher(original);
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/** A Follow of `member`, signed (Misskey's signer) with a key said to be at `keyId`. */
async function signedFollow(origin: string, member: UserRow, keyId: string) {
  const inbox = new URL(`${origin}/ap/actors/${member.id}/inbox`);
  const actor = keyId.replace(/#.*$/, "");
  const body = JSON.stringify({
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${actor}/follows/1`,
    type: "Follow",
    actor,
    object: `${origin}/ap/actors/${member.id}`,
  });
  signingKey ??= genRsaKeyPair(2048);
  const { privateKey } = await signingKey;
  return postSigned(inbox, body, { keyId, privateKeyPem: privateKey });
}

describe("as in production, a keyId on a private address", () => {
  let prism: { app: App; origin: string };
  let ada: UserRow;

  beforeAll(async () => {
    prism = await servePrism(t.database, false);
    ada = await buildUser(t.database, { username: "ada-ssrf", federated: true });
    recording();
  });
  afterAll(async () => {
    setGlobalDispatcher(original);
    await prism?.app.close();
  });

  it("is answered 401, its key never fetched, on 127.0.0.0/8, 10.0.0.0/8 and ::1", {
    timeout: 30_000,
  }, async () => {
    for (const origin of [loopbackTrap, PRIVATE, ipv6Trap]) {
      const answer = await signedFollow(prism.origin, ada, `${origin}/users/mallory#main-key`);
      expect(answer.status, `${origin}: ${await answer.clone().text()}`).toBe(401);
      expect(reached(origin), origin).toEqual({ hits: 0, fetched: 0 });
    }
    expect(await t.database.db.select().from(federationFollowers)).toEqual([]);
  });
});

describe("with the process's fetch guarded as main.ts guards it", () => {
  let prism: { app: App; origin: string };
  let remote: RemoteServer;
  let ada: UserRow;
  let redirecting: string;

  beforeAll(async () => {
    // Prism may reach this machine's 127.0.0.1 (the tests' stand-in for other servers), nothing
    // else private: Fedify's own check is off, so that only the guard answers.
    prism = await servePrism(t.database);
    remote = await startRemoteServer();
    ada = await buildUser(t.database, { username: "ada-ssrf-guarded", federated: true });
    redirecting = await listen("127.0.0.1", (request, response) => {
      request.resume();
      response.writeHead(302, { location: `${loopbackTrap}${request.url}` }).end();
    });
    guardGlobalFetch((address) => address !== "127.0.0.1" && isPrivateAddress(address));
    recording();
  });
  afterAll(async () => {
    setGlobalDispatcher(original);
    await prism?.app.close();
    await remote?.close();
  });

  it("never follows a keyId's redirect to a loopback address", { timeout: 30_000 }, async () => {
    const answer = await signedFollow(prism.origin, ada, `${redirecting}/users/mallory#main-key`);
    expect(answer.status).toBe(401);
    // The redirect was asked for, and its target refused as it was connected to.
    expect(reached(redirecting).fetched).toBeGreaterThan(0);
    expect(reached(loopbackTrap).fetched).toBeGreaterThan(0);
    expect(reached(loopbackTrap).hits).toBe(0);
  });

  it("never fetches a reply's inReplyTo on 127.0.0.0/8, 10.0.0.0/8 or ::1", {
    timeout: 40_000,
  }, async () => {
    const essay = await buildPrism(t.database, { userId: ada.id, title: "How I work" });
    const ctx = remote.federation.createContext(new URL(remote.origin), undefined);
    const actor = new URL(`${prism.origin}/ap/actors/${ada.id}`);
    const inboxId = new URL(`${actor.href}/inbox`);
    const reply = (n: number, target: string) =>
      ctx.sendActivity(
        { identifier: "bob" },
        { id: actor, inboxId },
        new Create({
          id: new URL(`${remote.origin}/notes/${n}/create`),
          actor: remote.bob,
          object: new Note({
            id: new URL(`${remote.origin}/notes/${n}`),
            attribution: remote.bob,
            replyTarget: new URL(target),
            content: `<p>Reply ${n}.</p>`,
          }),
        }),
      );
    const targets = [loopbackTrap, PRIVATE, ipv6Trap];
    const before = targets.map(reached);
    for (const [n, origin] of targets.entries()) await reply(n, `${origin}/notes/${n}`);
    // A reply to the prism, sent after them, arrives: they had been handled before it.
    await reply(9, `${prism.origin}/ap/prisms/${essay.id}`);
    const arrived = () =>
      t.database.db.select().from(annotations).where(eq(annotations.prismId, essay.id));
    await expect.poll(async () => (await arrived()).length, { timeout: 30_000 }).toBe(1);
    expect(targets.map(reached)).toEqual(before);
    expect(before.map((each) => each.hits)).toEqual([0, 0, 0]);
    expect(await t.database.db.select().from(annotations)).toHaveLength(1);
  });
});

describe("the recorder", () => {
  it("sees what this process fetches", async () => {
    recording();
    try {
      await fetch(`${loopbackTrap}/seen`);
      expect(reached(loopbackTrap).fetched).toBeGreaterThan(0);
    } finally {
      setGlobalDispatcher(original);
    }
  });
});
