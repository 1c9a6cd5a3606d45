import { and, eq } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { notifications, prismHearts, prisms } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { testDatabaseUrl, withDatabase } from "../../test/databases.ts";
import { send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";
import { databaseName } from "../../test/instances.ts";

const t = setupTestApp();

const vid = (n: number | string) => ({
  cookie: visitorCookie(`visitor-number-${String(n).padStart(8, "0")}`),
});

let callers = 0;
/** A heart from an address of its own, as from many people (hearts are limited per address). */
const hearted = (prismId: number | string, headers: Record<string, string>) => {
  callers += 1;
  const remoteAddress = `10.0.${(callers >> 8) & 255}.${callers & 255}`;
  return send(t.app, "POST", `/api/prisms/${prismId}/heart`, { headers, remoteAddress });
};

const status = (prismId: number | string, headers: Record<string, string> = {}) =>
  send(t.app, "GET", `/api/prisms/${prismId}/heart`, { headers });

async function ownPrism() {
  const owner = await buildUser(t.database);
  return { owner, prism: await buildPrism(t.database, { userId: owner.id }) };
}

describe("hearts", () => {
  it("gives an anonymous visitor a vid cookie and toggles their heart", async () => {
    const { prism } = await ownPrism();
    const first = await status(prism.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ hearted: false, heartsCount: 0 });
    const cookie = first.cookies.find((c) => c.name === "vid");
    expect(cookie?.httpOnly).toBe(true);
    const headers = { cookie: `vid=${cookie?.value}` };

    expect((await hearted(prism.id, headers)).json()).toEqual({ hearted: true, heartsCount: 1 });
    const after = await status(prism.id, headers);
    expect(after.json()).toEqual({ hearted: true, heartsCount: 1 });
    const stranger = await status(prism.id, vid("x"));
    expect(stranger.json()).toEqual({ hearted: false, heartsCount: 1 });
    expect((await hearted(prism.id, headers)).json()).toEqual({ hearted: false, heartsCount: 0 });

    const [row] = await t.database.db
      .select()
      .from(prismHearts)
      .where(eq(prismHearts.prismId, prism.id));
    expect(row).toBeUndefined();
  });

  it("keys a signed-in member's heart by user id, and never stores the raw vid", async () => {
    const { prism } = await ownPrism();
    const member = await buildUser(t.database);
    const headers = await signIn(t.database, member);
    expect((await hearted(prism.id, headers)).json()).toEqual({ hearted: true, heartsCount: 1 });
    await hearted(prism.id, vid(7));
    const rows = await t.database.db
      .select()
      .from(prismHearts)
      .where(eq(prismHearts.prismId, prism.id));
    expect(rows.find((r) => r.userId === member.id)?.visitorHash).toBeNull();
    const anonymous = rows.find((r) => r.userId === null);
    expect(anonymous?.visitorHash).toMatch(/^[0-9a-f]{64}$/);
    expect(anonymous?.visitorHash).not.toContain("visitor-number");
  });

  it("reports the visitor's own heart, whatever the ids of other hearts and prisms", async () => {
    const owner = await buildUser(t.database);
    const first = await buildPrism(t.database, { userId: owner.id });
    const second = await buildPrism(t.database, { userId: owner.id, index: 1 });
    for (let i = 0; i < 5; i++) await hearted(first.id, vid(`warm-up-${i}`));
    await hearted(second.id, vid("mine"));
    const mine = await status(second.id, vid("mine"));
    expect(mine.json()).toEqual({ hearted: true, heartsCount: 1 });
    const theirs = await status(first.id, vid("mine"));
    expect(theirs.json()).toEqual({ hearted: false, heartsCount: 5 });
  });

  it("answers 404 for a missing prism and 400 for a malformed id", async () => {
    expect((await status(987654)).statusCode).toBe(404);
    expect((await hearted(987654, vid(1))).statusCode).toBe(404);
    expect((await status("1abc")).statusCode).toBe(400);
  });

  it("keeps an exact count under 50 concurrent toggles by different visitors", async () => {
    const { prism } = await ownPrism();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => hearted(prism.id, vid(i))),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const [row] = await t.database.db.select().from(prisms).where(eq(prisms.id, prism.id));
    expect(row?.heartsCount).toBe(50);
    // Half of them take their heart back, concurrently again.
    await Promise.all(Array.from({ length: 25 }, (_, i) => hearted(prism.id, vid(i * 2))));
    const [after] = await t.database.db.select().from(prisms).where(eq(prisms.id, prism.id));
    const rows = await t.database.db
      .select()
      .from(prismHearts)
      .where(eq(prismHearts.prismId, prism.id));
    expect(after?.heartsCount).toBe(25);
    expect(rows).toHaveLength(25);
  });

  it("notifies the owner once per actor, and not for their own heart", async () => {
    const { owner, prism } = await ownPrism();
    const fan = await buildUser(t.database, { displayName: "A Fan" });
    const fanHeaders = await signIn(t.database, fan);
    await hearted(prism.id, fanHeaders);
    await hearted(prism.id, fanHeaders);
    await hearted(prism.id, fanHeaders);
    await hearted(prism.id, vid("anon"));
    await hearted(prism.id, await signIn(t.database, owner));
    const rows = await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.prismId, prism.id), eq(notifications.type, "heart")));
    expect(rows.map((r) => r.actorName).sort()).toEqual(["A Fan", null]);
    expect(rows.every((r) => r.userId === owner.id)).toBe(true);
    // One line, unread: its head, the newest heart, counts both.
    expect(rows.filter((r) => r.lineHead).map((r) => [r.actorName, r.actorCount, r.read])).toEqual([
      [null, 2, false],
    ]);
  });

  it("answers an unchanged heart poll with 304, per viewer, until the count changes", async () => {
    const { prism } = await ownPrism();
    const first = await status(prism.id, vid(1));
    const etag = String(first.headers.etag);
    const same = await status(prism.id, { ...vid(1), "if-none-match": etag });
    expect(same.statusCode).toBe(304);
    const otherViewer = await status(prism.id, { ...vid(2), "if-none-match": etag });
    expect(otherViewer.statusCode).toBe(200);
    await hearted(prism.id, vid(3));
    const changed = await status(prism.id, { ...vid(1), "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ hearted: false, heartsCount: 1 });
  });
});

