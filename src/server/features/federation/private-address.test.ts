// As in production, Prism's federation reaches no server on a private, loopback or link-local
// address: a Follow from an actor on this machine cannot have its signature's key fetched, so it
// is refused, and nothing is recorded or sent there.
import { Follow } from "@fedify/fedify/vocab";
import { describe, expect, it } from "vitest";
import { federationFollowers, federationQueue } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { setupFediverse } from "../../test/fediverse.ts";

const t = setupFediverse({ allowPrivateAddress: false });

describe("federation in production", () => {
  it("never fetches from a loopback address", { timeout: 30_000 }, async () => {
    const ada = await buildUser(t.database, { username: "ada-private", federated: true });
    const actor = new URL(`${t.prism.origin}/ap/actors/${ada.id}`);
    const ctx = t.remote.federation.createContext(new URL(t.remote.origin), undefined);
    const follow = new Follow({
      id: new URL(`${t.remote.origin}/follows/private`),
      actor: t.remote.bob,
      object: actor,
    });
    const inboxId = new URL(`${actor.href}/inbox`);
    await expect(
      ctx.sendActivity({ identifier: "bob" }, { id: actor, inboxId }, follow),
    ).rejects.toThrow(/401/);
    expect(await t.database.db.select().from(federationFollowers)).toEqual([]);
    expect(await t.database.db.select().from(federationQueue)).toEqual([]);
    expect(t.remote.received).toEqual([]);
  });
});
