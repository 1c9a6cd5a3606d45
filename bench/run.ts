// `npm run bench`: load scenarios against Prism's real app, each reported as a ratio to a bare
// node:http server measured just before and just after it.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { buildApp } from "../src/server/app.ts";
import { loadConfig } from "../src/server/config.ts";
import { type Database, openDatabase, rowsOf } from "../src/server/db/client.ts";
import { CHANNEL } from "../src/server/live/bus.ts";
import { memoryStore } from "../src/server/plugins/rate-limit-store.ts";
import { signedVisitorId } from "../src/server/plugins/visitor.ts";
import { SESSION_COOKIE } from "../src/server/security/session-store.ts";
import { type DemoCredentials, seedDemo } from "../src/server/tasks/seed.ts";
import { startCluster } from "./cluster.ts";
import { benchUsername, seedCardMembers, seedMembers } from "./members.ts";
import { measureReplies, type RepliesReport, repliesMarkdown } from "./replies-scenario.ts";
import { measureStreams, type StreamsReport } from "./streams-scenario.ts";

const HOST = "127.0.0.1";
const CONNECTIONS = 50;
const WARMUP_SECONDS = 1;
// The CSRF guard compares Origin with APP_ORIGIN only; the listening port is irrelevant to it.
const APP_ORIGIN = "http://127.0.0.1:3000";
/** The fan-out measurements' names, for `BENCH_ONLY`. */
const FAN_OUT = "fan-out (one heart reaching every open event stream)";
const FAN_OUT_CLUSTER = "fan-out, WORKERS=2 (the server's own processes on PostgreSQL)";
/** The server processes of the cluster fan-out measurement. */
const CLUSTER_WORKERS = 2;
/** The replies measurement's name, for `BENCH_ONLY`. */
const REPLIES =
  "replies from the fediverse (signed replies from 50 actors, the profile read meanwhile)";
const reportsDir = fileURLToPath(new URL("./reports/", import.meta.url));

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a scenario may ask of the app it runs against, once, before it is measured. */
interface ScenarioContext {
  origin: string;
  /** Where the app under test listens. */
  base: string;
  /** A `cookie` header of the demo admin's session, signed in through POST /api/login. */
  adminCookie(): Promise<string>;
  database: Database;
}

interface PreparedRequest {
  /** Requests in flight at once; 50 unless the scenario says otherwise. */
  connections?: number;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: string;
  idReplacement?: boolean;
}

interface Scenario {
  name: string;
  method: Method;
  path: string | ((context: ScenarioContext) => Promise<string>);
  prepare?(context: ScenarioContext): Promise<PreparedRequest>;
  /** The answer every request must get; default any 2xx. A poll of unchanged data expects 304. */
  expectStatus?: number;
  /** A module (plain CommonJS) that autocannon's worker runs to change each request. */
  setupRequest?: string;
  /**
   * `[<id>]` in the path or a header becomes a new id in every request: each is a new address, or
   * a new browser, to the cache.
   */
  idReplacement?: boolean;
  /** After the run: what is wrong with the data it left, if anything. */
  check?(context: ScenarioContext): Promise<string | undefined>;
  /** Measured on an app that keeps its rate limits in memory, whatever the database. */
  limitsInMemory?: boolean;
  /** Requests in flight at once; 50 unless said otherwise. */
  connections?: number;
  /** Measured on a server of its own that it starts (not Prism), and closes after its run. */
  server?(context: ScenarioContext): Promise<{ base: string; close(): Promise<void> }>;
}

/** What Node writes itself in every answer, which a recorded answer leaves to it. */
const WRITTEN_BY_NODE = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Prism's answer to `url`, asked with `headers` and no compression, as a bare server sends it. */
async function recorded(url: string, headers: Record<string, string> = {}): Promise<Recorded> {
  const response = await fetch(url, { headers: { "accept-encoding": "identity", ...headers } });
  const body = Buffer.from(await response.arrayBuffer());
  const kept = [...response.headers].filter(([name]) => !WRITTEN_BY_NODE.has(name));
  return { status: response.status, headers: Object.fromEntries(kept), body };
}

/**
 * A bare node:http server that answers every request with `answer` and a request id of its own:
 * what Prism's answer costs with nothing of Prism's work, which no answer of Prism's can beat.
 */
async function replaying(answer: Recorded) {
  const server = createServer((_request, response) => {
    response.writeHead(answer.status, { ...answer.headers, "x-request-id": randomUUID() });
    response.end(answer.body);
  });
  return { base: await listen(server), close: () => closeServer(server) };
}

/** The first demo prism of the member the scenarios read. */
async function firstPrismId(context: Pick<ScenarioContext, "base">): Promise<number> {
  const response = await fetch(`${context.base}/api/prisms/maya-okafor`);
  const [prism] = (await response.json()) as { id: number }[];
  if (!prism) throw new Error("the demo member has no prisms");
  return prism.id;
}

