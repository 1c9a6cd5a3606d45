// Another server of the fediverse, for tests: a second Fedify federation with its own keys,
// serving two actors (`bob`, and `eve` who is not him) over HTTP on a local port, keeping what its inbox receives; and
// Prism's app served on its own port, so that deliveries between them really travel over HTTP.
import { createServer, type IncomingMessage, type Server } from "node:http";
import {
  createFederation,
  type Federation,
  generateCryptoKeyPair,
  MemoryKvStore,
} from "@fedify/fedify";
import {
  Accept,
  type Activity,
  Create,
  Delete,
  Person,
  Reject,
  Update,
} from "@fedify/fedify/vocab";
import { afterAll, beforeAll } from "vitest";
import { type App, buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { PrismRow, UserRow } from "../db/schema.ts";
import type { FederationSettings } from "../features/federation/federation.ts";
import { buildPrism, buildUser } from "./builders.ts";
import { type Crowd, startCrowd } from "./crowd.ts";
import { createTestDatabase } from "./databases.ts";
import { setupTestDatabase, TEST_SECRET } from "./helpers.ts";
import { freePort } from "./ports.ts";

/** A request Node's server received, as the web's Request. */
async function toRequest(request: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(request.url ?? "/", origin), {
    method: request.method,
    headers,
    body: request.method === "GET" || request.method === "HEAD" ? undefined : body,
  });
}

/** The actors the other server serves. */
const ACTORS = ["bob", "eve"];

export interface RemoteServer {
  origin: string;
  federation: Federation<void>;
  /** What bob's inbox received, in order. */
  received: Activity[];
  /** Every delivery tried, answered or not: the path it was posted to, and when. */
  deliveries: { path: string; at: number }[];
  /** bob's actor URI. */
  bob: URL;
  keys: CryptoKeyPair;
  close: () => Promise<void>;
}

/**
 * Starts the other server: bob's actor and inbox, keeping what arrives; its inbox answers the
 * first `failures` deliveries 503, as a server that is down for a while.
 */
export async function startRemoteServer(failures = 0): Promise<RemoteServer> {
  let failed = 0;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const federation = createFederation<void>({
    kv: new MemoryKvStore(),
    origin,
    allowPrivateAddress: true,
  });
  const received: Activity[] = [];
  const deliveries: { path: string; at: number }[] = [];
  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (!ACTORS.includes(identifier)) return null;
      const [key] = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: identifier === "bob" ? "Bob" : "Eve",
        inbox: ctx.getInboxUri(identifier),
        publicKey: key?.cryptographicKey ?? null,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => (ACTORS.includes(identifier) ? [keys] : []));
  const keep = async (_ctx: unknown, activity: Activity) => void received.push(activity);
  federation
    .setInboxListeners("/users/{identifier}/inbox")
    .on(Accept, keep)
    .on(Create, keep)
    .on(Update, keep)
    .on(Delete, keep)
    .on(Reject, keep);
  const server: Server = createServer((request, response) => {
    if (request.method === "POST") deliveries.push({ path: request.url ?? "", at: Date.now() });
    if (request.method === "POST" && failed < failures) {
      failed += 1;
      response.writeHead(503).end();
      return;
    }
    void (async () => {
      const answer = await federation.fetch(await toRequest(request, origin), {
        contextData: undefined,
      });
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      response.end(Buffer.from(await answer.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin,
    federation,
    received,
    deliveries,
    bob: new URL(`${origin}/users/bob`),
    keys,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Prism's app on `database`, listening on a port of its own, its origin that address (or `origin`,
 * when it is a second instance behind the first one's address); it reaches servers on this machine
 * unless `allowPrivateAddress` is false, as in production.
 */
export async function servePrism(
  database: Database,
  allowPrivateAddress = true,
  origin?: string,
  settings: FederationSettings = {},
): Promise<{ app: App; origin: string }> {
  const port = await freePort();
  const appOrigin = origin ?? `http://127.0.0.1:${port}`;
  const config = loadConfig({
    APP_ORIGIN: appOrigin,
    SEED: "none",
    NODE_ENV: "test",
    APP_SECRET: TEST_SECRET,
  });
  const app = await buildApp({
    config,
    database,
    federation: {
      allowPrivateAddress,
      queueTiming: { pollMs: 50, leaseMs: 60_000 },
      firstRetryDelay: { milliseconds: 200 },
      ...settings,
    },
  });
  await app.listen({ port, host: "127.0.0.1" });
  return { app, origin: appOrigin };
}

/** A test file's own fediverse: its database, Prism serving it, and the other server. */
export interface TestFediverse {
  database: Database;
  prism: { app: App; origin: string };
  remote: RemoteServer;
}

/**
 * One fediverse for all of a test file's tests: a database, Prism's app on a port of its own and
 * the other server, started together before the first test and closed after the last. Prism
 * reaches servers on this machine unless `allowPrivateAddress` is false; the other server
 * answers its first `failures` deliveries 503.
 */
export function setupFediverse(
  options: { allowPrivateAddress?: boolean; failures?: number; settings?: FederationSettings } = {},
): TestFediverse {
  const context = {} as TestFediverse;
  let drop: () => Promise<void> = async () => {};
  // Two hooks, each with its own time: the database and the other server (together), then Prism.
  beforeAll(async () => {
    const [created, remote] = await Promise.all([
      createTestDatabase().then(async (created) => {
        // PGlite starts on its first query: here, beside the other server's start.
        await created.database.ping();
        return created;
      }),
      startRemoteServer(options.failures ?? 0),
    ]);
    drop = created.drop;
    context.database = created.database;
    context.remote = remote;
  });
  beforeAll(async () => {
    context.prism = await servePrism(
      context.database,
      options.allowPrivateAddress ?? true,
      undefined,
      options.settings,
    );
  });
  afterAll(async () => {
    await context.prism?.app.close();
    await context.remote?.close();
    await drop();
  });
  return context;
}

/** A crowd replying to a member's essay: Prism serving them, and the crowd's server. */
export interface CrowdScene {
  database: Database;
  prism: { app: App; origin: string };
  crowd: Crowd;
  ada: UserRow;
  essay: PrismRow;
}

/**
 * For a test file: its database, Prism serving it (with `settings`), a crowd of `actors`, and a
 * member who federates (`username`) with one essay for the crowd to answer.
 */
export function setupCrowdScene(
  actors: number,
  username: string,
  settings?: FederationSettings,
): CrowdScene {
  const t = setupTestDatabase();
  const scene = {} as CrowdScene;
  beforeAll(async () => {
    scene.database = t.database;
    scene.prism = await servePrism(t.database, true, undefined, settings);
    scene.crowd = await startCrowd(actors);
    scene.ada = await buildUser(t.database, { username, federated: true });
    scene.essay = await buildPrism(t.database, {
      userId: scene.ada.id,
      title: "How I work",
      content: "<p>Mornings are for deep work. Afternoons are for meetings and mail.</p>",
    });
  });
  afterAll(async () => {
    await scene.prism?.app.close();
    await scene.crowd?.close();
  });
  return scene;
}
