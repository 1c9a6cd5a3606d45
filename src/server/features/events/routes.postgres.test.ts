// GET /api/events over a real listening server (inject does not stream), read with fetch.

import { connect } from "node:net";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismEvent } from "../../../contract/events.ts";
import { type App, buildApp } from "../../app.ts";
import { Versions } from "../../cache/versions.ts";
import { type Database, openDatabase } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { testDatabaseUrl, withDatabase } from "../../test/databases.ts";
import { isEvent, openStream } from "../../test/event-stream.ts";
import { jsonHeaders, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";
import { databaseName, spawnInstance } from "../../test/instances.ts";
import { eventStreamRoutes } from "./routes.ts";

const t = setupTestApp();
let base = "";
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});

type Stream = Awaited<ReturnType<typeof openStream>>;
const streams: Stream[] = [];
async function stream(origin: string, headers: Record<string, string> = {}, since?: string) {
  const opened = await openStream(origin, headers, since);
  streams.push(opened);
  if (opened.status === 200) await opened.connected();
  return opened;
}
afterAll(async () => {
  await Promise.all(streams.map((s) => s.close()));
});

function heart(origin: string, prismId: number, headers: Record<string, string> = {}) {
  return fetch(`${origin}/api/prisms/${prismId}/heart`, {
    method: "POST",
    headers: jsonHeaders(headers),
  });
}

async function ownerAndPrism(database: Database = t.database) {
  const owner = await buildUser(database);
  const prism = await buildPrism(database, { userId: owner.id });
  return { owner, prism };
}

/** What the stream's `live.ready` said. */
async function readyOf(s: Stream) {
  const ready = await s.waitFor((block) => block.event === "live.ready");
  return JSON.parse(ready.data ?? "") as { stamp: string; resumed?: boolean };
}

/** The events a stream has received and not yet taken, by type and data, in order. */
const received = (s: Stream) =>
  s.blocks.flatMap((block) => (block.event ? [`${block.event} ${block.data ?? ""}`] : []));

