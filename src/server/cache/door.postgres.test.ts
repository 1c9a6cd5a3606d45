// The door (door.ts) answers over real HTTP what the hooks would answer (app.inject goes past
// it, straight to Fastify): the same headers and body, for the same viewers, never a stale
// answer, measured and logged alike, and nothing once the app closes.
import { Agent, request as httpRequest } from "node:http";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEARD_EVENT_HEADER } from "../../contract/events.ts";
import { type App, buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { loggerOptions } from "../log.ts";
import { cacheHits, requestDuration } from "../metrics.ts";
import { buildPrism, buildUser } from "../test/builders.ts";
import {
  send,
  setupTestApp,
  setupTestDatabase,
  signIn,
  TEST_ORIGIN,
  TEST_SECRET,
  visitorCookie,
} from "../test/helpers.ts";

const t = setupTestApp();
let base = "";
beforeAll(async () => {
  base = await t.app.listen({ host: "127.0.0.1", port: 0 });
});

/** How many answers the door has given. */
const doorAnswers = async () =>
  (await cacheHits.get()).values.find((value) => value.labels.cache === "door")?.value ?? 0;

/** A GET over HTTP, through the door, with the answer's headers as one object. */
async function get(path: string, headers: Record<string, string> = {}) {
  const before = await doorAnswers();
  const response = await fetch(`${base}${path}`, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
    atTheDoor: (await doorAnswers()) > before,
  };
}

/** The headers that name the answer, not the moment or the request. */
const named = (headers: Record<string, string>) => {
  const { date: _date, "x-request-id": _id, ...rest } = headers;
  return rest;
};

describe("the door", () => {
  it("answers a read it has seen as the hooks answer it: the same headers and body, and the request's own id", async () => {
    const owner = await buildUser(t.database);
    // Long enough to go out compressed when the browser asks for it so.
    const content = `<p>${"Mornings are for the work that needs a quiet head. ".repeat(40)}</p>`;
    await buildPrism(t.database, { userId: owner.id, title: "Mornings", content });
    const path = `/api/prisms/${owner.username}`;
    const plain = { "accept-encoding": "identity" };
    // The first read finds the list in no memory; the second keeps its answer; the third is it.
    const first = await get(path, plain);
    const read = await get(path, plain);
    const kept = await get(path, { ...plain, "x-request-id": "kept-at-the-door" });
    const unchanged = await get(path, { "if-none-match": read.headers.etag ?? "" });

    expect([first.atTheDoor, read.atTheDoor, kept.atTheDoor, unchanged.atTheDoor]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect([read.status, kept.status, unchanged.status]).toEqual([200, 200, 304]);
    expect(kept.body.equals(read.body)).toBe(true);
    expect(named(kept.headers)).toEqual(named(read.headers));
    const { "content-type": _type, "content-length": _length, ...bodiless } = named(read.headers);
    expect(named(unchanged.headers)).toEqual(bodiless);
    expect(kept.headers["x-request-id"]).toBe("kept-at-the-door");
    expect(unchanged.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(unchanged.headers["x-request-id"]).not.toBe(read.headers["x-request-id"]);

    // Compressed as the browser asks, as the hooks compress it (fetch reads it uncompressed;
    // app.inject asks the hooks themselves).
    const brotli = await get(path, { "accept-encoding": "br" });
    const byHooks = await t.app.inject({ url: path, headers: { "accept-encoding": "br" } });
    expect(brotli.atTheDoor).toBe(true);
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toBe("accept-encoding");
    expect(Number(brotli.headers["content-length"])).toBeLessThan(read.body.length);
    expect(brotli.body.equals(read.body)).toBe(true);
    const { "keep-alive": _k, ...overHttp } = named(brotli.headers);
    expect(overHttp).toEqual(named(byHooks.headers as Record<string, string>));
    expect(brotliDecompressSync(byHooks.rawPayload).equals(read.body)).toBe(true);
  });

  it("answers a browser with the id the server signed it as its own, and leaves every other asker to the plugins", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, heartsCount: 2 });
    const path = `/api/prisms/${prism.id}/heart`;
    const browser = { cookie: visitorCookie("door-browser-00000001") };
    await get(path, browser);
    const read = await get(path, browser);
    const kept = await get(path, browser);
    expect(kept.atTheDoor).toBe(true);
    expect(kept.body.equals(read.body)).toBe(true);
    expect(JSON.parse(kept.body.toString())).toEqual({ heartsCount: 2, hearted: false });

    // Another browser has its own tag: the first one's 304 is not its.
    const other = await get(path, {
      cookie: visitorCookie("door-browser-00000002"),
      "if-none-match": read.headers.etag ?? "",
    });
    expect(other.status).toBe(200);

    // A member, a browser id the server did not sign, and a page waiting to hear of a change are
    // the plugins' to answer.
    const member = await get(path, await signIn(t.database, owner));
    const forged = await get(path, { cookie: visitorCookie("door-browser-00000001", "not ours") });
    const waiting = await get(path, { ...browser, [HEARD_EVENT_HEADER]: "0" });
    expect([member.atTheDoor, forged.atTheDoor, waiting.atTheDoor]).toEqual([false, false, false]);
    expect([member.status, forged.status, waiting.status]).toEqual([200, 200, 200]);
    // The forged id is dropped, and the browser given one of the server's own.
    expect(forged.headers["set-cookie"]).toMatch(/^vid=/);
  });

  it("never answers with what a change has moved on from", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, title: "Mornings" });
    const path = `/api/prisms/${owner.username}`;
    await get(path);
    const read = await get(path);
    expect((await get(path)).atTheDoor).toBe(true);

    const saved = await send(t.app, "PUT", `/api/prisms/${prism.id}`, {
      headers: await signIn(t.database, owner),
      payload: { title: "Evenings", content: prism.content },
    });
    expect(saved.statusCode).toBe(200);
    const changed = await get(path);
    const unchanged = await get(path, { "if-none-match": read.headers.etag ?? "" });
    expect(changed.atTheDoor).toBe(false);
    expect(JSON.parse(changed.body.toString()).map((p: { title: string }) => p.title)).toEqual([
      "Evenings",
    ]);
    expect(unchanged.status).toBe(200);
  });

  it("measures each answer it gives under its route, as the plugins measure the rest", async () => {
    const owner = await buildUser(t.database);
    const path = `/api/users/${owner.username}`;
    const count = async (status: number) =>
      (await requestDuration.get()).values.find(
        (value) =>
          value.metricName === "prism_http_request_duration_seconds_count" &&
          value.labels.route === "/api/users/:username" &&
          value.labels.status_code === status,
      )?.value ?? 0;
    const { headers } = await get(path);
    const before = await count(304);
    const unchanged = await get(path, { "if-none-match": headers.etag ?? "" });
    expect(unchanged.atTheDoor).toBe(true);
    expect(await count(304)).toBe(before + 1);
  });
});

