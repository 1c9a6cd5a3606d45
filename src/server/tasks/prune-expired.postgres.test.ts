// The app forgets idle sessions, spent reset tokens, ended rate-limit windows and the spent proofs
// of expired challenges when it starts.
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { passwordResetTokens, rateLimits, sessions, spentProofs } from "../db/schema.ts";
import { buildResetToken, buildUser } from "../test/builders.ts";
import { refuseWrites } from "../test/faults.ts";
import { setupTestApp, signIn } from "../test/helpers.ts";

const t = setupTestApp();
const day = 24 * 60 * 60 * 1000;

describe("pruning", () => {
  it("removes expired sessions, spent reset tokens, ended rate-limit windows and proofs of challenges expired an hour ago when the app starts, and keeps the rest", async () => {
    const idle = await buildUser(t.database);
    const old = await buildUser(t.database);
    const active = await buildUser(t.database);
    await signIn(t.database, idle);
    const oldSession = await signIn(t.database, old);
    await signIn(t.database, active);
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * day) })
      .where(eq(sessions.userId, idle.id));
    // Seen a minute ago, but signed in 91 days ago: past the absolute lifetime.
    await t.database.db
      .update(sessions)
      .set({
        createdAt: new Date(Date.now() - 91 * day),
        lastSeenAt: new Date(Date.now() - 60_000),
      })
      .where(eq(sessions.userId, old.id));
    const refused = await t.app.inject({ method: "GET", url: "/api/user", headers: oldSession });
    expect(refused.statusCode).toBe(401);
    const tokens = [
      await buildResetToken(t.database, {
        userId: idle.id,
        expiresAt: new Date(Date.now() - 1000),
      }),
      await buildResetToken(t.database, { userId: idle.id, usedAt: new Date() }),
      await buildResetToken(t.database, { userId: idle.id, tokenHash: "valid" }),
    ];
    await t.database.db.insert(rateLimits).values([
      { key: "contact:ip:10.50.0.1", points: 5, expiresAt: sql`now()` },
      { key: "contact:ip:10.50.0.2", points: 5, expiresAt: sql`now() + interval '1 minute'` },
    ]);
    // Expired an hour and more ago; expired minutes ago (a server's clock may lag); not expired.
    await t.database.db.insert(spentProofs).values([
      { nonce: "expired-long-ago", expiresAt: sql`now() - interval '61 minutes'` },
      { nonce: "expired-lately", expiresAt: sql`now() - interval '10 minutes'` },
      { nonce: "current", expiresAt: sql`now() + interval '4 minutes'` },
    ]);

    // The first run starts with the app; closing the app waits for it.
    const app = await buildApp({ config: t.config, database: t.database });
    await app.close();
    const sessionsOf = (userId: number) =>
      t.database.db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(await sessionsOf(idle.id)).toEqual([]);
    expect(await sessionsOf(old.id)).toEqual([]);
    expect(await sessionsOf(active.id)).toHaveLength(1);
    const left = await t.database.db
      .select({ tokenHash: passwordResetTokens.tokenHash })
      .from(passwordResetTokens)
      .where(
        inArray(
          passwordResetTokens.id,
          tokens.map((token) => token.id),
        ),
      );
    expect(left).toEqual([{ tokenHash: "valid" }]);
    const counters = await t.database.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(counters).toEqual([{ key: "contact:ip:10.50.0.2" }]);
    const proofs = await t.database.db
      .select({ nonce: spentProofs.nonce })
      .from(spentProofs)
      .orderBy(spentProofs.nonce);
    expect(proofs).toEqual([{ nonce: "current" }, { nonce: "expired-lately" }]);
  });

  it("logs a run that fails and starts anyway, keeping what it could not remove", async () => {
    const idle = await buildUser(t.database);
    await signIn(t.database, idle);
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * day) })
      .where(eq(sessions.userId, idle.id));
    await refuseWrites(t.database, "sessions", "delete");
    const lines: string[] = [];
    const app = await buildApp({
      config: t.config,
      database: t.database,
      logger: { level: "warn", stream: { write: (line: string) => lines.push(line) } },
    });
    await app.close();
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ level: 40, msg: "pruning failed" }),
    );
    const left = await t.database.db.select().from(sessions).where(eq(sessions.userId, idle.id));
    expect(left).toHaveLength(1);
  });
});