/** The ETag a first request gets, so that later requests are "nothing changed" polls. */
async function etagOf(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const etag = response.headers.get("etag");
  if (!etag) throw new Error(`${url} sent no ETag`);
  return etag;
}

/** The servers' APP_SECRET, with which the bench signs its browsers' ids as the servers do. */
const APP_SECRET = randomBytes(32).toString("hex");
/** The `vid` cookie of the bench's browser `name`, as a server issues it. */
const browser = (name: string) => `vid=${signedVisitorId(name, APP_SECRET)}`;
const BENCH_VISITOR = { cookie: browser("bench-visitor-0000000001") };
// The heart-toggle scenario's 500 browsers, for its request setup in autocannon's worker.
process.env.BENCH_TOGGLERS = JSON.stringify(
  Array.from({ length: 500 }, (_, i) => browser(`bench-toggler-${String(i).padStart(10, "0")}`)),
);

/** Prisms whose heart count differs from their hearts: there must be none. */
async function heartCountsDrift(context: ScenarioContext): Promise<string | undefined> {
  const [row] = rowsOf<{ drifted: number }>(
    await context.database.db.execute(sql`
      select count(*)::int as drifted from prisms p
      where p.hearts_count <> (select count(*) from prism_hearts h where h.prism_id = p.id)`),
  );
  return row?.drifted ? `${row.drifted} prisms' heart counts differ from their hearts` : undefined;
}

/** A password-reset request for a login nobody has: one lookup, and the per-address limit. */
function resetRequest(context: ScenarioContext, headers: Record<string, string> = {}) {
  return {
    headers: { origin: context.origin, "content-type": "application/json", ...headers },
    body: JSON.stringify({ login: "nobody_by_that_name" }),
  };
}

/**
 * A scenario measured twice: with the rate limits where the database's engine keeps them (on
 * PostgreSQL, its table) and in memory, so that the difference is what the store costs.
 */
function inBothStores(scenario: Scenario): Scenario[] {
  return [
    { ...scenario, name: `${scenario.name} (limits in the engine's store)` },
    { ...scenario, name: `${scenario.name} (limits in memory)`, limitsInMemory: true },
  ];
}

/** The cold share-card scenario's members, seeded in each target's database when it first runs. */
const cardMembers = new WeakMap<Database, Promise<void>>();

