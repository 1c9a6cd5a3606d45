// Heart status as read from memory, without HTTP: each participant's own heart, and the count,
// kept until an event moves what they were read from.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Participant } from "../../actors.ts";
import { heartPrism } from "../../commands/hearts.ts";
import { deletePrismAsAdmin } from "../../commands/prisms.ts";
import { prisms } from "../../db/schema.ts";
import type { Asker } from "../../plugins/visitor.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestLive } from "../../test/helpers.ts";
import { heartReads } from "./reads.ts";

const t = setupTestLive();

/** An asker that heart status asks only as a participant, and their cookies. */
const asking = (participant: Participant, cookies: string): Asker => ({
  participant,
  cookies,
  newBrowser: false,
  viewer: { user: "user" in participant ? participant.user : null, visitorHash: null },
});
const visitor = (name: string) => asking({ visitorHash: `hash-of-${name}` }, `|${name}`);

describe("heart status, read from memory", () => {
  it("answers each participant their own heart with the prism's count, each under a tag of their own", async () => {
    const reads = heartReads(t);
    const owner = await buildUser(t.database);
    const member = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const [ada, bea] = [visitor("ada"), visitor("bea")];
    const asMember = asking({ user: member }, "session|");
    await heartPrism({ db: t.db, bus: t.bus, actor: ada.participant }, prism.id);
    await heartPrism({ db: t.db, bus: t.bus, actor: asMember.participant }, prism.id);

    const forAda = await reads.status.read({ prismId: prism.id }, ada);
    const forBea = await reads.status.read({ prismId: prism.id }, bea);
    expect(forAda.value).toEqual({ hearted: true, heartsCount: 2 });
    expect(forBea.value).toEqual({ hearted: false, heartsCount: 2 });
    expect((await reads.status.read({ prismId: prism.id }, asMember)).value).toEqual({
      hearted: true,
      heartsCount: 2,
    });
    expect(forAda.etag?.()).toBeTruthy();
    expect(forBea.etag?.()).not.toBe(forAda.etag?.());
    // Once read, memory tells each one's tag before anything is read.
    expect(reads.status.etag({ prismId: prism.id }, ada)).toBe(forAda.etag?.());
    expect(reads.status.etag({ prismId: prism.id }, bea)).toBe(forBea.etag?.());
  });

  it("keeps the status until a heart moves it, and forgets it when an admin deletes the prism", async () => {
    const reads = heartReads(t);
    const owner = await buildUser(t.database);
    const admin = await buildUser(t.database, { isAdmin: true });
    const prism = await buildPrism(t.database, { userId: owner.id });
    const [ada, bea] = [visitor("ada"), visitor("bea")];
    const before = await reads.status.read({ prismId: prism.id }, ada);
    expect(before.value).toEqual({ hearted: false, heartsCount: 0 });

    // No event, no new version: the count comes from memory, not from the table.
    await t.db.update(prisms).set({ heartsCount: 7 }).where(eq(prisms.id, prism.id));
    expect((await reads.status.read({ prismId: prism.id }, ada)).value).toEqual(before.value);
    expect(reads.status.etag({ prismId: prism.id }, ada)).toBe(before.etag?.());

    // Another visitor's heart announces itself: everyone's status is read afresh.
    await heartPrism({ db: t.db, bus: t.bus, actor: bea.participant }, prism.id);
    expect(reads.status.etag({ prismId: prism.id }, ada)).toBeUndefined();
    const after = await reads.status.read({ prismId: prism.id }, ada);
    expect(after.value).toEqual({ hearted: false, heartsCount: 8 });
    expect(after.etag?.()).not.toBe(before.etag?.());
    expect((await reads.status.read({ prismId: prism.id }, bea)).value).toEqual({
      hearted: true,
      heartsCount: 8,
    });

    await deletePrismAsAdmin({ db: t.db, bus: t.bus, actor: admin }, prism.id);
    expect(reads.status.etag({ prismId: prism.id }, ada)).toBeUndefined();
    await expect(reads.status.read({ prismId: prism.id }, ada)).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("tags a status as its count was read, so that a heart meanwhile leaves the tag behind", async () => {
    const reads = heartReads(t);
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const ada = visitor("ada");
    // Someone's heart is heard after the count is read, while Ada's own heart is being read.
    const raced = await reads.status.read(
      { prismId: prism.id },
      {
        ...ada,
        get participant() {
          t.bus.announced(t.bus.statement(), {
            type: "heart.changed",
            prismId: prism.id,
            heartsCount: 1,
            username: owner.username,
          });
          return ada.participant;
        },
      },
    );
    const fresh = await reads.status.read({ prismId: prism.id }, ada);
    expect(raced.etag?.()).toBeTruthy();
    expect(fresh.etag?.()).not.toBe(raced.etag?.());
  });

  it("answers a browser new to Prism without looking for its heart, and still gives it its id", async () => {
    const reads = heartReads(t);
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const ada = visitor("ada");
    await heartPrism({ db: t.db, bus: t.bus, actor: ada.participant }, prism.id);
    // The count is in memory once anyone has read it.
    await reads.status.read({ prismId: prism.id }, ada);
    let given = false;
    const newcomer = {
      ...visitor("newcomer"),
      newBrowser: true,
      get participant(): Participant {
        given = true;
        return { visitorHash: "hash-of-newcomer" };
      },
    };
    const statements: string[] = [];
    const stop = t.database.watchQueries((query) => statements.push(query));
    try {
      const status = await reads.status.read({ prismId: prism.id }, newcomer);
      expect(status.value).toEqual({ hearted: false, heartsCount: 1 });
    } finally {
      stop();
    }
    expect(statements).toEqual([]);
    expect(given).toBe(true);
  });

  it("asks who is asking only once the prism is found", async () => {
    const reads = heartReads(t);
    let asked = false;
    const cat = visitor("cat");
    const asker = {
      ...cat,
      get participant() {
        asked = true;
        return cat.participant;
      },
    };
    await expect(reads.status.read({ prismId: 987_654 }, asker)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(asked).toBe(false);
  });
});
