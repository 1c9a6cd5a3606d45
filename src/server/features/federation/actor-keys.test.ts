// Members' key pairs imported once per process: the same actor's keys answer from memory, an
// actor whose keys changed (or a row made again) is imported afresh; and the bounded memory they
// live in forgets the least recently used first, and anything past its time.
import { exportJwk, generateCryptoKeyPair } from "@fedify/fedify";
import { describe, expect, it } from "vitest";
import { ActorKeys } from "./actor-keys.ts";
import type { ActorRow } from "./service.ts";

async function actorRowOf(id: number): Promise<ActorRow> {
  const pair = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  return {
    id,
    userId: id,
    username: `member-${id}`,
    publicKey: await exportJwk(pair.publicKey),
    privateKey: await exportJwk(pair.privateKey),
    profileDigest: null,
    createdAt: new Date(),
  };
}

describe("an actor's key pair", () => {
  it("is imported once, and again when the actor's keys are others", async () => {
    const keys = new ActorKeys();
    const actor = await actorRowOf(1);
    const first = await keys.pairOf(actor);
    expect(first.privateKey.type).toBe("private");
    expect(first.publicKey.type).toBe("public");
    expect(await keys.pairOf({ ...actor })).toBe(first);

    const replaced = { ...(await actorRowOf(1)), id: actor.id };
    const again = await keys.pairOf(replaced);
    expect(again).not.toBe(first);
    const exported = await exportJwk(again.publicKey);
    expect(exported.n).toBe(replaced.publicKey.n);
  });
});