// Sign-in is rate limited per username and address after failures, so a wrong-password scenario
// would measure 429s; scenarios here stick to requests that succeed every time, but for the one
// that measures what a 429 costs.
const scenarios: Scenario[] = [
  { name: "health", method: "GET", path: "/api/health" },
  { name: "public profile", method: "GET", path: "/api/users/maya-okafor" },
  {
    name: "current user (signed in)",
    method: "GET",
    path: "/api/user",
    prepare: async (context) => ({ headers: { cookie: await context.adminCookie() } }),
  },
  { name: "prism list", method: "GET", path: "/api/prisms/maya-okafor" },
  {
    name: "prism list, compressed as a browser asks",
    method: "GET",
    path: "/api/prisms/maya-okafor",
    prepare: async () => ({ headers: { "accept-encoding": "gzip, deflate, br, zstd" } }),
  },
  {
    name: "ceiling: bare node:http sending the prism list's answer again",
    method: "GET",
    path: "/",
    server: async (context) => replaying(await recorded(`${context.base}/api/prisms/maya-okafor`)),
  },
  { name: "explore members", method: "GET", path: "/api/explore/users?limit=10&offset=0" },
  { name: "explore prisms", method: "GET", path: "/api/explore/prisms?limit=10&offset=0" },
  {
    name: "prism list poll, unchanged (304)",
    method: "GET",
    path: "/api/prisms/maya-okafor",
    expectStatus: 304,
    prepare: async (context) => ({
      headers: { "if-none-match": await etagOf(`${context.base}/api/prisms/maya-okafor`) },
    }),
  },
  {
    name: "heart status",
    method: "GET",
    path: async (context) => `/api/prisms/${await firstPrismId(context)}/heart`,
    prepare: async () => ({ headers: BENCH_VISITOR }),
  },
  {
    name: "heart status, a new browser each time",
    method: "GET",
    path: async (context) => `/api/prisms/${await firstPrismId(context)}/heart`,
  },
  {
    name: "heart status poll, unchanged (304)",
    method: "GET",
    path: async (context) => `/api/prisms/${await firstPrismId(context)}/heart`,
    expectStatus: 304,
    prepare: async (context) => {
      const url = `${context.base}/api/prisms/${await firstPrismId(context)}/heart`;
      return { headers: { ...BENCH_VISITOR, "if-none-match": await etagOf(url, BENCH_VISITOR) } };
    },
  },
  {
    name: "annotations of a prism",
    method: "GET",
    path: async (context) => `/api/prisms/${await firstPrismId(context)}/annotations`,
  },
  {
    name: "heart toggle (500 browsers, counts checked after)",
    method: "POST",
    path: async (context) => `/api/prisms/${await firstPrismId(context)}/heart`,
    prepare: async (context) => ({ headers: { origin: context.origin } }),
    setupRequest: fileURLToPath(new URL("./toggle-request.cjs", import.meta.url)),
    check: heartCountsDrift,
  },
  ...inBothStores({
    name: "reset request, a new address each time",
    method: "POST",
    path: "/api/password-reset/request",
    expectStatus: 202,
    prepare: async (context) => resetRequest(context),
    setupRequest: fileURLToPath(new URL("./new-address-request.cjs", import.meta.url)),
  }),
  ...inBothStores({
    name: "reset request refused (429), one address past its limit",
    method: "POST",
    path: "/api/password-reset/request",
    expectStatus: 429,
    prepare: async (context) => {
      const request = resetRequest(context, { "x-forwarded-for": "127.255.255.254" });
      for (let i = 0; i < 10; i++) {
        const sent = await fetch(`${context.base}/api/password-reset/request`, {
          method: "POST",
          ...request,
        });
        await sent.arrayBuffer();
      }
      return request;
    },
  }),
  {
    name: "share card, warm (PNG kept in memory)",
    method: "GET",
    path: "/og/maya-okafor.png",
  },
  {
    // One at a time, its latency is a warm card's answer, not the queue of 50 connections.
    name: "share card, warm, one at a time",
    method: "GET",
    path: "/og/maya-okafor.png",
    connections: 1,
  },
  {
    name: "share card poll, unchanged (304)",
    method: "GET",
    path: "/og/maya-okafor.png",
    expectStatus: 304,
    prepare: async (context) => ({
      headers: { "if-none-match": await etagOf(`${context.base}/og/maya-okafor.png`) },
    }),
  },
  {
    name: "ceiling: bare node:http sending the prism list poll's 304 again",
    method: "GET",
    path: "/",
    expectStatus: 304,
    server: async (context) => {
      const url = `${context.base}/api/prisms/maya-okafor`;
      return replaying(await recorded(url, { "if-none-match": await etagOf(url) }));
    },
  },
  {
    // Each request a card nobody asked for before, one at a time: its latency is a cold card's.
    name: "share card, cold (a new card each request, one at a time)",
    method: "GET",
    path: "/og/bench-card-1.png",
    connections: 1,
    prepare: async (context) => {
      const seeded = cardMembers.get(context.database) ?? seedCardMembers(context.database.db);
      cardMembers.set(context.database, seeded);
      await seeded;
      return {};
    },
    setupRequest: fileURLToPath(new URL("./card-request.cjs", import.meta.url)),
  },
  {
    name: "Catalyst stats (admin)",
    method: "GET",
    path: "/api/analytics/stats",
    prepare: async (context) => ({ headers: { cookie: await context.adminCookie() } }),
  },
  {
    name: "Catalyst users, searched (admin)",
    method: "GET",
    path: "/api/analytics/users?limit=10&offset=0&q=an",
    prepare: async (context) => ({ headers: { cookie: await context.adminCookie() } }),
  },
];

interface Row {
  target: string;
  scenario: string;
  expectStatus: number | undefined;
  method: Method;
  path: string;
  requestsPerSecond: number;
  latencyMs: { p50: number; p97_5: number; p99: number };
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /**
   * The bare node:http server's req/s, in the slices taken in turn with this row's scenario.
   */
  baselineRequestsPerSecond: number;
  ratio: number;
  /**
   * The server's own cost: its thread's CPU time per request, in µs (the bare server's in the
   * same slices beside it). The load generator shares the machine's cores, so req/s also moves
   * with what its thread and the kernel spend; this moves only with the server's work.
   */
  serverMicros: number;
  baselineServerMicros: number;
}

type Measurement = Omit<
  Row,
  | "target"
  | "scenario"
  | "method"
  | "path"
  | "ratio"
  | "expectStatus"
  | "baselineRequestsPerSecond"
  | "baselineServerMicros"
>;

/** `BENCH_MEMBERS`: member counts for the scale scenarios, comma-separated (default 1000). */
function benchMembers(raw: string | undefined): number[] {
  const counts = (raw || "1000").split(",").map((part) => Number(part.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 2 || n > 1_000_000)) {
    throw new Error(`Invalid BENCH_MEMBERS: ${raw} (counts from 2 to 1000000, comma-separated)`);
  }
  return [...new Set(counts)].sort((a, b) => a - b);
}

