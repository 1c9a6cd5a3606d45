// As in production, Prism's federation reaches no server on a private, loopback or link-local
// address: a Follow from an actor on this machine cannot have its signature's key fetched, so it
// is refused, and nothing is recorded or sent there.
import { Follow } from "@fedify/fedify/vocab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../app.ts";
import { federationFollowers, federationQueue } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { type RemoteServer, servePrism, startRemoteServer } from "../../test/fediverse.ts";
import { setupTestDatabase } from "../../test/helpers.ts";

const t = setupTestDatabase();
let prism: { app: App; origin: string };
let remote: RemoteServer;

beforeAll(async () => {
  prism = await servePrism(t.database, false);
  remote = await startRemoteServer();
});
afterAll(async () => {
  await prism?.app.close();
  await remote?.close();
});

describe("federation in production", () => {
  it("never fetches from a loopback address", { timeout: 30_000 }, async () => {
    const ada = await buildUser(t.database, { username: "ada-private", federated: true });
    const actor = new URL(`${prism.origin}/ap/actors/${ada.id}`);
    const ctx = remote.federation.createContext(new URL(remote.origin), undefined);
    const follow = new Follow({
      id: new URL(`${remote.origin}/follows/private`),
      actor: remote.bob,
      object: actor,
    });
    const inboxId = new URL(`${actor.href}/inbox`);
    await expect(
      ctx.sendActivity({ identifier: "bob" }, { id: actor, inboxId }, follow),
    ).rejects.toThrow(/401/);
    expect(await t.database.db.select().from(federationFollowers)).toEqual([]);
    expect(await t.database.db.select().from(federationQueue)).toEqual([]);
    expect(remote.received).toEqual([]);
  });
});
