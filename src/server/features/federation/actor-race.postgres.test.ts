// A member's actor asked for many times at once, before it was ever made: one actor row, one key
// pair, which every answer shows, whether the requests come over HTTP or straight to the service;
// and over HTTP, one key pair made and written (the others are not made only to be thrown away).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { federationActors } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { setupTestApp } from "../../test/helpers.ts";
import { actorOf } from "./service.ts";

const t = setupTestApp();
const AT_ONCE = 10;

const actorRows = (userId: number) =>
  t.database.db.select().from(federationActors).where(eq(federationActors.userId, userId));

describe("a member's actor asked for at once", () => {
  it("is made once when its first requests come together", async () => {
    const ada = await buildUser(t.database, { username: "ada-raced", federated: true });
    let inserts = 0;
    const stop = t.database.watchQueries((query) => {
      if (query.startsWith('insert into "federation_actors"')) inserts += 1;
    });
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, () =>
        t.app.inject({
          method: "GET",
          url: `/ap/actors/${ada.id}`,
          headers: { accept: "application/activity+json" },
        }),
      ),
    ).finally(stop);
    expect(inserts).toBe(1);
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(AT_ONCE).fill(200));
    const keys = new Set(answers.map((answer) => answer.json().publicKey.publicKeyPem));
    expect(keys.size).toBe(1);
    expect(await actorRows(ada.id)).toHaveLength(1);
  });

  // Each call makes a key pair of its own before one of them is kept: seconds on a busy machine.
  it("is made once when the service is called for it at once", { timeout: 90_000 }, async () => {
    const lin = await buildUser(t.database, { username: "lin-raced", federated: true });
    const actors = await Promise.all(
      Array.from({ length: AT_ONCE }, () => actorOf(t.database.db, lin)),
    );
    expect(new Set(actors.map((actor) => actor.id)).size).toBe(1);
    expect(new Set(actors.map((actor) => JSON.stringify(actor.publicKey))).size).toBe(1);
    expect(await actorRows(lin.id)).toHaveLength(1);
  });
});
