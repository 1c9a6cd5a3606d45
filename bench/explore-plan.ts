// `npx tsx bench/explore-plan.ts`: how PostgreSQL runs the explore page's two queries with many
// members seeded: EXPLAIN ANALYZE of the first page and of a deep one, on a throw-away database,
// and of the deep one again from its first row, as the server reads it once it knows where that
// row stands (features/explore/anchors.ts).
import { randomBytes } from "node:crypto";
import { fillPlaceholders } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase } from "../src/server/db/client.ts";
import {
  type ExplorePage,
  explorePrismsPage,
  exploreUsersPage,
  listExplorePrisms,
  listExploreUsers,
} from "../src/server/features/explore/service.ts";
import { seedMembers } from "./members.ts";

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const members = Number(process.env.BENCH_MEMBERS ?? 100_000);
const offsets = (process.env.BENCH_OFFSETS ?? "0,50000").split(",").map(Number);

type Sql = ReturnType<typeof postgres>;
async function explain(plain: Sql, title: string, page: ExplorePage<unknown>, generic: boolean) {
  const { sql, params: placeholders } = page.query().toSQL();
  const params = fillPlaceholders(placeholders, page.values);
  // Twice: the first run warms the cache, the second is the one reported.
  await plain.unsafe(sql, params as never[]);
  const plan = await plain.unsafe(`explain (analyze, buffers) ${sql}`, params as never[]);
  console.log(`\n## ${title}\n`);
  for (const row of plan) console.log(row["QUERY PLAN"]);
  if (!generic) return;
  // The server's driver prepares its statements, and PostgreSQL soon plans them once for any
  // parameters: that generic plan is the one a busy server runs.
  const args = params.map((value) => JSON.stringify(value)).join(", ");
  await plain.unsafe("set plan_cache_mode = force_generic_plan");
  await plain.unsafe(`prepare page as ${sql}`);
  const genericPlan = await plain.unsafe(`explain (analyze, buffers) execute page(${args})`);
  await plain.unsafe("deallocate page");
  await plain.unsafe("reset plan_cache_mode");
  console.log(`\n## ${title}, generic plan\n`);
  for (const row of genericPlan) console.log(row["QUERY PLAN"]);
}

async function main() {
  const name = `prism_bench_${randomBytes(6).toString("hex")}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const database = openDatabase(url.toString());
  try {
    await database.migrate();
    const { db } = database;
    const started = performance.now();
    await seedMembers(db, members);
    console.log(`seeded ${members} members in ${Math.round(performance.now() - started)} ms`);
    const plain = postgres(url.toString(), { max: 1, onnotice: () => {} });
    for (const offset of offsets) {
      const page = { limit: 10, offset };
      await explain(plain, `explore users, offset ${offset}`, exploreUsersPage(db, page), true);
      const [member] = await listExploreUsers(db, page);
      if (offset > 0 && member) {
        const from = { position: offset, key: member.key };
        const title = `explore users, offset ${offset}, from its first row`;
        await explain(plain, title, exploreUsersPage(db, page, from), false);
      }
    }
    for (const offset of offsets) {
      const page = { limit: 10, offset };
      await explain(plain, `explore prisms, offset ${offset}`, explorePrismsPage(db, page), true);
      const [prism] = await listExplorePrisms(db, page);
      if (offset > 0 && prism) {
        const from = { position: offset, key: prism.key };
        const title = `explore prisms, offset ${offset}, from its first row`;
        await explain(plain, title, explorePrismsPage(db, page, from), false);
      }
    }
    await plain.end();
  } finally {
    await database.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
