// An admin's actions on members without HTTP: no locking oneself out, each action audited in
// its own transaction (no audit line, no change), and the events that end sessions and streams.
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { catalystMessages } from "../../../contract/catalyst.ts";
import * as commands from "../../commands/users.ts";
import { auditLog, sessions, type UserRow, users } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { expectRefused, refuseWrites } from "../../test/faults.ts";
import { setupTestDatabase, signIn } from "../../test/helpers.ts";
import { run } from "../../test/write.ts";

const t = setupTestDatabase();

/** The writes as their routes make them (commands/users.ts), with the events they announced. */
const setAdminFlag = (admin: UserRow, userId: number, isAdmin: boolean) =>
  run(t.database, admin, (write) => commands.setAdminFlag(write, userId, isAdmin), "user");
const deactivateUser = (admin: UserRow, userId: number) =>
  run(t.database, admin, (write) => commands.deactivateUser(write, userId), "user");
const reactivateUser = (admin: UserRow, userId: number) =>
  run(t.database, admin, (write) => commands.reactivateUser(write, userId), "user");

async function stateOf(userId: number) {
  const { db } = t.database;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return {
    isAdmin: user?.isAdmin,
    deactivatedAt: user?.deactivatedAt,
    sessions: (await db.select().from(sessions).where(eq(sessions.userId, userId))).length,
    audit: (
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetType, "user"), eq(auditLog.targetId, userId)))
        .orderBy(asc(auditLog.id))
    ).map((entry) => ({ actorId: entry.actorId, action: entry.action, details: entry.details })),
  };
}

describe("setAdminFlag", () => {
  it("grants and revokes, auditing both and ending the member's streams", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const member = await buildUser(t.database);
    const granted = await setAdminFlag(admin, member.id, true);
    expect(granted.user.isAdmin).toBe(true);
    expect(granted.events).toEqual([{ type: "roles.changed", userId: member.id }]);
    await setAdminFlag(admin, member.id, false);
    const target = `@${member.username}`;
    expect(await stateOf(member.id)).toMatchObject({
      isAdmin: false,
      audit: [
        {
          actorId: admin.id,
          action: "user.grant-admin",
          details: { target, before: { isAdmin: false }, after: { isAdmin: true } },
        },
        {
          actorId: admin.id,
          action: "user.revoke-admin",
          details: { target, before: { isAdmin: true }, after: { isAdmin: false } },
        },
      ],
    });
  });

  it("never lets an admin remove their own access, and 404s a missing member; nothing changes", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    await expect(setAdminFlag(admin, admin.id, false)).rejects.toMatchObject({
      statusCode: 400,
      message: catalystMessages.selfRevoke,
    });
    expect(await stateOf(admin.id)).toMatchObject({ isAdmin: true, audit: [] });
    await expect(setAdminFlag(admin, 2 ** 31 - 1, true)).rejects.toMatchObject({
      statusCode: 404,
      message: catalystMessages.userNotFound,
    });
  });

  it("changes nothing when the audit line cannot be written", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const member = await buildUser(t.database);
    await refuseWrites(t.database, "audit_log", "insert");
    await expectRefused(setAdminFlag(admin, member.id, true));
    expect(await stateOf(member.id)).toMatchObject({ isAdmin: false, audit: [] });
  });
});

describe("deactivateUser and reactivateUser", () => {
  it("deactivates: sessions end, the time of the first deactivation stays; reactivation restores; all audited", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const member = await buildUser(t.database);
    await signIn(t.database, member);
    await signIn(t.database, member);
    const { user, events } = await deactivateUser(admin, member.id);
    expect(events).toEqual([
      { type: "sessions.ended", userId: member.id },
      { type: "prisms.changed", username: member.username },
      { type: "profile.changed", username: member.username },
    ]);
    const since = user.deactivatedAt;
    expect(since).toBeInstanceOf(Date);
    expect(await stateOf(member.id)).toMatchObject({ deactivatedAt: since, sessions: 0 });
    await deactivateUser(admin, member.id);
    expect((await stateOf(member.id)).deactivatedAt).toEqual(since);

    const back = await reactivateUser(admin, member.id);
    expect(back.user.deactivatedAt).toBeNull();
    expect(back.events.map((event) => event.type)).toEqual(["prisms.changed", "profile.changed"]);
    const states = (await stateOf(member.id)).audit.map((entry) => [entry.action, entry.details]);
    const active = { status: "active" };
    const deactivated = { status: "deactivated" };
    const target = `@${member.username}`;
    expect(states).toEqual([
      ["user.deactivate", { target, before: active, after: deactivated }],
      ["user.deactivate", { target, before: deactivated, after: deactivated }],
      ["user.reactivate", { target, before: deactivated, after: active }],
    ]);
  });

  it("never lets an admin deactivate themselves", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    await signIn(t.database, admin);
    await expect(deactivateUser(admin, admin.id)).rejects.toMatchObject({
      statusCode: 400,
      message: catalystMessages.selfDeactivate,
    });
    expect(await stateOf(admin.id)).toMatchObject({ deactivatedAt: null, sessions: 1, audit: [] });
  });

  it("keeps the member active and signed in when the audit line cannot be written", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const member = await buildUser(t.database);
    await signIn(t.database, member);
    await refuseWrites(t.database, "audit_log", "insert");
    await expectRefused(deactivateUser(admin, member.id));
    expect(await stateOf(member.id)).toMatchObject({ deactivatedAt: null, sessions: 1, audit: [] });
  });
});
