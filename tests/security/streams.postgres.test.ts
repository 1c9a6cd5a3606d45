// What one client can do to others through the live event stream: fill it, or keep hearing
// after its session ended or its role changed. Real listening servers on one database; the
// second app stands for another process, whose events arrive through LISTEN/NOTIFY.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages } from "../../src/contract/contact.ts";
import { type App, buildApp } from "../../src/server/app.ts";
import type { EventStreamLimits } from "../../src/server/features/events/fan-out.ts";
import { addressKey } from "../../src/server/plugins/rate-limit.ts";
import { hashToken, newToken } from "../../src/server/security/tokens.ts";
import {
  buildAnnotation,
  buildPrism,
  buildResetToken,
  buildUser,
} from "../../src/server/test/builders.ts";
import { testDatabaseUrl, withDatabase } from "../../src/server/test/databases.ts";
import { isEvent, openStream } from "../../src/server/test/event-stream.ts";
import {
  asSent,
  send,
  setupTestApp,
  signIn,
  TEST_PASSWORD,
  visitorCookie,
} from "../../src/server/test/helpers.ts";
import { databaseName } from "../../src/server/test/instances.ts";

const t = setupTestApp();

type Stream = Awaited<ReturnType<typeof openStream>>;
const opened: Stream[] = [];
const apps: App[] = [];
let origin = "";
/** Another process of Prism on the same database. */
let other: App;

async function anotherApp(eventStreams?: EventStreamLimits) {
  const app = await buildApp({ config: t.config, database: t.database, eventStreams });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
  other = await anotherApp();
  await other.ready();
});
afterAll(async () => {
  await Promise.all(opened.map((stream) => stream.close()));
  for (const app of apps) await app.close();
});

async function stream(at: string, headers: Record<string, string> = {}) {
  const s = await openStream(at, headers);
  opened.push(s);
  if (s.status === 200) await s.connected();
  return s;
}

/** Waits until the server has ended the stream properly (not dropped it). */
async function endedCleanly(s: Stream) {
  await s.done;
  expect(s.complete()).toBe(true);
}

/** A public change every stream hears: once it has, every earlier event has arrived too. */
async function publicChange(...streams: Stream[]) {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  expect((await send(other, "POST", `/api/prisms/${prism.id}/heart`)).statusCode).toBe(200);
  for (const s of streams) await s.waitFor(isEvent("heart.changed", { prismId: prism.id }));
}

describe("one client per address", () => {
  it("keys an IPv4 address as it is, an IPv4-mapped one as IPv4, an IPv6 one by its /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
    const block = addressKey("2001:db8:1:2::1");
    for (const address of [
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0db8:0001:0002:0000:0000:0000:0009",
      "2001:DB8:1:2:a:b:c:d",
      "2001:db8:1:2::1%eth0",
      "2001:db8:1:2::203.0.113.7",
    ]) {
      expect(addressKey(address), address).toBe(block);
    }
    expect(addressKey("2001:db8:1:3::1")).not.toBe(block);
    expect(addressKey("::1")).not.toBe(addressKey("::2:0:0:0:1"));
  });

  it("counts an IPv6 client's rate limits by its /64, whichever of its addresses it uses", async () => {
    const contact = (remoteAddress: string) =>
      send(t.app, "POST", "/api/contact", {
        payload: { name: "Ada", email: "ada@example.com", subject: "Hi", message: "Hello, team!" },
        remoteAddress,
      });
    for (let i = 1; i <= 5; i++) {
      expect((await contact(`2001:db8:40:1::${i.toString(16)}`)).statusCode).toBe(201);
    }
    const refused = await contact("2001:db8:40:1:ffff:1234:5678:9abc");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: contactMessages.tooMany });
    expect((await contact("2001:db8:40:2::1")).statusCode).toBe(201);
  });

  it("counts an IPv4-mapped IPv6 client as its IPv4 address", async () => {
    const contact = (remoteAddress: string) =>
      send(t.app, "POST", "/api/contact", {
        payload: { name: "Ada", email: "ada@example.com", subject: "Hi", message: "Hello, team!" },
        remoteAddress,
      });
    for (let i = 0; i < 5; i++) expect((await contact("10.40.0.1")).statusCode).toBe(201);
    expect((await contact("::ffff:10.40.0.1")).statusCode).toBe(429);
  });
});

describe("a full process", () => {
  it("gives a signed-in member's new stream the place of the oldest anonymous one, ended cleanly", async () => {
    const small = await anotherApp({ maxStreams: 3 });
    const at = await small.listen({ port: 0, host: "127.0.0.1" });
    const anonymous = [];
    for (let i = 0; i < 3; i++)
      anonymous.push(await stream(at, { cookie: visitorCookie(`full-${i}`) }));
    expect(anonymous.map((s) => s.status)).toEqual([200, 200, 200]);
    expect((await stream(at, { cookie: visitorCookie("full-late") })).status).toBe(503);

    const member = await signIn(t.database, await buildUser(t.database));
    const first = await stream(at, member);
    expect(first.status).toBe(200);
    await endedCleanly(anonymous[0] as Stream);
    expect(anonymous[1]?.isEnded()).toBe(false);

    await stream(at, member);
    await stream(at, member);
    await endedCleanly(anonymous[2] as Stream);
    // Only members now: a member waits like anyone else.
    const refused = await stream(at, member);
    expect(refused.status).toBe(503);
    expect(first.isEnded()).toBe(false);
  });
});

