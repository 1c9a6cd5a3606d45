// Replies from the fediverse arriving while the profile is read: a crowd of 50 actors (another
// server on this machine, src/server/test/crowd.ts, in a process of its own) sends `replies`
// replies to a demo member's prism, each signed by its author; meanwhile autocannon (in a process
// of its own) reads that member's profile. Measured until every reply is accepted, handled from the queue and landed as a pending
// response: how long that took, and the profile read's latency all the while. The app is one of
// its own, on a fresh database (PGlite in memory, or the PostgreSQL one it is given), its origin
// its own address, so that the replies it is sent are to its prisms.
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import type { Result } from "autocannon";
import { and, count, eq, lte, sql } from "drizzle-orm";
import { buildApp } from "../src/server/app.ts";
import { loadConfig } from "../src/server/config.ts";
import type { Database } from "../src/server/db/client.ts";
import { annotations, federationQueue, users } from "../src/server/db/schema.ts";
import { prismsThatFederate } from "../src/server/features/federation/service.ts";
import { seedDemo } from "../src/server/tasks/seed.ts";
import { freePort } from "../src/server/test/ports.ts";
import type { CrowdOrder } from "./crowd-process.ts";
import type { ReadOrder } from "./readers-process.ts";

export interface RepliesReport {
  replies: number;
  actors: number;
  /** From the first reply sent to the last one accepted (202). */
  acceptedMs: number;
  /** From the first reply sent to the last one landed as a response, the queue empty. */
  processedMs: number;
  /** Replies Prism did not answer 202, and replies that did not land pending. */
  refused: number;
  notPending: number;
  /** The profile read meanwhile, from the first reply sent until the queue was empty. */
  profile: { requests: number; requestsPerSecond: number; p50: number; p99: number; max: number };
}

const ACTORS = 50;
const MEMBER = "maya-okafor";
/**
 * Readers of the profile at once, and their requests a second between them: steady reading, as
 * a popular page's visitors read, not a load that would leave the server no time for anything.
 */
const READERS = 10;
const READS_PER_SECOND = 200;

/** Resolves when `done` says so, polling every `ms`. */
async function until(done: () => Promise<boolean>, ms = 100) {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, ms));
}

/** The next message from a helper process; an error when it exits first. */
async function messageFrom<T>(child: ChildProcess, name: string): Promise<T> {
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`the ${name} process exited (${code}) before it answered`);
  });
  const [message] = await Promise.race([once(child, "message"), exited]);
  return message as T;
}

export async function measureReplies(options: {
  database: Database;
  databaseUrl: string;
  appSecret: string;
  replies: number;
}): Promise<RepliesReport> {
  const { database, replies } = options;
  const { db } = database;
  await database.migrate();
  await seedDemo(db);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: "production",
    DATABASE_URL: options.databaseUrl,
    APP_ORIGIN: origin,
    APP_SECRET: options.appSecret,
    SEED: "none",
    LOG_LEVEL: "silent",
  });
  // The crowd is on this machine: only that address rule differs from production.
  const app = await buildApp({ config, database, federation: { allowPrivateAddress: true } });
  await app.listen({ host: "127.0.0.1", port });
  const crowd = fork(new URL("./crowd-process.ts", import.meta.url), [String(ACTORS)]);
  const readers = fork(new URL("./readers-process.ts", import.meta.url));
  try {
    await messageFrom(crowd, "crowd");
    const [member] = await db
      .update(users)
      .set({ federated: true })
      .where(eq(users.username, MEMBER))
      .returning({ id: users.id });
    if (!member) throw new Error(`the demo member ${MEMBER} is missing`);
    const [prism] = (await prismsThatFederate(db, member.id)).sort((a, b) => a.index - b.index);
    if (!prism) throw new Error(`${MEMBER} has no prism that federates`);
    const profileUrl = `${origin}/api/users/${MEMBER}`;
    await (await fetch(profileUrl)).arrayBuffer();

    readers.send({
      url: profileUrl,
      connections: READERS,
      overallRate: READS_PER_SECOND,
    } satisfies ReadOrder);
    await messageFrom(readers, "readers");
    const reading = messageFrom<{ result?: Result; error?: string }>(readers, "readers");
    const started = performance.now();
    crowd.send({
      inbox: `${origin}/ap/actors/${member.id}/inbox`,
      article: `${origin}/ap/prisms/${prism.id}`,
      count: replies,
    } satisfies CrowdOrder);
    const { statuses } = await messageFrom<{ statuses: number[] }>(crowd, "crowd");
    const acceptedMs = performance.now() - started;
    const accepted = statuses.filter((status) => status === 202).length;
    console.error(`bench: ${accepted} accepted in ${Math.round(acceptedMs)} ms; the queue…`);
    // Every accepted reply was queued before its answer: once nothing in the queue is ready or
    // being handled, all are (a retry waiting for its back-off would be counted as not pending).
    await until(async () => {
      const [row] = await db
        .select({ n: count() })
        .from(federationQueue)
        .where(lte(federationQueue.availableAt, sql`now()`));
      return (row?.n ?? 0) === 0;
    });
    const processedMs = performance.now() - started;
    readers.send("stop");
    const { result: read, error } = await reading;
    if (!read) throw new Error(`the profile's readers failed: ${error}`);
    const [pending] = await db
      .select({ n: count() })
      .from(annotations)
      .where(
        and(
          eq(annotations.prismId, prism.id),
          eq(annotations.source, "fediverse"),
          eq(annotations.status, "pending"),
        ),
      );
    return {
      replies,
      actors: ACTORS,
      acceptedMs: Math.round(acceptedMs),
      processedMs: Math.round(processedMs),
      refused: replies - accepted,
      notPending: replies - (pending?.n ?? 0),
      profile: {
        requests: read.requests.total,
        requestsPerSecond: Math.round(read.requests.average),
        p50: read.latency.p50,
        p99: read.latency.p99,
        max: read.latency.max,
      },
    };
  } finally {
    for (const child of [crowd, readers]) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, "exit");
      child.kill();
      await exited;
    }
    await app.close();
  }
}

export function repliesMarkdown(target: string, report: RepliesReport): string {
  const { profile } = report;
  return [
    "",
    `${report.replies} signed replies from ${report.actors} actors to one prism (${target}), the profile read meanwhile (${READERS} connections, ${READS_PER_SECOND} reads a second at most):`,
    "",
    "| replies | all accepted ms | all processed ms | refused | not pending | profile reads | req/s | p50 ms | p99 ms | max ms |",
    "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    `| ${report.replies} | ${report.acceptedMs} | ${report.processedMs} | ${report.refused} | ${report.notPending} | ${profile.requests} | ${profile.requestsPerSecond} | ${profile.p50} | ${profile.p99} | ${profile.max} |`,
    "",
  ].join("\n");
}
