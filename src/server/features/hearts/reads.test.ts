// Heart status as read from memory, without HTTP: each participant's own heart, and the count,
// kept until an event moves what they were read from.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { heartPrism } from "../../commands/hearts.ts";
import { deletePrismAsAdmin } from "../../commands/prisms.ts";
import { prisms } from "../../db/schema.ts";
import type { ParticipantAsking } from "../../plugins/visitor.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestLive } from "../../test/helpers.ts";
import { heartReads } from "./reads.ts";

const t = setupTestLive();

const visitor = (name: string): ParticipantAsking => ({
  participant: { visitorHash: `hash-of-${name}` },
  cookies: `|${name}`,
});

describe("heart status, read from memory", () => {
  it("answers each participant their own heart with the prism's count, each under a tag of their own", async () => {
    const reads = heartReads(t);
    const owner = await buildUser(t.database);
    const member = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const [ada, bea] = [visitor("ada"), visitor("bea")];
    const asMember: ParticipantAsking = { participant: { user: member }, cookies: "session|" };
    await heartPrism({ db: t.db, bus: t.bus, actor: ada.participant }, prism.id);
    await heartPrism({ db: t.db, bus: t.bus, actor: asMember.participant }, prism.id);

    const forAda = await reads.status(prism.id, () => ada);
    const forBea = await reads.status(prism.id, () => bea);
    expect(forAda.value).toEqual({ hearted: true, heartsCount: 2 });
    expect(forBea.value).toEqual({ hearted: false, heartsCount: 2 });
    expect((await reads.status(prism.id, () => asMember)).value).toEqual({
      hearted: true,
      heartsCount: 2,
    });
    expect(forAda.etag?.()).toBeTruthy();
    expect(forBea.etag?.()).not.toBe(forAda.etag?.());
    // Once read, memory tells each one's tag before anything is read.
    expect(reads.statusEtag(prism.id, ada.cookies)).toBe(forAda.etag?.());
    expect(reads.statusEtag(prism.id, bea.cookies)).toBe(forBea.etag?.());
  });

  it("keeps the status until a heart moves it, and forgets it when an admin deletes the prism", async () => {
    const reads = heartReads(t);
    const owner = await buildUser(t.database);
    const admin = await buildUser(t.database, { isAdmin: true });
    const prism = await buildPrism(t.database, { userId: owner.id });
    const [ada, bea] = [visitor("ada"), visitor("bea")];
    const before = await reads.status(prism.id, () => ada);
    expect(before.value).toEqual({ hearted: false, heartsCount: 0 });

    // No event, no new version: the count comes from memory, not from the table.
    await t.db.update(prisms).set({ heartsCount: 7 }).where(eq(prisms.id, prism.id));
    expect((await reads.status(prism.id, () => ada)).value).toEqual(before.value);
    expect(reads.statusEtag(prism.id, ada.cookies)).toBe(before.etag?.());

    // Another visitor's heart announces itself: everyone's status is read afresh.
    await heartPrism({ db: t.db, bus: t.bus, actor: bea.participant }, prism.id);
    expect(reads.statusEtag(prism.id, ada.cookies)).toBeUndefined();
    const after = await reads.status(prism.id, () => ada);
    expect(after.value).toEqual({ hearted: false, heartsCount: 8 });
    expect(after.etag?.()).not.toBe(before.etag?.());
    expect((await reads.status(prism.id, () => bea)).value).toEqual({
      hearted: true,
      heartsCount: 8,
    });

    await deletePrismAsAdmin({ db: t.db, bus: t.bus, actor: admin }, prism.id);
    expect(reads.statusEtag(prism.id, ada.cookies)).toBeUndefined();
    await expect(reads.status(prism.id, () => ada)).rejects.toMatchObject({ statusCode: 404 });
  });

  it("tags a status as its count was read, so that a heart meanwhile leaves the tag behind", async () => {
    const reads = heartReads(t);
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const ada = visitor("ada");
    // Someone's heart is heard after the count is read, while Ada's own heart is being read.
    const raced = await reads.status(prism.id, () => {
      t.bus.announced({
        type: "heart.changed",
        prismId: prism.id,
        heartsCount: 1,
        username: owner.username,
      });
      return ada;
    });
    const fresh = await reads.status(prism.id, () => ada);
    expect(raced.etag?.()).toBeTruthy();
    expect(fresh.etag?.()).not.toBe(raced.etag?.());
  });

  it("asks who is asking only once the prism is found", async () => {
    const reads = heartReads(t);
    let asked = false;
    const asker = () => {
      asked = true;
      return visitor("cat");
    };
    await expect(reads.status(987_654, asker)).rejects.toMatchObject({ statusCode: 404 });
    expect(asked).toBe(false);
  });
});