describe("streams end with their session or role, on every process", () => {
  it("sign-out ends the streams of that session and no other device's", async () => {
    const user = await buildUser(t.database);
    const laptop = await signIn(t.database, user);
    const phone = await signIn(t.database, user);
    const onLaptop = await stream(origin, laptop);
    const onPhone = await stream(origin, phone);

    expect((await send(other, "POST", "/api/logout", { headers: laptop })).statusCode).toBe(204);
    await onLaptop.waitFor(isEvent("sessions.ended"));
    await endedCleanly(onLaptop);
    await publicChange(onPhone);
    expect(onPhone.isEnded()).toBe(false);
    expect(onPhone.blocks.some(isEvent("sessions.ended"))).toBe(false);
  });

  it("a password reset ends every session of the member and the streams they opened", async () => {
    const user = await buildUser(t.database);
    const onLaptop = await stream(origin, await signIn(t.database, user));
    const onPhone = await stream(origin, await signIn(t.database, user));
    const bystander = await stream(origin, await signIn(t.database, await buildUser(t.database)));
    const token = newToken();
    await buildResetToken(t.database, { userId: user.id, tokenHash: hashToken(token) });

    const reset = await send(other, "POST", "/api/password-reset/confirm", {
      payload: { token, password: "a-new-password-1" },
    });
    expect(reset.statusCode).toBe(200);
    await endedCleanly(onLaptop);
    await endedCleanly(onPhone);
    await publicChange(bystander);
    expect(bystander.isEnded()).toBe(false);
  });

  it("deleting one's account ends the streams its sessions opened", async () => {
    const user = await buildUser(t.database);
    const signedIn = await signIn(t.database, user);
    const onLaptop = await stream(origin, signedIn);
    const deleted = await send(other, "DELETE", "/api/user/account", {
      headers: signedIn,
      payload: { currentPassword: TEST_PASSWORD },
    });
    expect(deleted.statusCode).toBe(204);
    await endedCleanly(onLaptop);
  });

  it("a new password ends the member's other sessions and the streams they opened", async () => {
    const user = await buildUser(t.database);
    const here = await signIn(t.database, user);
    const onPhone = await stream(origin, await signIn(t.database, user));
    const bystander = await stream(origin, await signIn(t.database, await buildUser(t.database)));

    const changed = await send(other, "PUT", "/api/user/password", {
      headers: here,
      payload: { currentPassword: TEST_PASSWORD, password: "a-new-password-1" },
    });
    expect(changed.statusCode).toBe(200);
    await endedCleanly(onPhone);
    await publicChange(bystander);
    expect(bystander.isEnded()).toBe(false);
  });

  it.runIf(testDatabaseUrl())(
    "`npm run admin -- revoke` ends the member's streams on the running server (PostgreSQL)",
    async () => {
      const url = testDatabaseUrl();
      if (!url) return;
      const demoted = await buildUser(t.database, { isAdmin: true });
      const open = await stream(origin, await signIn(t.database, demoted));
      const command = spawn(
        process.execPath,
        ["--import", "tsx", "scripts/admin.ts", "revoke", demoted.username],
        {
          env: {
            ...process.env,
            DATABASE_URL: withDatabase(url, await databaseName(t.database)),
            NODE_ENV: "test",
          },
          stdio: "ignore",
        },
      );
      const [code] = await once(command, "exit");
      expect(code).toBe(0);
      await endedCleanly(open);
    },
  );

  it("a demoted admin's streams end, and the stream they reopen hears no admin event", async () => {
    const actor = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    const demoted = await buildUser(t.database, { isAdmin: true });
    const session = await signIn(t.database, demoted);
    const before = await stream(origin, session);

    const revoke = await send(other, "PUT", `/api/analytics/users/${demoted.id}/admin`, {
      headers: actor,
      payload: { isAdmin: false },
    });
    expect(revoke.statusCode).toBe(200);
    await endedCleanly(before);

    const after = await stream(origin, session);
    const owner = await buildUser(t.database);
    const ownerStream = await stream(origin, await signIn(t.database, owner));
    const prism = await buildPrism(t.database, { userId: owner.id });
    const annotator = { cookie: visitorCookie("streams-annotator") };
    const annotated = await send(other, "POST", "/api/annotations", {
      headers: annotator,
      payload: await asSent(other, annotator, {
        prismId: prism.id,
        selectedText: "Mornings",
        annotationText: "Same here",
        selectionStart: 0,
        selectionEnd: 8,
      }),
    });
    expect(annotated.statusCode).toBe(201);
    await ownerStream.waitFor(isEvent("annotation.changed", { prismId: prism.id }));
    await publicChange(after);
    expect(after.blocks.some(isEvent("annotation.changed", { prismId: prism.id }))).toBe(false);
  });

  it("a member made an admin reconnects as one and hears admin events", async () => {
    const actor = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    const promoted = await buildUser(t.database);
    const session = await signIn(t.database, promoted);
    const before = await stream(origin, session);
    const grant = await send(other, "PUT", `/api/analytics/users/${promoted.id}/admin`, {
      headers: actor,
      payload: { isAdmin: true },
    });
    expect(grant.statusCode).toBe(200);
    await endedCleanly(before);

    const after = await stream(origin, session);
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const annotation = await buildAnnotation(t.database, { prismId: prism.id });
    const decided = await send(other, "PUT", `/api/prisms/0/annotations/${annotation.id}/status`, {
      headers: actor,
      payload: { status: "rejected" },
    });
    expect(decided.statusCode).toBe(200);
    await after.waitFor(isEvent("annotation.changed", { prismId: prism.id }));
  });
});
