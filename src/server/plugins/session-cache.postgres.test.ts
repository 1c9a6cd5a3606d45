// The session cache: signed-in reads take the member from memory, and every change to the member
// or their sessions is seen by the next read, whether this process made it (at once) or a
// statement elsewhere did (once its notification is heard).
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { sessions, users } from "../db/schema.ts";
import { cacheHits } from "../metrics.ts";
import { lookupSession, SESSION_COOKIE } from "../security/session-store.ts";
import { hashToken } from "../security/tokens.ts";
import { buildUser } from "../test/builders.ts";
import { holdSessionNotices } from "../test/faults.ts";
import { profileBody, send, setupTestApp, signIn } from "../test/helpers.ts";
import { SessionCache } from "./session-cache.ts";

const t = setupTestApp();

const me = (headers: Record<string, string>) => send(t.app, "GET", "/api/user", { headers });

/** Signed-in reads answered from the session cache so far, in this process. */
async function sessionHits(): Promise<number> {
  const { values } = await cacheHits.get();
  return values.find((value) => value.labels.cache === "sessions")?.value ?? 0;
}

/** A member signed in, whose session the cache now keeps (one read). */
async function keptMember(overrides: Parameters<typeof buildUser>[1] = {}) {
  const user = await buildUser(t.database, overrides);
  const headers = await signIn(t.database, user);
  expect((await me(headers)).statusCode).toBe(200);
  return { user, headers };
}

/** Signs a member in; the SHA-256 of the session's token, as the cache and database know it. */
async function signedInTokenHash(user: Parameters<typeof signIn>[1]): Promise<string> {
  const { cookie = "" } = await signIn(t.database, user);
  return hashToken(cookie.slice(`${SESSION_COOKIE}=`.length));
}

describe("the session cache", () => {
  it("answers a member's next reads without asking the database who they are", async () => {
    const { headers } = await keptMember();
    const before = await sessionHits();
    for (let read = 0; read < 3; read++) expect((await me(headers)).statusCode).toBe(200);
    expect((await sessionHits()) - before).toBe(3);
  });
});

// The database's notices may arrive after the answer to the change that sent them: what this
// process changes, it forgets by itself, before it answers.
describe("the session cache, before any notice of a change has arrived", () => {
  beforeEach(() => holdSessionNotices(t.database));

  it("refuses a session at once once its member signs out", async () => {
    const { headers } = await keptMember();
    expect((await send(t.app, "POST", "/api/logout", { headers })).statusCode).toBe(204);
    expect((await me(headers)).statusCode).toBe(401);
  });

  it("refuses a kept session at once once an admin deactivates its member", async () => {
    const { user, headers } = await keptMember();
    const admin = await buildUser(t.database, { isAdmin: true });
    const deactivated = await send(t.app, "PUT", `/api/analytics/users/${user.id}/deactivate`, {
      headers: await signIn(t.database, admin),
    });
    expect(deactivated.statusCode).toBe(200);
    expect((await me(headers)).statusCode).toBe(401);
  });

  it("takes an admin's rights away at once when they are revoked", async () => {
    const { user, headers } = await keptMember({ isAdmin: true });
    const stats = () => send(t.app, "GET", "/api/analytics/stats", { headers });
    expect((await stats()).statusCode).toBe(200);
    const other = await buildUser(t.database, { isAdmin: true });
    const revoked = await send(t.app, "PUT", `/api/analytics/users/${user.id}/admin`, {
      headers: await signIn(t.database, other),
      payload: { isAdmin: false },
    });
    expect(revoked.statusCode).toBe(200);
    expect((await stats()).statusCode).toBe(403);
  });

  it("shows a member's own change in their next read", async () => {
    const { user, headers } = await keptMember();
    const updated = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: profileBody(user, { firstName: "Renamed" }),
    });
    expect(updated.statusCode).toBe(200);
    expect((await me(headers)).json()).toMatchObject({ firstName: "Renamed" });
  });
});

describe("the session cache and the database's notices", () => {
  it("hears changes made by any statement, as another process's would be", async () => {
    const { user, headers } = await keptMember();
    await t.database.db.update(users).set({ firstName: "Quietly" }).where(eq(users.id, user.id));
    await t.app.sessionCache.caughtUp();
    expect((await me(headers)).json()).toMatchObject({ firstName: "Quietly" });

    await t.database.db.delete(sessions).where(eq(sessions.userId, user.id));
    await t.app.sessionCache.caughtUp();
    expect((await me(headers)).statusCode).toBe(401);
  });

  it("keeps reading from memory when a session is only touched", async () => {
    const { user, headers } = await keptMember();
    await t.database.db
      .update(users)
      .set({ lastActiveAt: new Date() })
      .where(eq(users.id, user.id));
    await t.app.sessionCache.caughtUp();
    const before = await sessionHits();
    expect((await me(headers)).statusCode).toBe(200);
    expect((await sessionHits()) - before).toBe(1);
  });

  it("does not keep what a lookup read when a forget overtook it", async () => {
    const user = await buildUser(t.database);
    const tokenHash = await signedInTokenHash(user);
    const cache = t.app.sessionCache;
    let lookups = 0;
    const lookup = () => {
      lookups += 1;
      return lookupSession(t.database.db, tokenHash);
    };

    const overtaken = cache.resolve(tokenHash, async () => {
      const session = await lookup();
      cache.forgetUser(user.id);
      return session;
    });
    expect((await overtaken)?.id).toBe(user.id);
    expect((await cache.resolve(tokenHash, lookup))?.id).toBe(user.id);
    expect(lookups).toBe(2);
    // Nothing overtook the second lookup: the third read comes from memory.
    expect((await cache.resolve(tokenHash, lookup))?.id).toBe(user.id);
    expect(lookups).toBe(2);
  });

  it("keeps nothing while it is not listening", async () => {
    const user = await buildUser(t.database);
    const tokenHash = await signedInTokenHash(user);
    const cache = new SessionCache(t.database, { subscribe: () => () => {} });
    let lookups = 0;
    const lookup = () => {
      lookups += 1;
      return lookupSession(t.database.db, tokenHash);
    };
    await cache.resolve(tokenHash, lookup);
    await cache.resolve(tokenHash, lookup);
    expect(lookups).toBe(2);
  });
});
