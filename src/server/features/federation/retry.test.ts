// A delivery to a server that is down is tried again later, with a longer wait each time, from
// Prism's own queue: bob's server answers the first two tries of the Accept 503 (each try knocks
// twice, with both kinds of HTTP signature, as Fedify does when refused), and the third brings it.
import { Accept, Follow } from "@fedify/fedify/vocab";
import { describe, expect, it } from "vitest";
import { federationQueue } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { setupFediverse } from "../../test/fediverse.ts";
import { signIn } from "../../test/helpers.ts";

const t = setupFediverse({ failures: 4 });

describe("a delivery to a server that is down", () => {
  it("is tried again, waiting longer each time, until it arrives", {
    timeout: 30_000,
  }, async () => {
    const ada = await buildUser(t.database, { username: "ada-retry", federated: true });
    const actor = new URL(`${t.prism.origin}/ap/actors/${ada.id}`);
    const ctx = t.remote.federation.createContext(new URL(t.remote.origin), undefined);
    const follow = new Follow({
      id: new URL(`${t.remote.origin}/follows/retry`),
      actor: t.remote.bob,
      object: actor,
    });
    await ctx.sendActivity(
      { identifier: "bob" },
      { id: actor, inboxId: new URL(`${actor.href}/inbox`) },
      follow,
    );
    const accepted = () => t.remote.received.filter((activity) => activity instanceof Accept);
    await expect.poll(() => accepted().length, { timeout: 20_000 }).toBe(1);
    const tries = t.remote.deliveries;
    expect(tries.map((tried) => tried.path)).toEqual(Array(5).fill("/users/bob/inbox"));
    // The tries begin with the 1st, 3rd and 5th request. Each waited: the first retry at least
    // the 200 ms the tests set, the next at least twice that (Fedify adds jitter, never less).
    const at = (n: number) => tries[n]?.at ?? 0;
    expect(at(2) - at(1)).toBeGreaterThanOrEqual(200);
    expect(at(4) - at(3)).toBeGreaterThanOrEqual(400);
    // Catalyst counts each failed try against bob's server, with what it answered.
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    const tab = await t.prism.app.inject({
      method: "GET",
      url: "/api/analytics/federation",
      headers: admin,
    });
    const domain = tab.json().domains.find((row: { domain: string }) => row.domain === "127.0.0.1");
    expect(domain).toMatchObject({ policy: "open", lastFailure: "Answered 503" });
    expect(domain.failures).toBeGreaterThanOrEqual(2);
    // Nothing is left waiting once it arrived.
    await expect
      .poll(async () => (await t.database.db.select().from(federationQueue)).length)
      .toBe(0);
  });
});