/** `BENCH_STREAMS`: open event streams for the fan-out measurement (default 1000; 0 skips it). */
function benchStreams(raw: string | undefined): number {
  const value = Number(raw || 1000);
  if (!Number.isInteger(value) || value < 0 || value > 15_000) {
    throw new Error(`Invalid BENCH_STREAMS: ${raw} (0 to 15000)`);
  }
  return value;
}

/** `BENCH_REPLIES`: signed replies the replies measurement sends (default 500). */
function benchReplies(raw: string | undefined): number {
  const value = Number(raw || 500);
  if (!Number.isInteger(value) || value < 1 || value > 100_000) {
    throw new Error(`Invalid BENCH_REPLIES: ${raw} (1 to 100000)`);
  }
  return value;
}

function benchSeconds(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 5;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 60) {
    throw new Error(`Invalid BENCH_SECONDS: ${raw} (a whole number of seconds, 1 to 60)`);
  }
  return value;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

function databaseUrlFor(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as AddressInfo;
      resolve(`http://${HOST}:${port}`);
    });
  });
}

/**
 * The CPU time the server's thread (this process's main thread) has used, in ms, user and
 * system: Linux's count for the thread alone, in clock ticks of 10 ms.
 */
function serverThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function load(
  url: string,
  method: Method,
  request: PreparedRequest,
  seconds: number,
): Promise<Measurement> {
  const cpuBefore = serverThreadCpuMs();
  const result = await autocannon({
    url,
    method,
    headers: request.headers,
    body: request.body,
    connections: request.connections ?? CONNECTIONS,
    duration: seconds,
    idReplacement: request.idReplacement,
    requests: request.setupRequest ? [{ setupRequest: request.setupRequest }] : undefined,
    // One worker thread keeps the load generator off the event loop of the server it measures.
    workers: 1,
  });
  const cpuMs = serverThreadCpuMs() - cpuBefore;
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  return {
    requestsPerSecond: result.requests.mean,
    latencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99 },
    requests: result.requests.total,
    serverMicros: result.requests.total > 0 ? (cpuMs * 1000) / result.requests.total : 0,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
}

/** A median (of at least one value). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** One-second slices of a run as one measurement: their req/s averaged, their latencies' medians. */
function combined(slices: Measurement[]): Measurement {
  const sum = (of: (slice: Measurement) => number) =>
    slices.reduce((total, slice) => total + of(slice), 0);
  const statusCodes: Record<string, number> = {};
  for (const slice of slices) {
    for (const [code, count] of Object.entries(slice.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
    }
  }
  return {
    requestsPerSecond: sum((slice) => slice.requestsPerSecond) / slices.length,
    latencyMs: {
      p50: median(slices.map((slice) => slice.latencyMs.p50)),
      p97_5: median(slices.map((slice) => slice.latencyMs.p97_5)),
      p99: median(slices.map((slice) => slice.latencyMs.p99)),
    },
    requests: sum((slice) => slice.requests),
    serverMicros: median(slices.map((slice) => slice.serverMicros)),
    errors: sum((slice) => slice.errors),
    timeouts: sum((slice) => slice.timeouts),
    non2xx: sum((slice) => slice.non2xx),
    statusCodes,
  };
}

/**
 * A scenario and the bare server in turn, one second each, `seconds` times, after a warm-up of
 * each: bare first, then the scenario first, and so on (ABBA). What else the machine does moves
 * the bare server's req/s by half from one moment to the next; in slices this short, taken in
 * turn, it weighs the same on both sides of the ratio.
 */
async function alternate(
  seconds: number,
  bare: (seconds: number) => Promise<Measurement>,
  scenario: (seconds: number) => Promise<Measurement>,
): Promise<{ bare: Measurement; scenario: Measurement }> {
  await bare(WARMUP_SECONDS);
  await scenario(WARMUP_SECONDS);
  const bareSlices: Measurement[] = [];
  const scenarioSlices: Measurement[] = [];
  for (let slice = 0; slice < seconds; slice++) {
    if (slice % 2 === 0) bareSlices.push(await bare(1));
    scenarioSlices.push(await scenario(1));
    if (slice % 2 === 1) bareSlices.push(await bare(1));
  }
  return { bare: combined(bareSlices), scenario: combined(scenarioSlices) };
}

/** The bare node:http server every scenario is compared with, measured in turn with it. */
interface Baseline {
  measure(seconds: number): Promise<Measurement>;
  close(): Promise<void>;
}

async function startBaseline(): Promise<Baseline> {
  const body = JSON.stringify({ status: "ok" });
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
    });
    res.end(body);
  });
  const base = await listen(server);
  return {
    measure: (seconds) => load(`${base}/`, "GET", {}, seconds),
    close: () => closeServer(server),
  };
}

