// Deep explore pages start from a row whose place an earlier read learned (anchors.ts): they must
// be the pages a skip from the top reads, before and after changes that move the list's version,
// and across the members list's turn from active members to never-active ones.
import { fillPlaceholders, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExplorePrism, ExploreUser } from "../../../contract/explore.ts";
import { rowsOf } from "../../db/client.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";
import {
  type ExplorePage,
  explorePrismsPage,
  exploreUsersPage,
  listExplorePrisms,
  listExploreUsers,
} from "./service.ts";

const t = setupTestApp();

const MEMBERS = 1200;
/** Members past this number never signed in. */
const ACTIVE = 1150;

// Each read is a new address, so that no answer comes from memory.
let reads = 0;
async function pageOf(list: "users" | "prisms", offset: number, limit = 10) {
  const response = await t.app.inject({
    method: "GET",
    url: `/api/explore/${list}?limit=${limit}&offset=${offset}&read=${++reads}`,
  });
  expect(response.statusCode).toBe(200);
  return list === "users"
    ? (response.json() as ExploreUser[]).map((entry) => entry.user.id)
    : (response.json() as ExplorePrism[]).map((entry) => entry.prism.id);
}

/** The page as a skip from the top of the list reads it, with no anchor. */
async function skipped(list: "users" | "prisms", offset: number, limit = 10) {
  const page = { limit, offset };
  return list === "users"
    ? (await listExploreUsers(t.database.db, page)).map((row) => row.user.id)
    : (await listExplorePrisms(t.database.db, page)).map((row) => row.prism.id);
}

/** Where the never-active members start in the members list. */
async function firstNeverActive(): Promise<number> {
  const [row] = rowsOf<{ active: number }>(
    await t.database.db.execute(sql`
      select count(*)::int as active from users
      where deactivated_at is null and has_prisms and last_active_at is not null`),
  );
  return row?.active ?? 0;
}

beforeAll(async () => {
  // Each member active a minute apart (the last ones never), with one prism, a second apart.
  await t.database.db.execute(sql`
    with added as (
      insert into users (username, email, first_name, last_name, last_active_at)
      select 'deep-' || n, 'deep-' || n || '@example.com', 'Deep', 'Member ' || n,
             case when n > ${ACTIVE} then null else now() - make_interval(mins => n) end
      from generate_series(1, ${MEMBERS}::int) as n
      returning id
    )
    insert into prisms (user_id, title, index, created_at)
    select id, 'Prism ' || id, 0, now() - make_interval(secs => id) from added`);
});

/**
 * How the database runs a page's statement when it reads the table only where it must: a list
 * this small is read whole, and the test asks what the index alone can serve.
 */
async function planOf(page: ExplorePage<unknown>) {
  const { sql: text, params } = page.query().toSQL();
  const values = fillPlaceholders(params, page.values).map((value) => Number(value));
  return t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql.raw(`prepare explore_page as ${text}`));
    const plan = rowsOf<{ "QUERY PLAN": string }>(
      await tx.execute(sql.raw(`explain execute explore_page(${values.join(", ")})`)),
    );
    await tx.execute(sql`deallocate explore_page`);
    return plan.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

describe("deep explore pages", () => {
  it("skips to a deep page along each list's index alone, never looking at a row", async () => {
    // Beside what explore shows: an unlisted member's prism and a team prism.
    const unlisted = await buildUser(t.database, { listed: false, lastActiveAt: new Date() });
    await buildPrism(t.database, { userId: unlisted.id });
    const teamAuthor = await buildUser(t.database, { lastActiveAt: new Date() });
    await buildPrism(t.database, { userId: teamAuthor.id, audience: "team" });
    const page = { limit: 10, offset: 1000 };
    expect(await planOf(exploreUsersPage(t.database.db, page))).toMatch(
      /Index Only Scan using users_explore_idx/,
    );
    expect(await planOf(explorePrismsPage(t.database.db, page))).toMatch(
      /Index Only Scan using prisms_explore_idx/,
    );
  });

  it("reads a deep members page again, and the pages after it, as a skip from the top does", async () => {
    for (const offset of [1040, 1040, 1045, 1049, 1090]) {
      expect(await pageOf("users", offset)).toEqual(await skipped("users", offset));
    }
  });

  it("reads the pages where active members turn to never-active ones as a skip does", async () => {
    const turn = await firstNeverActive();
    expect(turn).toBeGreaterThan(1030);
    // Known rows: an active member's before the turn, a never-active one's after it.
    await pageOf("users", turn - 30);
    await pageOf("users", turn + 2);
    for (const offset of [turn - 5, turn - 30, turn + 2, turn + 7]) {
      expect(await pageOf("users", offset, 20)).toEqual(await skipped("users", offset, 20));
    }
    expect(await pageOf("users", turn + 40)).toEqual(await skipped("users", turn + 40));
  });

  it("forgets the members' places when a member leaves the list", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const headers = await signIn(t.database, admin);
    const before = await pageOf("users", 1060);
    expect(before).toEqual(await skipped("users", 1060));
    // A member above the page leaves: every row below moves up by one.
    const [leaving] = await skipped("users", 1030, 1);
    const url = `/api/analytics/users/${leaving}/deactivate`;
    expect((await send(t.app, "PUT", url, { headers })).statusCode).toBe(200);
    const after = await pageOf("users", 1060);
    expect(after).toEqual(await skipped("users", 1060));
    expect(after.slice(0, 9)).toEqual(before.slice(1));
  });

  it("forgets the prisms' places when a heart moves a prism up", async () => {
    const before = await pageOf("prisms", 1050);
    expect(await pageOf("prisms", 1050)).toEqual(before);
    expect(before).toEqual(await skipped("prisms", 1050));
    // A prism below the page goes to the top: every row of the page moves down by one.
    const [rising] = await skipped("prisms", 1100, 1);
    const hearted = await send(t.app, "POST", `/api/prisms/${rising}/heart`, {
      headers: { cookie: visitorCookie("deep-pages-visitor") },
    });
    expect(hearted.statusCode).toBe(200);
    const after = await pageOf("prisms", 1050);
    expect(after).toEqual(await skipped("prisms", 1050));
    expect(after.slice(1)).toEqual(before.slice(0, 9));
  });
});
