// Every limited route answers 429 with Retry-After and the error shape once its limit is used
// up; per-address limits see the real client behind a trusted proxy, and only there.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { annotationMessages } from "../../src/contract/annotation-messages.ts";
import { authMessages } from "../../src/contract/auth.ts";
import { contactMessages } from "../../src/contract/contact.ts";
import { passwordResetMessages } from "../../src/contract/password-reset.ts";
import { heartMessages } from "../../src/contract/prisms.ts";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { buildPrism, buildUser } from "../../src/server/test/builders.ts";
import { testDatabaseUrl } from "../../src/server/test/databases.ts";
import {
  asSent,
  send,
  setupTestApp,
  signIn,
  TEST_ORIGIN,
  visitorCookie,
} from "../../src/server/test/helpers.ts";

const t = setupTestApp();

type Sent = Awaited<ReturnType<typeof send>>;

/** Sends until the answer is not `ok`; expects exactly `allowed` successes, then a 429. */
async function exhaust(allowed: number, call: (i: number) => Promise<Sent>, message: string) {
  for (let i = 0; i < allowed; i++) {
    const answer = await call(i);
    expect(answer.statusCode, `call ${i + 1}: ${answer.body}`).toBeLessThan(400);
  }
  const limited = await call(allowed);
  expect(limited.statusCode).toBe(429);
  expect(limited.json()).toEqual({ message });
  expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  return limited;
}

const vid = (n: number | string) => ({
  cookie: visitorCookie(`limits-visitor-${String(n).padStart(6, "0")}`),
});

describe("limits", () => {
  it("registrations: 10 an hour per address", async () => {
    await exhaust(
      10,
      (i) =>
        send(t.app, "POST", "/api/register", {
          payload: {
            username: `newcomer_${i}`,
            email: `newcomer_${i}@example.com`,
            firstName: "New",
            lastName: "Comer",
            password: "secret-1",
          },
          remoteAddress: "10.20.0.1",
        }),
      authMessages.tooManyRegistrations,
    );
  });

  it("hearts: 60 in ten minutes per address, however many cookies it uses", async () => {
    const owner = await buildUser(t.database);
    // Four prisms, so that no one prism's own bound (below) is reached first.
    const prisms = await Promise.all(
      [0, 1, 2, 3].map((index) => buildPrism(t.database, { userId: owner.id, index })),
    );
    await exhaust(
      60,
      (i) =>
        send(t.app, "POST", `/api/prisms/${prisms[i % 4]?.id}/heart`, {
          headers: vid(i),
          remoteAddress: "10.20.0.2",
        }),
      heartMessages.tooMany,
    );
  });

  it("hearts: 20 anonymous ones a day on one prism per address; members count as themselves", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const other = await buildPrism(t.database, { userId: owner.id, index: 1 });
    const from = { remoteAddress: "10.20.0.9" };
    await exhaust(
      20,
      (i) =>
        send(t.app, "POST", `/api/prisms/${prism.id}/heart`, { headers: vid(`p${i}`), ...from }),
      heartMessages.tooMany,
    );
    const status = await send(t.app, "GET", `/api/prisms/${prism.id}/heart`, { headers: vid("r") });
    expect(status.json()).toMatchObject({ heartsCount: 20 });
    // Another prism, and a member at the same address, still heart.
    expect(
      (await send(t.app, "POST", `/api/prisms/${other.id}/heart`, { headers: vid("q"), ...from }))
        .statusCode,
    ).toBe(200);
    const member = await buildUser(t.database);
    const headers = await signIn(t.database, member);
    expect(
      (await send(t.app, "POST", `/api/prisms/${prism.id}/heart`, { headers, ...from })).statusCode,
    ).toBe(200);
  });

  it("annotations: 10 per anonymous browser, 30 per member and 30 per address, in ten minutes", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const respond = async (headers: Record<string, string>, remoteAddress: string) =>
      send(t.app, "POST", "/api/annotations", {
        headers,
        remoteAddress,
        payload: await asSent(
          t.app,
          headers,
          {
            prismId: prism.id,
            selectedText: "Mornings",
            annotationText: "Same here",
            selectionStart: 0,
            selectionEnd: 8,
          },
          remoteAddress,
        ),
      });
    await exhaust(10, () => respond(vid("one"), "10.20.1.1"), annotationMessages.tooMany);
    const member = await signIn(t.database, await buildUser(t.database));
    await exhaust(30, (i) => respond(member, `10.20.2.${i}`), annotationMessages.tooMany);
    await exhaust(30, (i) => respond(vid(`many-${i}`), "10.20.3.1"), annotationMessages.tooMany);
  });

  it("contact messages: 5 in ten minutes per address", async () => {
    await exhaust(
      5,
      () =>
        send(t.app, "POST", "/api/contact", {
          payload: {
            name: "Ada",
            email: "ada@example.com",
            subject: "Hi",
            message: "Hello, team!",
          },
          remoteAddress: "10.20.4.1",
        }),
      contactMessages.tooMany,
    );
  });

  it("reset e-mails: 10 in fifteen minutes per address", async () => {
    await exhaust(
      10,
      (i) =>
        send(t.app, "POST", "/api/password-reset/request", {
          payload: { login: `nobody_${i}` },
          remoteAddress: "10.20.6.1",
        }),
      passwordResetMessages.tooMany,
    );
  });
});

