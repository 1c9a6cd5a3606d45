import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { serveMetrics } from "./metrics.ts";
import { buildPrism, buildUser } from "./test/builders.ts";
import { isEvent, openStream } from "./test/event-stream.ts";
import {
  jsonHeaders,
  send,
  setupTestApp,
  signIn,
  TEST_ORIGIN,
  visitorCookie,
} from "./test/helpers.ts";

const token = "metrics-token-for-the-test-suite-0001";
const t = setupTestApp({ METRICS_TOKEN: token });
let base = "";
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1] ?? "", labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of `name` that carry `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const response = await t.app.inject({ method: "GET", url: "/metrics", headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return { text: response.body, samples: parse(response.body) };
}

describe("configuration", () => {
  it("takes a metrics token of 32 characters or more, and a metrics port other than PORT", () => {
    const base = { NODE_ENV: "test" };
    expect(loadConfig(base)).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
    expect(loadConfig({ ...base, METRICS_TOKEN: token, METRICS_PORT: "9464" })).toMatchObject({
      metricsToken: token,
      metricsPort: 9464,
    });
    expect(() => loadConfig({ ...base, METRICS_TOKEN: "short" })).toThrow(/^Invalid METRICS_TOKEN/);
    expect(() => loadConfig({ ...base, METRICS_PORT: "http" })).toThrow(/^Invalid METRICS_PORT/);
    expect(() => loadConfig({ ...base, PORT: "9464", METRICS_PORT: "9464" })).toThrow(
      "Invalid METRICS_PORT: must differ from PORT",
    );
  });
});

describe("GET /metrics", () => {
  it("answers a stranger, or anyone when no token is set, as it answers a page that does not exist", async () => {
    const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test" });
    const untokened = await buildApp({ config, database: t.database });
    try {
      const missing = await t.app.inject({ method: "GET", url: "/no-such-page-here" });
      const strangers = [
        await t.app.inject({ method: "GET", url: "/metrics" }),
        await t.app.inject({ method: "GET", url: "/metrics", headers: bearer(`${token}x`) }),
        await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: token } }),
        await untokened.inject({ method: "GET", url: "/metrics", headers: bearer(token) }),
      ];
      for (const response of strangers) {
        expect(response.statusCode).toBe(missing.statusCode);
        expect(response.headers["content-type"]).toBe(missing.headers["content-type"]);
        expect(response.body).not.toContain("# HELP");
      }
    } finally {
      await untokened.close();
    }
  });

  it("serves Prometheus text with the bearer token: each request by its route pattern and status", async () => {
    await t.app.inject({ method: "GET", url: "/api/health" });
    await t.app.inject({ method: "GET", url: "/api/prisms/987654/heart" });
    const response = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers["cache-control"]).toBe("no-store");
    const samples = parse(response.body);
    const duration = "prism_http_request_duration_seconds_count";
    expect(
      total(samples, duration, { method: "GET", route: "/api/health", status_code: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      total(samples, duration, {
        method: "GET",
        route: "/api/prisms/:prismId/heart",
        status_code: "404",
      }),
    ).toBeGreaterThanOrEqual(1);
    // The pattern, never the address asked for.
    expect(response.body).not.toContain("987654");
    for (const [name, type] of [
      ["prism_http_request_duration_seconds", "histogram"],
      ["prism_event_streams_open", "gauge"],
      ["prism_events_delivered_total", "counter"],
      ["prism_event_delivery_lag_seconds", "histogram"],
      ["prism_cache_hits_total", "counter"],
      ["prism_cache_misses_total", "counter"],
      ["prism_db_pool_size", "gauge"],
      ["prism_db_pool_in_use", "gauge"],
      ["prism_db_pool_waiting", "gauge"],
      ["prism_rate_limit_refusals_total", "counter"],
      ["process_resident_memory_bytes", "gauge"],
      ["nodejs_heap_size_used_bytes", "gauge"],
    ]) {
      expect(response.body).toContain(`\n# TYPE ${name} ${type}\n`);
    }
    expect(total(samples, "prism_db_pool_size")).toBeGreaterThanOrEqual(1);
    expect(total(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("counts open event streams, the events written to them and how long each took to get there", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const before = (await scrape()).samples;
    const stream = await openStream(base);
    try {
      await stream.connected();
      const opened = (await scrape()).samples;
      expect(total(opened, "prism_event_streams_open")).toBe(
        total(before, "prism_event_streams_open") + 1,
      );
      const hearted = await fetch(`${base}/api/prisms/${prism.id}/heart`, {
        method: "POST",
        headers: jsonHeaders({ cookie: visitorCookie("visitor-metrics-00000001") }),
      });
      expect(hearted.status).toBe(200);
      await stream.waitFor(isEvent("heart.changed", { prismId: prism.id }));
      const after = (await scrape()).samples;
      const delivered = "prism_events_delivered_total";
      expect(total(after, delivered)).toBeGreaterThanOrEqual(total(before, delivered) + 1);
      const lag = "prism_event_delivery_lag_seconds_count";
      expect(total(after, lag)).toBeGreaterThanOrEqual(total(before, lag) + 1);
    } finally {
      await stream.close();
    }
    await expect
      .poll(async () => total((await scrape()).samples, "prism_event_streams_open"))
      .toBe(total(before, "prism_event_streams_open"));
  });

  it("leaves event streams, which stay open, out of the request durations", async () => {
    // Other test files in this process answer /api/events too (refusals, which count): compare.
    const durations = async () =>
      total((await scrape()).samples, "prism_http_request_duration_seconds_count", {
        route: "/api/events",
      });
    const before = await durations();
    const member = await buildUser(t.database);
    const cookie = await signIn(t.database, member);
    const stream = await openStream(base, cookie);
    await stream.connected();
    const loggedOut = await fetch(`${base}/api/logout`, {
      method: "POST",
      headers: jsonHeaders(cookie),
    });
    expect(loggedOut.status).toBe(204);
    // The server ends the stream (the member signed out), as it ends every stream some day.
    await stream.done;
    expect(stream.complete()).toBe(true);
    expect(await durations()).toBe(before);
  });

  it("counts the answer caches' hits and misses", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const before = (await scrape()).samples;
    for (let i = 0; i < 2; i++) {
      await send(t.app, "GET", `/api/prisms/${prism.id}/heart`);
      await send(t.app, "GET", `/api/users/${owner.username}`);
    }
    const after = (await scrape()).samples;
    const moved = (name: string, cache: string) =>
      total(after, name, { cache }) - total(before, name, { cache });
    // Each memo misses once, then hits.
    expect(moved("prism_cache_misses_total", "heart-counts")).toBe(1);
    expect(moved("prism_cache_hits_total", "heart-counts")).toBe(1);
    // The profile's answer is kept whole and answered from memory the second time. A heart status
    // asked without a browser id is looked for too, once memory tags it, but never kept: its
    // answer gives the browser its id.
    expect(moved("prism_cache_hits_total", "answers")).toBe(1);
    expect(moved("prism_cache_misses_total", "answers")).toBe(2);
  });

  it("keeps a browser's own answers whole, under tags that sign its cookie", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const headers = { cookie: visitorCookie("visitor-kept-answers-01") };
    const other = { cookie: visitorCookie("visitor-kept-answers-02") };
    const statusOf = (cookie: Record<string, string>) =>
      send(t.app, "GET", `/api/prisms/${prism.id}/heart`, { headers: cookie });
    const before = (await scrape()).samples;
    // The first read is tagged by the read itself; the second is tagged from memory and kept;
    // the third is answered from the kept answer. Another browser's answer is its own.
    const answers = [await statusOf(headers), await statusOf(headers), await statusOf(headers)];
    const others = await statusOf(other);
    const after = (await scrape()).samples;
    expect(answers.map((answer) => answer.json())).toEqual(
      Array(3).fill({ hearted: false, heartsCount: 0 }),
    );
    expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1);
    expect(others.headers.etag).not.toBe(answers[0]?.headers.etag);
    const moved = (name: string) =>
      total(after, name, { cache: "answers" }) - total(before, name, { cache: "answers" });
    expect(moved("prism_cache_hits_total")).toBe(1);
    expect(moved("prism_cache_misses_total")).toBe(2);
  });

  it("reports the database connections in use and the transactions waiting for one", async () => {
    const { size } = t.database.usage();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // One transaction more than there are connections, each holding its connection until released.
    const transactions = Array.from({ length: size + 1 }, () =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await held;
      }),
    );
    try {
      const { samples } = await scrape();
      expect(total(samples, "prism_db_pool_in_use")).toBeGreaterThanOrEqual(size);
      expect(total(samples, "prism_db_pool_waiting")).toBeGreaterThanOrEqual(1);
    } finally {
      release();
      await Promise.all(transactions);
    }
    const { samples } = await scrape();
    expect(total(samples, "prism_db_pool_waiting")).toBe(0);
  });

  it("counts the requests refused by a rate limit, by route", async () => {
    const name = "prism_rate_limit_refusals_total";
    const route = { route: "/api/contact" };
    const before = (await scrape()).samples;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await send(t.app, "POST", "/api/contact", {
        payload: {
          name: "Ada",
          email: "ada@example.com",
          subject: "Hello",
          message: "A message long enough to send.",
        },
        remoteAddress: "203.0.113.77",
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const after = (await scrape()).samples;
    expect(total(after, name, route)).toBe(total(before, name, route) + 2);
  });
});

describe("METRICS_PORT", () => {
  let server: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  afterAll(() => server?.close());

  it("serves the metrics on the loopback address alone, without a token", async () => {
    server = await serveMetrics(0);
    const address = server.address();
    if (typeof address !== "object" || !address) throw new Error("not listening");
    expect(address.address).toBe("127.0.0.1");
    const response = await fetch(`http://127.0.0.1:${address.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parse(await response.text());
    expect(samples.some((s) => s.name === "prism_http_request_duration_seconds_count")).toBe(true);
    expect((await fetch(`http://127.0.0.1:${address.port}/`)).status).toBe(404);
  });
});
