// Many replies at once: a crowd of actors on another server sends replies to one prism, each
// signed by its author (HTTP signatures, as Misskey signs); every one is accepted (202), handled from the queue, and
// lands as a pending response from the fediverse, none lost or doubled, the queue left empty.
// (How fast, and what readers of the profile see meanwhile, is the bench's: `BENCH_ONLY=replies`.)
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotations, federationQueue } from "../../db/schema.ts";
import { setupCrowdScene } from "../../test/fediverse.ts";

// The bench sends 500 replies from 50 actors; here fewer, so that the suite stays quick: two
// from each actor, so that a known actor's second reply (its key already fetched) is among them.
const ACTORS = 15;
const REPLIES = 30;

const s = setupCrowdScene(ACTORS, "ada-crowd");

describe("a crowd replying at once", () => {
  it(`lands ${REPLIES} signed replies from ${ACTORS} actors as pending responses`, {
    timeout: 180_000,
  }, async () => {
    const statuses = await s.crowd.reply({
      inbox: new URL(`${s.prism.origin}/ap/actors/${s.ada.id}/inbox`),
      article: new URL(`${s.prism.origin}/ap/prisms/${s.essay.id}`),
      count: REPLIES,
    });
    expect(statuses.filter((status) => status !== 202)).toEqual([]);
    const landed = () =>
      s.database.db
        .select({
          status: annotations.status,
          source: annotations.source,
          actor: annotations.remoteActorId,
          note: annotations.remoteNoteId,
        })
        .from(annotations)
        .where(eq(annotations.prismId, s.essay.id));
    await expect.poll(async () => (await landed()).length, { timeout: 170_000 }).toBe(REPLIES);
    const rows = await landed();
    expect(new Set(rows.map((row) => row.note)).size).toBe(REPLIES);
    expect(new Set(rows.map((row) => row.actor)).size).toBe(ACTORS);
    expect(rows.filter((row) => row.status !== "pending" || row.source !== "fediverse")).toEqual(
      [],
    );
    await expect
      .poll(async () => (await s.database.db.select().from(federationQueue)).length)
      .toBe(0);
  });

  it("fetches no actor again for their next replies: their key and their profile are known", {
    timeout: 180_000,
  }, async () => {
    const fetched = s.crowd.actorFetches();
    const statuses = await s.crowd.reply({
      inbox: new URL(`${s.prism.origin}/ap/actors/${s.ada.id}/inbox`),
      article: new URL(`${s.prism.origin}/ap/prisms/${s.essay.id}`),
      count: ACTORS,
      first: REPLIES,
    });
    expect(statuses.filter((status) => status !== 202)).toEqual([]);
    await expect
      .poll(async () => (await s.database.db.select().from(annotations)).length, {
        timeout: 170_000,
      })
      .toBe(REPLIES + ACTORS);
    expect(s.crowd.actorFetches()).toBe(fetched);
  });
});