// On PostgreSQL the counters are the database's: every instance serving it spends from the same
// ones (on PGlite there is one process, which keeps them in memory).
describe.runIf(testDatabaseUrl())("two instances on one PostgreSQL database", () => {
  let other: App;
  beforeAll(async () => {
    other = await buildApp({ config: t.config, database: t.database });
    await other.ready();
  });
  afterAll(() => other?.close());

  it("refuse the 6th wrong sign-in from one address, whichever instance the 5 went to", async () => {
    const owner = await buildUser(t.database);
    const login = (app: App) =>
      send(app, "POST", "/api/login", {
        payload: { username: owner.username, password: "wrong-guess" },
        remoteAddress: "10.20.7.1",
      });
    for (const app of [t.app, other, t.app, other, t.app]) {
      expect((await login(app)).statusCode).toBe(401);
    }
    const refused = await login(other);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: authMessages.tooManyAttempts });
    const again = await login(t.app);
    expect(again.statusCode).toBe(429);
    // One window for both: its end is 15 minutes after the first try, and nearer the later.
    const waits = [refused, again].map((answer) => Number(answer.headers["retry-after"]));
    expect(waits[0]).toBeLessThanOrEqual(15 * 60);
    expect(waits[1]).toBeGreaterThan(0);
    expect(waits[1]).toBeLessThanOrEqual(waits[0] ?? 0);
    // Once the window has ended, the next try starts a new one, on either instance.
    await t.database.db.execute(
      sql`update rate_limits set expires_at = now() where key like ${"%10.20.7.1"}`,
    );
    expect((await login(other)).statusCode).toBe(401);
    expect((await login(t.app)).statusCode).toBe(401);
  });

  it("refuse the 11th reset request from one address, whichever instance the 10 went to", async () => {
    const request = (app: App, i: number) =>
      send(app, "POST", "/api/password-reset/request", {
        payload: { login: `nobody_${i}` },
        remoteAddress: "10.20.7.2",
      });
    for (let i = 0; i < 10; i++) {
      expect((await request(i % 2 ? other : t.app, i)).statusCode).toBe(202);
    }
    for (const app of [t.app, other]) {
      const limited = await request(app, 10);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: passwordResetMessages.tooMany });
    }
  });

  it("count requests that arrive together once each", async () => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        send(i % 2 ? other : t.app, "POST", "/api/password-reset/request", {
          payload: { login: `nobody_${i}` },
          remoteAddress: "10.20.7.3",
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(10).fill(202), ...Array(6).fill(429)]);
  });
});

describe("event streams", () => {
  const origin = { value: "" };

  async function open(headers: Record<string, string>) {
    if (!origin.value) origin.value = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const aborter = new AbortController();
    const response = await fetch(`${origin.value}/api/events`, { headers, signal: aborter.signal });
    return { response, close: () => aborter.abort() };
  }

  it("allow 10 at once per session or browser, then 429, and free a place when one closes", async () => {
    const member = await signIn(t.database, await buildUser(t.database));
    const streams = [];
    for (let i = 0; i < 10; i++) {
      const stream = await open(member);
      expect(stream.response.status).toBe(200);
      streams.push(stream);
    }
    const refused = await open(member);
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.response.json()).toEqual({ message: expect.any(String) });
    // Another browser on the same address is not affected.
    const other = await open(vid("stream-other"));
    expect(other.response.status).toBe(200);
    other.close();
    streams[0]?.close();
    let again = await open(member);
    for (let i = 0; i < 50 && again.response.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await open(member);
    }
    expect(again.response.status).toBe(200);
    for (const stream of [...streams, again]) stream.close();
  });
});

describe("behind a proxy", () => {
  async function appWith(env: Record<string, string>) {
    const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test", ...env });
    const app = await buildApp({ config, database: t.database });
    await app.ready();
    return app;
  }
  const contact = (app: Awaited<ReturnType<typeof appWith>>, client: string) =>
    send(app, "POST", "/api/contact", {
      payload: { name: "Ada", email: "ada@example.com", subject: "Hi", message: "Hello, team!" },
      headers: { "x-forwarded-for": client },
      remoteAddress: "10.30.0.1",
    });

  it("counts each client with TRUST_PROXY, not the proxy's one address", async () => {
    const app = await appWith({ TRUST_PROXY: "10.30.0.1" });
    try {
      for (let i = 0; i < 5; i++) expect((await contact(app, "203.0.113.7")).statusCode).toBe(201);
      expect((await contact(app, "203.0.113.7")).statusCode).toBe(429);
      expect((await contact(app, "203.0.113.8")).statusCode).toBe(201);
    } finally {
      await app.close();
    }
  });

  it("ignores X-Forwarded-For without TRUST_PROXY, so a client cannot pose as many", async () => {
    const app = await appWith({});
    try {
      for (let i = 0; i < 5; i++)
        expect((await contact(app, `203.0.113.${i}`)).statusCode).toBe(201);
      expect((await contact(app, "203.0.113.99")).statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });

  it("refuses a TRUST_PROXY that is neither a hop count nor addresses", () => {
    expect(() => loadConfig({ TRUST_PROXY: "everyone" })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBeTypeOf("function");
  });
});