/** Closes a server of the bench's own, and the connections it still holds. */
async function closeServer(server: Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function signIn(base: string, credentials: DemoCredentials): Promise<string> {
  const response = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { origin: APP_ORIGIN, "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  const session = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`));
  if (!response.ok || !session) {
    throw new Error(`Signing in as ${credentials.username} failed: HTTP ${response.status}`);
  }
  return session;
}

interface Settings {
  seconds: number;
  /** Whether a scenario (by name) is run: `BENCH_ONLY` narrows the run to names containing it. */
  runs(name: string): boolean;
  /** Member counts to seed and measure the scale scenarios at, in increasing order. */
  members: number[];
  /** Open event streams for the fan-out measurement (0: none). */
  streams: number;
}

interface TargetReport {
  rows: Row[];
  streams?: StreamsReport;
}

/** Runs one scenario: a probe, a warm-up, the measured run, and its data check. */
async function runScenario(
  target: string,
  scenario: Scenario,
  context: ScenarioContext,
  seconds: number,
  baseline: Baseline,
): Promise<Row> {
  const prepared = (await scenario.prepare?.(context)) ?? {};
  const request: PreparedRequest = {
    ...prepared,
    setupRequest: scenario.setupRequest,
    idReplacement: scenario.idReplacement,
    connections: scenario.connections,
  };
  const path = typeof scenario.path === "string" ? scenario.path : await scenario.path(context);
  const url = `${context.base}${path}`;
  // One plain request first, so a broken scenario says why instead of just counting failures.
  const probe = await fetch(url, { method: scenario.method, ...prepared });
  if (scenario.expectStatus ? probe.status !== scenario.expectStatus : !probe.ok) {
    console.error(
      `${target} / ${scenario.name}: HTTP ${probe.status} ${(await probe.text()).slice(0, 200)}`,
    );
  } else {
    await probe.arrayBuffer();
  }
  const { bare: baselineRun, scenario: result } = await alternate(
    seconds,
    baseline.measure,
    (each) => load(url, scenario.method, request, each),
  );
  const bare = baselineRun.requestsPerSecond;
  const problem = await scenario.check?.(context);
  if (problem) console.error(`${target} / ${scenario.name}: ${problem}`);
  return {
    target,
    scenario: scenario.name,
    method: scenario.method,
    path,
    expectStatus: scenario.expectStatus,
    ...result,
    errors: result.errors + (problem ? 1 : 0),
    baselineRequestsPerSecond: bare,
    ratio: bare > 0 ? result.requestsPerSecond / bare : 0,
    baselineServerMicros: baselineRun.serverMicros,
  };
}

/**
 * Reads whose cost could grow with the number of members: a profile and the explore lists, each
 * from memory and (a new address every request) from the database; the deep page is the middle.
 */
function scaleScenarios(members: number): Scenario[] {
  const middle = Math.floor(members / 2);
  const member = benchUsername(middle);
  return [
    { name: `profile, ${members} members`, method: "GET", path: `/api/users/${member}` },
    {
      name: `profile, never from memory, ${members} members`,
      method: "GET",
      path: `/api/users/${member}?read=[<id>]`,
      idReplacement: true,
    },
    {
      name: `explore members, ${members} members`,
      method: "GET",
      path: "/api/explore/users?limit=10&offset=0",
    },
    {
      name: `explore members, never from memory, ${members} members`,
      method: "GET",
      path: "/api/explore/users?limit=10&offset=0&read=[<id>]",
      idReplacement: true,
    },
    {
      name: `explore members at offset ${middle}, never from memory`,
      method: "GET",
      path: `/api/explore/users?limit=10&offset=${middle}&read=[<id>]`,
      idReplacement: true,
    },
    {
      name: `explore prisms at offset ${middle}, never from memory`,
      method: "GET",
      path: `/api/explore/prisms?limit=10&offset=${middle}&read=[<id>]`,
      idReplacement: true,
    },
  ];
}

/** Migrates and seeds the database, serves Prism on it, and runs every scenario. */
async function runPrism(
  target: string,
  database: Database,
  databaseUrl: string,
  settings: Settings,
  baseline: Baseline,
): Promise<TargetReport> {
  await database.migrate();
  const credentials = await seedDemo(database.db);
  const config = loadConfig({
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    APP_ORIGIN,
    APP_SECRET,
    SEED: "none",
    LOG_LEVEL: "silent",
    // The heart-toggle scenario sends each request as from another client (X-Forwarded-For).
    TRUST_PROXY: "1",
  });
  const app = await buildApp({
    config,
    database,
    // For the fan-out measurement, up to 15,000 streams on one process; each 50 of them come from
    // another address, so the per-address cap stays the server's.
    eventStreams: { maxStreams: settings.streams + 100 },
  });
  const base = await app.listen({ host: HOST, port: 0 });
  // The same app with its rate limits in memory, for the scenarios that compare the two stores.
  const inMemory = scenarios.some((each) => each.limitsInMemory && settings.runs(each.name))
    ? await buildApp({ config, database, limitStore: memoryStore() })
    : undefined;
  const memoryBase = await inMemory?.listen({ host: HOST, port: 0 });
  let cookie: Promise<string> | undefined;
  const context: ScenarioContext = {
    origin: APP_ORIGIN,
    base,
    database,
    adminCookie: () => {
      cookie ??= signIn(base, credentials);
      return cookie;
    },
  };
  const rows: Row[] = [];
  const report: TargetReport = { rows };
  try {
    // The process's first seconds (compiling, opening the pool) must not count against whichever
    // scenario comes first: every read is run once before any is measured.
    const chosen = scenarios.filter((scenario) => settings.runs(scenario.name));
    for (const scenario of chosen) {
      if (scenario.method !== "GET" || scenario.server) continue;
      const path = typeof scenario.path === "string" ? scenario.path : await scenario.path(context);
      await load(`${base}${path}`, "GET", (await scenario.prepare?.(context)) ?? {}, 1);
    }
    for (const scenario of chosen) {
      const own = await scenario.server?.(context);
      const at = own?.base ?? (scenario.limitsInMemory ? memoryBase : undefined) ?? base;
      try {
        rows.push(
          await runScenario(target, scenario, { ...context, base: at }, settings.seconds, baseline),
        );
      } finally {
        await own?.close();
      }
    }
    if (settings.streams > 0 && settings.runs(FAN_OUT)) {
      report.streams = await measureStreams({
        base,
        origin: APP_ORIGIN,
        heartPath: `/api/prisms/${await firstPrismId(context)}/heart`,
        hearters: [browser("bench-streams-heart-0"), browser("bench-streams-heart-1")],
        // An address of their own: one address's anonymous hearts on one prism are bounded (20 a
        // day), and the heart toggle's first request came from the bench's.
        forwardedFor: "198.51.100.1",
        count: settings.streams,
        hearts: 20,
      });
    }
    let seeded = 0;
    for (const members of settings.members) {
      const chosenAtScale = scaleScenarios(members).filter((each) => settings.runs(each.name));
      if (chosenAtScale.length === 0) continue;
      await seedMembers(database.db, members, seeded + 1);
      seeded = members;
      for (const scenario of chosenAtScale) {
        rows.push(await runScenario(target, scenario, context, settings.seconds, baseline));
      }
    }
  } finally {
    await Promise.all([app.close(), inMemory?.close()]);
  }
  return report;
}

async function runPglite(settings: Settings, baseline: Baseline): Promise<TargetReport> {
  const url = "pglite:memory";
  const database = openDatabase(url);
  try {
    return await runPrism("pglite (memory)", database, url, settings, baseline);
  } finally {
    await database.close();
  }
}

/** Runs `work` on a fresh `prism_bench_<random>` database of the server at `serverUrl`; drops it. */
async function withThrowawayDatabase<T>(
  serverUrl: string,
  work: (url: string) => Promise<T>,
): Promise<T> {
  const name = `prism_bench_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
    return await work(databaseUrlFor(serverUrl, name));
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** The same scenarios on a throw-away database of the PostgreSQL server at `serverUrl`. */
function runPostgres(serverUrl: string, settings: Settings, baseline: Baseline) {
  return withThrowawayDatabase(serverUrl, async (url) => {
    const database = openDatabase(url);
    try {
      return await runPrism("postgres", database, url, settings, baseline);
    } finally {
      await database.close();
    }
  });
}

/**
 * The fan-out on the real server (`src/server/main.ts`) with WORKERS=2 on a throw-away database:
 * its own caps, its own demo data, and streams from as many loopback addresses as its
 * per-address cap asks for.
 */
function runCluster(serverUrl: string, streams: number): Promise<StreamsReport> {
  return withThrowawayDatabase(serverUrl, async (databaseUrl) => {
    const server = await startCluster({
      databaseUrl,
      workers: CLUSTER_WORKERS,
      appOrigin: APP_ORIGIN,
      appSecret: APP_SECRET,
    });
    // A listener of the bench's own times each heart's NOTIFY, apart from any fan-out.
    const listener = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      return await measureStreams({
        base: server.base,
        origin: APP_ORIGIN,
        heartPath: `/api/prisms/${await firstPrismId(server)}/heart`,
        hearters: [browser("bench-streams-heart-0"), browser("bench-streams-heart-1")],
        count: streams,
        hearts: 20,
        workers: server.workers,
        listen: async (heard) => {
          const { unlisten } = await listener.listen(CHANNEL, (payload) => {
            const { event } = JSON.parse(payload) as { event: { type: string } };
            if (event.type === "heart.changed") heard();
          });
          return unlisten;
        },
      });
    } finally {
      await listener.end();
      await server.stop();
    }
  });
}

/** The replies measurement on a fresh PGlite, and with PostgreSQL on a throw-away database. */
async function runReplies(
  postgresUrl: string | undefined,
  replies: number,
): Promise<[string, RepliesReport][]> {
  const url = "pglite:memory";
  const embedded = openDatabase(url);
  const reports: [string, RepliesReport][] = [];
  try {
    const report = await measureReplies({
      database: embedded,
      databaseUrl: url,
      appSecret: APP_SECRET,
      replies,
    });
    reports.push(["pglite (memory)", report]);
  } finally {
    await embedded.close();
  }
  if (postgresUrl) {
    const report = await withThrowawayDatabase(postgresUrl, async (databaseUrl) => {
      const database = openDatabase(databaseUrl);
      try {
        return await measureReplies({ database, databaseUrl, appSecret: APP_SECRET, replies });
      } finally {
        await database.close();
      }
    });
    reports.push(["postgres", report]);
  }
  return reports;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

function streamsMarkdown(target: string, report: StreamsReport): string {
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  const cpu = `${report.cpuMsPerHeart.user} + ${report.cpuMsPerHeart.system}`;
  const reach = ({ p50, p99, max }: StreamsReport["reachMs"]) => `${p50} | ${p99} | ${max}`;
  if (report.workers) {
    const byWorker = report.reachByWorkerMs;
    return [
      "",
      `One heart reaching ${report.streams} open event streams on ${report.workers} server processes (${target}), ${report.hearts} hearts:`,
      "",
      "| streams | on | reach p50 ms | reach p99 ms | reach max ms |",
      "|--:|---|--:|--:|--:|",
      `| ${report.streams} | every worker | ${reach(report.reachMs)} |`,
      ...(byWorker
        ? [
            `| | the worker that took the heart | ${reach(byWorker.tookTheHeart)} |`,
            `| | the other (through NOTIFY) | ${reach(byWorker.others)} |`,
          ]
        : []),
      `| | (the heart's answer) | ${reach(report.answerMs)} |`,
      ...(report.notifyMs
        ? [`| | (its NOTIFY, at a listener of the bench's) | ${reach(report.notifyMs)} |`]
        : []),
      "",
      `CPU time per heart, user + system: the workers' ${cpu} ms, the stream client's ${report.clientCpuMsPerHeart.user} + ${report.clientCpuMsPerHeart.system} ms.`,
      "",
    ].join("\n");
  }
  const heap = report.heapBytesPerStream ?? 0;
  const rss = report.rssBytesPerStream ?? 0;
  const delay = report.eventLoopDelayMs;
  // What one process can hold if streams may take half a GiB of its memory.
  const budget = 512 * 1024 * 1024;
  const perStream = Math.max(heap, rss, 1);
  return [
    "",
    `One heart reaching ${report.streams} open event streams on one process (${target}), ${report.hearts} hearts:`,
    "",
    "| streams | heap per stream | RSS per stream | reach p50 ms | reach p99 ms | reach max ms | event-loop delay p99 ms | max ms | CPU per heart, user + system ms |",
    "|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    `| ${report.streams} | ${kib(heap)} KiB | ${kib(rss)} KiB | ${reach(report.reachMs)} | ${delay?.p99} | ${delay?.max} | ${cpu} |`,
    "",
    `At this cost, 512 MiB of streams is about ${Math.floor(budget / perStream).toLocaleString("en")} streams per process.`,
    "",
  ].join("\n");
}

function markdown(rows: Row[], seconds: number): string {
  const lines = [
    `Prism bench: ${CONNECTIONS} connections, ${seconds} one-second slices per scenario after a ${WARMUP_SECONDS} s warm-up, taken in turn with as many of the bare node:http server; ratio = req/s ÷ the bare server's req/s; latencies are the medians of the slices'; server µs = the server thread's CPU time per request (the bare server's beside it), the median of the slices'.`,
    "",
    "| target | scenario | request | req/s | p50 ms | p97.5 ms | p99 ms | errors | non-2xx | baseline req/s | ratio | server µs | bare µs |",
    "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${[
        row.target,
        row.scenario,
        `\`${row.method} ${row.path}\``,
        Math.round(row.requestsPerSecond),
        row.latencyMs.p50,
        row.latencyMs.p97_5,
        row.latencyMs.p99,
        row.errors,
        row.non2xx,
        Math.round(row.baselineRequestsPerSecond),
        row.ratio.toFixed(3),
        row.serverMicros.toFixed(1),
        row.baselineServerMicros.toFixed(1),
      ].join(" | ")} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

async function main() {
  const seconds = benchSeconds(process.env.BENCH_SECONDS);
  const members = benchMembers(process.env.BENCH_MEMBERS);
  const streams = benchStreams(process.env.BENCH_STREAMS);
  const postgresUrl = process.env.BENCH_DATABASE_URL || undefined;
  const only = (process.env.BENCH_ONLY ?? "").toLowerCase().split("|");
  const runs = (name: string) => only.some((part) => name.toLowerCase().includes(part));
  const replies = runs(REPLIES) ? benchReplies(process.env.BENCH_REPLIES) : 0;
  // Checked before any load is generated, so a mistyped host fails in a second, not a minute.
  if (postgresUrl && !isLoopback(new URL(postgresUrl).hostname)) {
    throw new Error("BENCH_DATABASE_URL must point at a loopback address (localhost, 127.x, ::1)");
  }
  const targets = postgresUrl ? 2 : 1;
  // The scale scenarios run on PostgreSQL when there is one, else on PGlite; the fan-out on PGlite,
  // and with PostgreSQL also on the real server's processes.
  const cluster = postgresUrl !== undefined && streams > 0 && runs(FAN_OUT_CLUSTER);
  const scaleRuns = members.length * scaleScenarios(2).length;
  const largest = members.at(-1) ?? 0;
  // A hung connection or database must not keep CI waiting: everything has a known worst case.
  // Each scenario's slices alternate with as many of the baseline's.
  const budgetMs =
    (2 * 3 * (scenarios.length * targets + scaleRuns) * (seconds + 2 * WARMUP_SECONDS) +
      60 * targets +
      Math.ceil(largest / 1000) +
      Math.ceil(streams / 50) +
      // The server's start (migrations, the demo seed, its workers) and its streams.
      (cluster ? 120 + Math.ceil(streams / 50) : 0) +
      // The replies' app, a second a reply at worst, on each target.
      (replies > 0 ? (60 + replies) * targets : 0)) *
    1000;
  const deadline = setTimeout(() => {
    console.error(`bench: gave up after ${Math.round(budgetMs / 1000)} s`);
    process.exit(2);
  }, budgetMs);
  deadline.unref();

  const baseline = await startBaseline();
  const rows: Row[] = [];
  let embedded: TargetReport;
  try {
    embedded = await runPglite(
      { seconds, runs, streams, members: postgresUrl ? [] : members },
      baseline,
    );
    rows.push(...embedded.rows);
    if (postgresUrl) {
      const server = await runPostgres(
        postgresUrl,
        { seconds, runs, streams: 0, members },
        baseline,
      );
      rows.push(...server.rows);
    }
  } finally {
    await baseline.close();
  }
  const clusterStreams =
    postgresUrl && cluster ? await runCluster(postgresUrl, streams) : undefined;
  const repliesReports = replies > 0 ? await runReplies(postgresUrl, replies) : [];

  const table =
    markdown(rows, seconds) +
    (embedded.streams ? streamsMarkdown("pglite (memory)", embedded.streams) : "") +
    (clusterStreams ? streamsMarkdown("postgres, WORKERS=2", clusterStreams) : "") +
    repliesReports.map(([target, report]) => repliesMarkdown(target, report)).join("");
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(
    `${reportsDir}latest.json`,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        node: process.version,
        settings: {
          connections: CONNECTIONS,
          seconds,
          warmupSeconds: WARMUP_SECONDS,
          members,
          streams,
        },
        streams: embedded.streams,
        clusterStreams,
        replies: Object.fromEntries(repliesReports),
        rows: rows.map((row) => ({
          ...row,
          requestsPerSecond: round(row.requestsPerSecond, 1),
          ratio: round(row.ratio, 4),
          serverMicros: round(row.serverMicros, 1),
          baselineServerMicros: round(row.baselineServerMicros, 1),
        })),
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(`${reportsDir}latest.md`, table);
  process.stdout.write(table);

  const unexpected = (row: Row) =>
    row.expectStatus
      ? Object.entries(row.statusCodes).some(
          ([code, count]) => Number(code) !== row.expectStatus && count > 0,
        )
      : row.non2xx > 0;
  const failed = rows.filter((row) => row.errors > 0 || unexpected(row));
  for (const row of failed) {
    console.error(
      `bench: ${row.target} / ${row.scenario}: ${row.errors} errors, ${row.non2xx} non-2xx ${JSON.stringify(row.statusCodes)}`,
    );
  }
  for (const [target, report] of repliesReports) {
    if (report.refused > 0 || report.notPending > 0) {
      console.error(
        `bench: ${target} / ${REPLIES}: ${report.refused} refused, ${report.notPending} not pending`,
      );
      process.exitCode = 1;
    }
  }
  clearTimeout(deadline);
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