describe("GET /api/events", () => {
  it("opens an event stream with the right headers, a retry delay and a comment", async () => {
    const s = await stream(base);
    expect(s.status).toBe(200);
    expect(s.header("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(s.header("cache-control")).toBe("no-cache, no-transform");
    expect(s.header("x-accel-buffering")).toBe("no");
    expect(s.header("x-content-type-options")).toBe("nosniff");
    expect(s.header("x-request-id")).toBeTruthy();
    // The body is the connection's bytes until it closes: no chunked framing around each event.
    expect(s.header("connection")).toBe("close");
    expect(s.header("transfer-encoding")).toBeUndefined();
    expect(s.text().startsWith("retry: 3000\n\n: connected\n\n")).toBe(true);
    await s.close();
  });

  it("says first where the server stands in the changes: the stamp moves with each change", async () => {
    const stampOf = async (s: Stream) => (await readyOf(s)).stamp;
    const { prism } = await ownerAndPrism();
    const first = await stream(base);
    const before = await stampOf(first);
    const unchanged = await stream(base);
    expect(await stampOf(unchanged)).toBe(before);

    expect(
      (await heart(base, prism.id, { cookie: visitorCookie("visitor-events-stamp01") })).status,
    ).toBe(200);
    await first.waitFor(isEvent("heart.changed", { prismId: prism.id }));
    const after = await stream(base);
    expect(await stampOf(after)).not.toBe(before);
    for (const s of [first, unchanged, after]) await s.close();
  });

  it("replays to a stream opened `since` a stamp the changes made after it, then live ones", async () => {
    const { owner, prism } = await ownerAndPrism();
    const watching = await stream(base);
    const since = (await readyOf(watching)).stamp;
    for (const visitor of ["visitor-events-replay001", "visitor-events-replay002"]) {
      expect((await heart(base, prism.id, { cookie: visitorCookie(visitor) })).status).toBe(200);
    }
    await watching.waitFor(isEvent("heart.changed", { heartsCount: 2 }));
    await watching.close();

    const resumed = await stream(base, {}, since);
    expect((await readyOf(resumed)).resumed).toBe(true);
    expect(
      (await heart(base, prism.id, { cookie: visitorCookie("visitor-events-replay003") })).status,
    ).toBe(200);
    await resumed.waitFor(isEvent("heart.changed", { heartsCount: 3 }));
    const changed = (heartsCount: number) =>
      `heart.changed ${JSON.stringify({ prismId: prism.id, heartsCount, username: owner.username })}`;
    expect(received(resumed)).toEqual([changed(1), changed(2)]);
    await resumed.close();
  });

  it("tells a stream `since` a stamp of another boot to start over, and replays nothing", async () => {
    const { prism } = await ownerAndPrism();
    const s = await stream(base, {}, "0badb007-0");
    expect((await readyOf(s)).resumed).toBe(false);
    expect(
      (await heart(base, prism.id, { cookie: visitorCookie("visitor-events-replay004") })).status,
    ).toBe(200);
    await s.waitFor(isEvent("heart.changed", { prismId: prism.id }));
    expect(received(s)).toEqual([]);
    await s.close();
  });

  it("is described in the API docs and has no HEAD route", async () => {
    const docs = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(docs.json().paths["/api/events"]?.get?.tags).toEqual(["events"]);
    const head = await t.app.inject({ method: "HEAD", url: "/api/events" });
    expect(head.statusCode).not.toBe(200);
  });

  it("delivers a heart posted through the API as heart.changed with the new count", async () => {
    const { owner, prism } = await ownerAndPrism();
    const s = await stream(base);
    const first = await heart(base, prism.id, { cookie: visitorCookie("visitor-events-0000001") });
    expect(first.status).toBe(200);
    const block = await s.waitFor(isEvent("heart.changed", { prismId: prism.id }));
    expect(JSON.parse(block.data ?? "")).toEqual({
      prismId: prism.id,
      heartsCount: 1,
      username: owner.username,
    });
    await heart(base, prism.id, await signIn(t.database, await buildUser(t.database)));
    const second = await s.waitFor(isEvent("heart.changed", { prismId: prism.id }));
    expect(JSON.parse(second.data ?? "").heartsCount).toBe(2);
    await s.close();
  });

  it("sends notification.created only to the recipient's streams", async () => {
    const { owner, prism } = await ownerAndPrism();
    const other = await buildUser(t.database);
    const fan = await buildUser(t.database);
    const ownerStream = await stream(base, await signIn(t.database, owner));
    const otherStream = await stream(base, await signIn(t.database, other));
    const anonymousStream = await stream(base);

    const fanHeaders = await signIn(t.database, fan);
    expect((await heart(base, prism.id, fanHeaders)).status).toBe(200);
    const notified = await ownerStream.waitFor(isEvent("notification.created"));
    expect(JSON.parse(notified.data ?? "")).toEqual({});

    // A later event on the same connection proves the earlier one was not just late.
    expect((await heart(base, prism.id, fanHeaders)).status).toBe(200);
    for (const s of [otherStream, anonymousStream]) {
      await s.waitFor(isEvent("heart.changed", { prismId: prism.id, heartsCount: 1 }));
      await s.waitFor(isEvent("heart.changed", { prismId: prism.id, heartsCount: 0 }));
      expect(s.blocks.some(isEvent("notification.created"))).toBe(false);
      expect(s.text()).not.toContain("notification");
    }
    await Promise.all([ownerStream, otherStream, anonymousStream].map((s) => s.close()));
  });

  it("ends open streams when the app closes, and close() does not wait for them", async () => {
    const second = await buildApp({ config: t.config, database: t.database });
    const origin = await second.listen({ port: 0, host: "127.0.0.1" });
    const s = await stream(origin);
    const started = Date.now();
    await second.close();
    const took = Date.now() - started;
    await s.done;
    expect(s.isEnded()).toBe(true);
    expect(s.complete()).toBe(true);
    expect(took).toBeLessThan(2000);
  });
});

describe("event stream plugin", () => {
  function fakeBus() {
    const listeners = new Set<(event: PrismEvent, id: string) => void>();
    let named = 0;
    return {
      listeners,
      subscribe(listener: (event: PrismEvent, id: string) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onResync: () => () => {},
      /** Announces events, each to every listener under a name of its own, as the bus does. */
      emit(...events: PrismEvent[]) {
        for (const event of events) {
          named += 1;
          for (const listener of listeners) listener(event, `test/${named}/0`);
        }
      },
    };
  }
  async function small(
    options: {
      heartbeatMs?: number;
      maxStreams?: number;
      maxBufferedBytes?: number;
      replayEvents?: number;
    } = {},
  ) {
    const { replayEvents, ...limits } = options;
    const bus = fakeBus();
    const versions = new Versions(bus, "test secret", { replayEvents });
    const app = Fastify();
    // The member a request is from, as the session plugin would resolve it: `x-member: 7` or
    // `x-member: 1 admin`.
    app.decorateRequest("user", null);
    app.addHook("onRequest", async (request) => {
      const header = request.headers["x-member"];
      if (typeof header !== "string") return;
      const [id, role] = header.split(" ");
      request.user = { id: Number(id), isAdmin: role === "admin" } as UserRow;
    });
    await app.register(eventStreamRoutes, {
      prefix: "/api",
      bus,
      versions,
      ...limits,
    });
    const origin = await app.listen({ port: 0, host: "127.0.0.1" });
    return { app, bus, origin, versions };
  }
  it("sends a heartbeat comment on the injected interval", async () => {
    const { app, origin } = await small({ heartbeatMs: 20 });
    const s = await stream(origin);
    await s.waitFor((block) => block.comments.includes("ping"), 1000);
    await s.waitFor((block) => block.comments.includes("ping"), 1000);
    await s.close();
    await app.close();
  });

  it("listens to the bus once for all its streams, and lets go of it when the app closes", async () => {
    const { app, bus, origin } = await small();
    await stream(origin);
    await stream(origin);
    // Beside the one of the versions the stamps come from.
    expect(bus.listeners.size).toBe(2);
    await app.close();
    expect(bus.listeners.size).toBe(1);
  });

  it("writes each event to every open stream, in the order the events came", async () => {
    const { app, bus, origin } = await small();
    const opened = [await stream(origin), await stream(origin), await stream(origin)];
    for (const listener of bus.listeners) {
      for (const prismId of [1, 2, 3]) {
        listener({ type: "heart.changed", prismId, heartsCount: prismId, username: "ada" }, "");
      }
    }
    for (const s of opened) {
      const prismIds: number[] = [];
      for (let i = 0; i < 3; i++) {
        const block = await s.waitFor((b) => b.event === "heart.changed");
        prismIds.push(JSON.parse(block.data ?? "{}").prismId);
      }
      expect(prismIds).toEqual([1, 2, 3]);
    }
    await app.close();
  });

  it("sends each viewer what they may see: members' streams alike, others nothing of theirs", async () => {
    const { app, bus, origin } = await small();
    const viewers = {
      anonymous: await stream(origin),
      memberTab1: await stream(origin, { "x-member": "7" }),
      memberTab2: await stream(origin, { "x-member": "7" }),
      otherMember: await stream(origin, { "x-member": "8" }),
      admin: await stream(origin, { "x-member": "1 admin" }),
    };
    const events: PrismEvent[] = [
      { type: "annotation.changed", prismId: 5, username: "ada", audience: [7] },
      { type: "notification.created", userId: 8 },
      { type: "heart.changed", prismId: 5, heartsCount: 3, username: "ada" },
      { type: "prisms.changed", username: "ada" },
    ];
    for (const listener of bus.listeners) for (const event of events) listener(event, "");
    const received = async (s: Stream) => {
      await s.waitFor((block) => block.event === "prisms.changed");
      return s.blocks.flatMap((block) => (block.event ? [block.event] : []));
    };
    const everyone = ["live.ready", "heart.changed"];
    expect(await received(viewers.anonymous)).toEqual(everyone);
    expect(await received(viewers.memberTab1)).toEqual([
      "live.ready",
      "annotation.changed",
      "heart.changed",
    ]);
    expect(await received(viewers.memberTab2)).toEqual([
      "live.ready",
      "annotation.changed",
      "heart.changed",
    ]);
    expect(await received(viewers.otherMember)).toEqual([
      "live.ready",
      "notification.created",
      "heart.changed",
    ]);
    expect(await received(viewers.admin)).toEqual([
      "live.ready",
      "annotation.changed",
      "heart.changed",
    ]);
    await app.close();
  });

  it("replays to each viewer only the missed events it could have heard live, in order", async () => {
    const { app, bus, origin, versions } = await small();
    const since = versions.stamp();
    bus.emit(
      { type: "annotation.changed", prismId: 5, username: "ada", audience: [7] },
      { type: "heart.changed", prismId: 5, heartsCount: 3, username: "ada" },
      { type: "notification.created", userId: 8 },
      { type: "prisms.changed", username: "ada" },
    );
    const visitor = await stream(origin, {}, since);
    const author = await stream(origin, { "x-member": "7" }, since);
    for (const s of [visitor, author]) expect((await readyOf(s)).resumed).toBe(true);
    bus.emit({ type: "prisms.changed", username: "bob" });
    const heart = 'heart.changed {"prismId":5,"heartsCount":3,"username":"ada"}';
    const prisms = (username: string) => `prisms.changed {"username":"${username}"}`;
    for (const s of [visitor, author])
      await s.waitFor(isEvent("prisms.changed", { username: "bob" }));
    expect(received(visitor)).toEqual([heart, prisms("ada")]);
    expect(received(author)).toEqual(['annotation.changed {"prismId":5}', heart, prisms("ada")]);
    await app.close();
  });

  it("tells a stream `since` a stamp older than the events it keeps to start over", async () => {
    const { app, bus, origin, versions } = await small({ replayEvents: 2 });
    const since = versions.stamp();
    bus.emit({ type: "prisms.changed", username: "ada" });
    const withinReach = versions.stamp();
    bus.emit(
      { type: "prisms.changed", username: "bob" },
      { type: "prisms.changed", username: "cy" },
    );
    const tooOld = await stream(origin, {}, since);
    const kept = await stream(origin, {}, withinReach);
    expect(await readyOf(tooOld)).toEqual({ stamp: versions.stamp(), resumed: false });
    expect(await readyOf(kept)).toEqual({ stamp: versions.stamp(), resumed: true });
    bus.emit({ type: "prisms.changed", username: "dee" });
    for (const s of [tooOld, kept]) await s.waitFor(isEvent("prisms.changed", { username: "dee" }));
    expect(received(tooOld)).toEqual([]);
    expect(received(kept)).toEqual([
      'prisms.changed {"username":"bob"}',
      'prisms.changed {"username":"cy"}',
    ]);
    await app.close();
  });

  it("ends the streams of a member whose sessions ended, after saying so, and no one else's", async () => {
    const { app, bus, origin } = await small();
    const member = await stream(origin, { "x-member": "7" });
    const other = await stream(origin, { "x-member": "8" });
    for (const listener of bus.listeners) listener({ type: "sessions.ended", userId: 7 }, "");
    await member.waitFor(isEvent("sessions.ended"));
    await member.done;
    expect(member.complete()).toBe(true);
    for (const listener of bus.listeners) listener({ type: "prisms.changed", username: "ada" }, "");
    await other.waitFor(isEvent("prisms.changed"));
    expect(other.isEnded()).toBe(false);
    await app.close();
  });

  it("drops a client that stops reading once too much is left unsent, freeing its place", async () => {
    const { app, bus, origin } = await small({ maxStreams: 1, maxBufferedBytes: 64 * 1024 });
    const { port } = new URL(origin);
    const stalled = connect(Number(port), "127.0.0.1");
    stalled.write("GET /api/events HTTP/1.1\r\nhost: prism\r\n\r\n");
    await new Promise((resolve) => stalled.once("data", resolve));
    stalled.pause();
    const closed = new Promise((resolve) => stalled.once("close", resolve));
    stalled.on("error", () => {});
    expect((await fetch(`${origin}/api/events`)).status).toBe(503);
    // Far more than the socket buffers of both ends hold, so the rest waits in the server.
    const username = "a".repeat(64 * 1024);
    for (let i = 0; i < 400; i++) {
      for (const listener of bus.listeners) {
        listener({ type: "heart.changed", prismId: i, heartsCount: i, username }, "");
      }
    }
    let again = await stream(origin);
    for (let attempt = 0; attempt < 200 && again.status === 503; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      again = await stream(origin);
    }
    expect(again.status).toBe(200);
    stalled.resume();
    await closed;
    expect(stalled.destroyed).toBe(true);
    await app.close();
  });

  it("answers 503 beyond the cap of open streams, and frees a place on disconnect", async () => {
    const { app, origin } = await small({ maxStreams: 2 });
    const a = await stream(origin);
    await stream(origin);
    const refused = await fetch(`${origin}/api/events`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect((await refused.json()).message).toMatch(/temporarily unavailable/);
    await a.close();
    let again = await stream(origin);
    for (let attempt = 0; attempt < 200 && again.status === 503; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      again = await stream(origin);
    }
    expect(again.status).toBe(200);
    await app.close();
  });
});

describe("across instances", () => {
  const postgresUrl = testDatabaseUrl();

  it("delivers a heart posted through one app to a stream opened on another", async () => {
    // Instance A has its own connection pool (and LISTEN connection) to the same PostgreSQL
    // database; on PGlite two instances cannot share a database, so both apps share one.
    let databaseA = t.database;
    if (postgresUrl) {
      databaseA = openDatabase(withDatabase(postgresUrl, await databaseName(t.database)));
    } else {
      console.log(
        "live stream: PGlite run — both apps share one database object; the cross-database " +
          "half of this test runs only with TEST_DB=postgres",
      );
    }
    let appA: App | undefined;
    try {
      appA = await buildApp({ config: t.config, database: databaseA });
      const originA = await appA.listen({ port: 0, host: "127.0.0.1" });
      const { prism } = await ownerAndPrism();
      const onB = await stream(base);

      const posted = await heart(originA, prism.id, {
        cookie: visitorCookie("visitor-events-0000002"),
      });
      expect(posted.status).toBe(200);
      const block = await onB.waitFor(isEvent("heart.changed", { prismId: prism.id }), 10_000);
      expect(JSON.parse(block.data ?? "").heartsCount).toBe(1);
      await onB.close();
    } finally {
      await appA?.close();
      if (databaseA !== t.database) await databaseA.close();
    }
  });

  it.runIf(postgresUrl)(
    "delivers hearts between two OS processes on the same PostgreSQL",
    { timeout: 60_000 },
    async () => {
      if (!postgresUrl) return;
      const other = await spawnInstance(withDatabase(postgresUrl, await databaseName(t.database)));
      try {
        // Posted through the other process, read here.
        const { prism } = await ownerAndPrism();
        const here = await stream(base);
        expect(
          (await heart(other.origin, prism.id, { cookie: visitorCookie("visitor-events-0000003") }))
            .status,
        ).toBe(200);
        await here.waitFor(isEvent("heart.changed", { prismId: prism.id, heartsCount: 1 }), 10_000);

        // Posted here, read through the other process.
        const there = await stream(other.origin);
        expect(
          (await heart(base, prism.id, { cookie: visitorCookie("visitor-events-0000004") })).status,
        ).toBe(200);
        await there.waitFor(
          isEvent("heart.changed", { prismId: prism.id, heartsCount: 2 }),
          10_000,
        );
        await Promise.all([here.close(), there.close()]);
      } finally {
        await other.stop();
      }
    },
  );
});
