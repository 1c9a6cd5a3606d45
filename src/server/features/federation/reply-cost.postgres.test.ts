// What one signed reply costs the database: the statements Prism sends from the moment a reply
// is posted to a member's inbox until it has landed as a pending response and the queue is idle
// again, counted for a reply from an actor never seen before and for one from an actor already
// known (the bench's 500 replies from 50 actors are mostly the latter). Each count is kept under a
// ceiling, so that the reads Prism no longer makes (the member, their actor and key pair read
// again and again, Fedify's cached keys and documents read back, the owner's answers looked for
// when a pending reply lands) do not come back unseen.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { setupCrowdScene } from "../../test/fediverse.ts";

/** The test's own statements, left out of what is counted. */
const MINE = "/* the test waits */";
/** How long the database is left alone before a reply's work counts as done. */
const QUIET_MS = 400;

// The queue wakes when a message is queued: no polling meanwhile, to be counted by mistake.
const s = setupCrowdScene(1, "ada-cost", { queueTiming: { pollMs: 600_000, leaseMs: 60_000 } });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many fediverse responses the essay has. */
async function landed(): Promise<number> {
  const result = await s.database.db.execute(
    sql.raw(`${MINE} select count(*)::int as n from annotations where prism_id = ${s.essay.id}`),
  );
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/** What a statement does, and to which table: `select users`, `insert federation_kv`… */
function statementOf(query: string): string {
  const verb = /^\s*(\w+)/.exec(query)?.[1]?.toLowerCase() ?? "?";
  const table = /\b(?:from|into|update)\s+"?(\w+)"?/i.exec(query)?.[1] ?? "?";
  return `${verb} ${table}`;
}

/** The statements reply number `n` costs, from its post until the database is quiet again. */
async function costOfReply(n: number): Promise<string[]> {
  const before = await landed();
  const seen: string[] = [];
  let last = Date.now();
  const stop = s.database.watchQueries((query) => {
    if (query.startsWith(MINE)) return;
    seen.push(statementOf(query));
    last = Date.now();
  });
  try {
    const statuses = await s.crowd.reply({
      inbox: new URL(`${s.prism.origin}/ap/actors/${s.ada.id}/inbox`),
      article: new URL(`${s.prism.origin}/ap/prisms/${s.essay.id}`),
      count: 1,
      first: n,
    });
    expect(statuses).toEqual([202]);
    await expect.poll(landed, { timeout: 10_000 }).toBe(before + 1);
    while (Date.now() - last < QUIET_MS) await pause(50);
  } finally {
    stop();
  }
  return seen;
}

/** The statements of the inbox's budget: PostgreSQL's rate-limit store is a table, PGlite's memory. */
const budget = () => (s.database.kind === "postgres" ? 1 : 0);

/** How many of each statement, for the failure message. */
function tally(statements: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const statement of statements) counts[statement] = (counts[statement] ?? 0) + 1;
  return counts;
}

/** The statements of a reply that read the member, their actor or Fedify's store. */
const lookups = (counts: Record<string, number>) => ({
  member: (counts["select users"] ?? 0) + (counts["select federation_actors"] ?? 0),
  kv: Object.entries(counts)
    .filter(([statement]) => statement.endsWith(" federation_kv"))
    .reduce((sum, [, n]) => sum + n, 0),
});

describe("a signed reply's cost to the database", () => {
  it("is counted for a reply from an actor never seen before", async () => {
    const counts = tally(await costOfReply(0));
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    expect(lookups(counts), JSON.stringify(counts)).toEqual({ member: 5, kv: 8 });
    expect(total, JSON.stringify(counts)).toBeLessThanOrEqual(31 + budget());
  });

  it("is counted for a reply from an actor already known", async () => {
    const counts = tally(await costOfReply(1));
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    expect(lookups(counts), JSON.stringify(counts)).toEqual({ member: 2, kv: 3 });
    expect(total, JSON.stringify(counts)).toBeLessThanOrEqual(18 + budget());
  });
});
