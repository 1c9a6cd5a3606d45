import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { prisms } from "../db/schema.ts";
import { buildPrism, buildUser } from "../test/builders.ts";
import { testDatabaseUrl, withDatabase } from "../test/databases.ts";
import { jsonHeaders, setupTestApp, signIn } from "../test/helpers.ts";
import { databaseName, spawnInstance } from "../test/instances.ts";

const t = setupTestApp();

const list = (username: string) => t.app.inject({ method: "GET", url: `/api/prisms/${username}` });
const titles = (body: unknown) => (body as { title: string }[]).map((prism) => prism.title);

/** A change written straight into the table, as if its event had been lost on the way. */
const retitleQuietly = (prismId: number, title: string) =>
  t.database.db.update(prisms).set({ title }).where(eq(prisms.id, prismId));

describe("full answers from memory", () => {
  it("answers an unchanged prism list from memory, and the changed one once its event says so", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, title: "Mornings" });
    const first = await list(owner.username);
    expect(titles(first.json())).toEqual(["Mornings"]);

    // No event, no new version: the answer comes from memory, not from the table.
    await retitleQuietly(prism.id, "Changed behind the app's back");
    const again = await list(owner.username);
    expect(again.statusCode).toBe(200);
    expect(titles(again.json())).toEqual(["Mornings"]);
    expect(again.headers.etag).toBe(first.headers.etag);

    // A write through Prism announces itself, and the next answer is read afresh.
    const saved = await t.app.inject({
      method: "PUT",
      url: `/api/prisms/${prism.id}`,
      headers: jsonHeaders(await signIn(t.database, owner)),
      payload: { title: "Evenings", content: prism.content },
    });
    expect(saved.statusCode).toBe(200);
    const changed = await list(owner.username);
    expect(titles(changed.json())).toEqual(["Evenings"]);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it("keeps answers that differ per viewer out of memory", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, heartsCount: 2 });
    const status = () =>
      t.app.inject({
        method: "GET",
        url: `/api/prisms/${prism.id}/heart`,
        headers: { cookie: "vid=visitor-cache-000000001" },
      });
    expect((await status()).json()).toEqual({ hearted: false, heartsCount: 2 });
    await t.database.db.update(prisms).set({ heartsCount: 3 }).where(eq(prisms.id, prism.id));
    expect((await status()).json()).toEqual({ hearted: false, heartsCount: 3 });
  });

  it("never keeps a missing member's answer", async () => {
    expect((await list("not-yet-a-member")).statusCode).toBe(404);
    const member = await buildUser(t.database, { username: "not-yet-a-member" });
    await buildPrism(t.database, { userId: member.id, title: "Hello" });
    expect(titles((await list("not-yet-a-member")).json())).toEqual(["Hello"]);
  });
});

describe("after the event listener lost its connection", () => {
  const postgresUrl = testDatabaseUrl();

  it.runIf(postgresUrl)(
    "another process starts its versions and memory over, so it never serves what it missed",
    { timeout: 60_000 },
    async () => {
      if (!postgresUrl) return;
      const other = await spawnInstance(withDatabase(postgresUrl, await databaseName(t.database)));
      try {
        const owner = await buildUser(t.database);
        const prism = await buildPrism(t.database, { userId: owner.id, title: "Before" });
        const read = async () => {
          const response = await fetch(`${other.origin}/api/prisms/${owner.username}`);
          return { etag: response.headers.get("etag"), titles: titles(await response.json()) };
        };
        const first = await read();
        expect(first.titles).toEqual(["Before"]);

        // The other process's event never arrives: it still answers from memory.
        await retitleQuietly(prism.id, "After");
        expect((await read()).titles).toEqual(["Before"]);

        // Its listening connection is cut; when it listens again it may have missed anything.
        await t.database.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid()
                and query ilike 'listen%'`,
        );
        let now = await read();
        for (let attempt = 0; attempt < 200 && now.titles[0] !== "After"; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          now = await read();
        }
        expect(now.titles).toEqual(["After"]);
        expect(now.etag).not.toBe(first.etag);
      } finally {
        await other.stop();
      }
    },
  );
});