describe("the door's log and its closing", () => {
  const d = setupTestDatabase();
  const lines: string[] = [];
  let app: App;
  let closed: Promise<undefined> | undefined;
  let origin = "";
  beforeAll(async () => {
    const config = loadConfig({
      APP_ORIGIN: TEST_ORIGIN,
      SEED: "none",
      NODE_ENV: "test",
      APP_SECRET: TEST_SECRET,
    });
    app = await buildApp({
      config,
      database: d.database,
      logger: { ...loggerOptions("info"), stream: { write: (line: string) => lines.push(line) } },
    });
    origin = await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => closed ?? app.close());

  /** A GET on one kept-alive connection, with the answer's status and headers. */
  const agentGet = (path: string, agent: Agent, headers = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      httpRequest(`${origin}${path}`, { agent, headers }, (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers }),
        );
      })
        .on("error", reject)
        .end();
    });

  it("logs each answer in the one line the plugins write, and stops answering once the app closes", async () => {
    const owner = await buildUser(d.database);
    const path = `/api/users/${owner.username}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const read = await agentGet(path, agent, { "x-request-id": "read-by-the-plugins" });
    await agentGet(path, agent, { "x-request-id": "kept-by-the-plugins" });
    const before = await doorAnswers();
    await agentGet(path, agent, { "x-request-id": "answered-at-the-door" });
    expect(await doorAnswers()).toBe(before + 1);

    const logged = (id: string) =>
      lines.map((line) => JSON.parse(line)).filter((line) => line.reqId === id);
    const [byPlugins] = logged("kept-by-the-plugins");
    const [atTheDoor] = logged("answered-at-the-door");
    expect(logged("answered-at-the-door")).toHaveLength(1);
    const shape = (line: Record<string, unknown>) => ({
      ...line,
      time: 0,
      reqId: "",
      responseTime: typeof line.responseTime,
    });
    expect(shape(atTheDoor)).toEqual(shape(byPlugins));
    expect(atTheDoor).toMatchObject({
      msg: "request completed",
      req: { method: "GET", url: path, host: new URL(origin).host, remoteAddress: "127.0.0.1" },
      res: { statusCode: 200 },
    });

    // Closing, the app answers every request still to come on an open connection, and tells it to
    // go: the door answers none of them.
    closed = app.close();
    while (app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    const last = await agentGet(path, agent, { "if-none-match": String(read.headers.etag) });
    expect(last.status).toBe(304);
    expect(last.headers.connection).toBe("close");
    expect(await doorAnswers()).toBe(before + 1);
    agent.destroy();
    await closed;
  });
});
