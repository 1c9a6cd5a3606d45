// `npx tsx bench/explore-plan.ts`: how PostgreSQL runs the explore page's two queries with many
// members seeded: EXPLAIN ANALYZE of the first page and of a deep one, on a throw-away database.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase } from "../src/server/db/client.ts";
import { explorePrismsQuery, exploreUsersQuery } from "../src/server/features/explore/service.ts";
import { seedMembers } from "./members.ts";

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const members = Number(process.env.BENCH_MEMBERS ?? 100_000);
const offsets = (process.env.BENCH_OFFSETS ?? "0,50000").split(",").map(Number);

async function main() {
  const name = `prism_bench_${randomBytes(6).toString("hex")}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const database = openDatabase(url.toString());
  try {
    await database.migrate();
    const started = performance.now();
    await seedMembers(database.db, members);
    console.log(`seeded ${members} members in ${Math.round(performance.now() - started)} ms`);
    const plain = postgres(url.toString(), { max: 1, onnotice: () => {} });
    for (const [label, build] of [
      ["explore users", exploreUsersQuery],
      ["explore prisms", explorePrismsQuery],
    ] as const) {
      for (const offset of offsets) {
        const { sql, params } = build(database.db, { limit: 10, offset }).toSQL();
        // Twice: the first run warms the cache, the second is the one reported.
        await plain.unsafe(sql, params as never[]);
        const plan = await plain.unsafe(`explain (analyze, buffers) ${sql}`, params as never[]);
        console.log(`\n## ${label}, offset ${offset}\n`);
        for (const row of plan) console.log(row["QUERY PLAN"]);
        // The server's driver prepares its statements, and PostgreSQL soon plans them once for
        // any parameters: that generic plan is the one a busy server runs.
        const args = params.map((value) => JSON.stringify(value)).join(", ");
        await plain.unsafe("set plan_cache_mode = force_generic_plan");
        await plain.unsafe(`prepare page as ${sql}`);
        const generic = await plain.unsafe(`explain (analyze, buffers) execute page(${args})`);
        await plain.unsafe("deallocate page");
        await plain.unsafe("reset plan_cache_mode");
        console.log(`\n## ${label}, offset ${offset}, generic plan\n`);
        for (const row of generic) console.log(row["QUERY PLAN"]);
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