describe("one browser's heart toggled twice at once", () => {
  const postgresUrl = testDatabaseUrl();

  // Both toggles find the heart there (their insert conflicts), then both go to take it away:
  // a lock held on the heart's row keeps them waiting there until both are in line.
  it.runIf(postgresUrl)(
    "moves the count once for each heart given or taken (PostgreSQL)",
    async () => {
      const owner = await buildUser(t.database);
      const prism = await buildPrism(t.database, { userId: owner.id });
      const browser = vid("toggled-twice");
      expect((await hearted(prism.id, browser)).json()).toEqual({ hearted: true, heartsCount: 1 });

      const url = withDatabase(postgresUrl as string, await databaseName(t.database));
      const holder = postgres(url, { max: 1, onnotice: () => {} });
      const watcher = postgres(url, { max: 1, onnotice: () => {} });
      try {
        let toggles: Promise<{ json(): unknown }>[] = [];
        await holder.begin(async (sql) => {
          await sql`select id from prism_hearts where prism_id = ${prism.id} for update`;
          toggles = [hearted(prism.id, browser), hearted(prism.id, browser)];
          for (let waiting = 0; waiting < 2; ) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            const [row] = await watcher`
              select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`;
            waiting = (row as { n: number }).n;
          }
        });
        const answers = (await Promise.all(toggles)).map((answer) => answer.json());
        // One toggle took the heart away and the other gave it back, as one after the other.
        expect(answers).toEqual(
          expect.arrayContaining([
            { hearted: false, heartsCount: 0 },
            { hearted: true, heartsCount: 1 },
          ]),
        );
        const [counted] = await t.database.db
          .select({ heartsCount: prisms.heartsCount })
          .from(prisms)
          .where(eq(prisms.id, prism.id));
        const rows = await t.database.db
          .select()
          .from(prismHearts)
          .where(eq(prismHearts.prismId, prism.id));
        expect(counted?.heartsCount).toBe(rows.length);
        expect(rows).toHaveLength(1);
      } finally {
        await holder.end();
        await watcher.end();
      }
    },
  );
});
