// Another server by its domain, over HTTP: an admin blocks it in Catalyst (audited), and its
// activities are refused 403 and nothing is delivered to it; each domain's activities spend from
// a budget (a limited domain's smaller), past which its inbox requests are answered 429 with
// Retry-After, while a request whose signature fails spends nothing. The budgets here are the
// tests' own (4 and 1 every 10 minutes); the README gives the server's.
import { signRequest } from "@fedify/fedify";
import { Accept, type Article, Create, Follow } from "@fedify/fedify/vocab";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { federatedPrisms, type UserRow } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { setupFediverse } from "../../test/fediverse.ts";
import { signIn } from "../../test/helpers.ts";
import { policyOfHosts } from "./domains.ts";
import { inboxMessages } from "./inbox-guard.ts";

const t = setupFediverse({ settings: { inboxBudget: { open: 4, limited: 1 } } });
let ada: UserRow;
let adaSession: Record<string, string>;
let adminSession: Record<string, string>;
/** The other server's domain, as Prism knows it (its host; every test server is on 127.0.0.1). */
const DOMAIN = "127.0.0.1";

beforeAll(async () => {
  ada = await buildUser(t.database, { username: "ada-domains", federated: true });
  adaSession = await signIn(t.database, ada);
  adminSession = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
});

const call = (
  session: Record<string, string>,
  method: "POST" | "PUT",
  url: string,
  payload: object,
) =>
  t.prism.app.inject({
    method,
    url,
    headers: { ...session, origin: t.prism.origin, "content-type": "application/json" },
    payload,
  });

const setPolicy = (domain: string, policy: string) =>
  call(adminSession, "PUT", `/api/analytics/federation/domains/${domain}`, { policy });

let likes = 0;

/** A `Like` from bob to Prism's shared inbox, signed with his key; `tamper` changes it after. */
async function like(tamper = false): Promise<Response> {
  likes += 1;
  const body = JSON.stringify({
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${t.remote.origin}/likes/${likes}`,
    type: "Like",
    actor: t.remote.bob.href,
    object: `${t.prism.origin}/ap/prisms/999999`,
  });
  const inbox = `${t.prism.origin}/ap/inbox`;
  const headers = { "content-type": "application/activity+json" };
  const signed = await signRequest(
    new Request(inbox, { method: "POST", headers, body }),
    t.remote.keys.privateKey,
    new URL(`${t.remote.bob.href}#main-key`),
  );
  return fetch(inbox, {
    method: "POST",
    headers: signed.headers,
    body: tamper ? body.replace("999999", "999998") : body,
  });
}

const arrived = <T>(type: new (...args: never[]) => T) =>
  t.remote.received.filter((activity): activity is T & typeof activity => activity instanceof type);

/** The titles of the Articles bob was sent in `Create`s. */
const createdTitles = async () =>
  Promise.all(
    arrived(Create).map(async (create) => ((await create.getObject()) as Article).name?.toString()),
  );

describe("a domain an admin blocks", () => {
  it("is refused 403 and sent nothing until it is opened again", { timeout: 60_000 }, async () => {
    const ctx = t.remote.federation.createContext(new URL(t.remote.origin), undefined);
    const actor = new URL(`${t.prism.origin}/ap/actors/${ada.id}`);
    const follow = new Follow({
      id: new URL(`${t.remote.origin}/follows/1`),
      actor: t.remote.bob,
      object: actor,
    });
    await ctx.sendActivity(
      { identifier: "bob" },
      { id: actor, inboxId: new URL(`${actor.href}/inbox`) },
      follow,
    );
    await expect.poll(() => arrived(Accept).length, { timeout: 20_000 }).toBe(1);

    const blocked = await setPolicy(DOMAIN, "blocked");
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toEqual({ domain: DOMAIN, policy: "blocked" });
    const refused = await like();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: inboxMessages.blocked });

    const hidden = await call(adaSession, "POST", "/api/prisms", {
      title: "While blocked",
      content: "<p>Not for them.</p>",
    });
    expect(hidden.statusCode).toBe(201);
    // Opened once the change is planned (recorded as sent), while the domain was blocked.
    const planned = async () =>
      (
        await t.database.db
          .select()
          .from(federatedPrisms)
          .where(eq(federatedPrisms.prismId, hidden.json().id))
      ).length;
    await expect.poll(planned, { timeout: 20_000 }).toBe(1);
    expect((await setPolicy(DOMAIN, "open")).statusCode).toBe(200);
    const shown = await call(adaSession, "POST", "/api/prisms", {
      title: "Once open",
      content: "<p>For everyone.</p>",
    });
    expect(shown.statusCode).toBe(201);
    // Changes are sent in order: the second arriving means the first was never sent.
    await expect.poll(createdTitles, { timeout: 20_000 }).toContain("Once open");
    expect(await createdTitles()).toEqual(["Once open"]);

    const audit = await t.prism.app.inject({
      method: "GET",
      url: "/api/analytics/audit",
      headers: adminSession,
    });
    const entries = audit
      .json()
      .items.filter((entry: { action: string }) => entry.action === "domain.policy");
    expect(
      entries.map((entry: { target: string; before: object; after: object }) => [
        entry.target,
        entry.before,
        entry.after,
      ]),
    ).toEqual([
      [DOMAIN, { policy: "blocked" }, { policy: "open" }],
      [DOMAIN, { policy: "open" }, { policy: "blocked" }],
    ]);
  });

  it("covers its subdomains, and no other domain that ends alike", async () => {
    expect((await setPolicy("Example.Social", "blocked")).json()).toEqual({
      domain: "example.social",
      policy: "blocked",
    });
    const { db } = t.database;
    expect(await policyOfHosts(db, ["eu.example.social"])).toBe("blocked");
    expect(await policyOfHosts(db, ["example.social"])).toBe("blocked");
    expect(await policyOfHosts(db, ["notexample.social"])).toBe("open");
    expect(await policyOfHosts(db, ["example.social.evil.test"])).toBe("open");
    expect(
      (await setPolicy(encodeURIComponent("https://example.social"), "blocked")).statusCode,
    ).toBe(400);
    expect((await setPolicy("example.social", "nuked")).statusCode).toBe(400);
  });
});

describe("a domain's inbox budget", () => {
  it("answers 429 with Retry-After once spent, and a request whose signature fails spends nothing", {
    timeout: 60_000,
  }, async () => {
    // bob's Follow spent one of the domain's 4; three tampered requests spend none.
    for (let n = 0; n < 3; n += 1) expect((await like(true)).status).toBe(401);
    const statuses: number[] = [];
    for (let n = 0; n < 4; n += 1) statuses.push((await like()).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    const over = await like();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await over.json()).toEqual({ message: inboxMessages.limited });
  });

  it("is smaller for a domain an admin limited", { timeout: 60_000 }, async () => {
    expect((await setPolicy(DOMAIN, "limited")).statusCode).toBe(200);
    expect((await like()).status).toBe(202);
    const over = await like();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
