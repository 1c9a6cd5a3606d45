// Teams' commands as their routes call them, where the engine decides the outcome: joins at once
// never take a link past its uses, nor a team past its last owner; and who shares a team.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { teamInvites, teamMembers, teams } from "../db/schema.ts";
import { shareATeam } from "../features/teams/service.ts";
import { hashToken, newToken } from "../security/tokens.ts";
import { buildInvite, buildTeam, buildTeamMember, buildUser } from "../test/builders.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { writeAs } from "../test/write.ts";
import { joinTeam, removeTeamMember } from "./teams.ts";
import { deleteAccount } from "./users.ts";

const t = setupTestDatabase();

async function ownedTeam() {
  const owner = await buildUser(t.database);
  const team = await buildTeam(t.database);
  await buildTeamMember(t.database, { teamId: team.id, userId: owner.id, role: "owner" });
  return { owner, team };
}

const membersOf = (teamId: number) =>
  t.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId));

describe("joinTeam", () => {
  it("lets no more people join at once than the link has uses left", async () => {
    const { team } = await ownedTeam();
    const token = newToken();
    const invite = await buildInvite(t.database, {
      teamId: team.id,
      tokenHash: hashToken(token),
      uses: 47,
    });
    const people = await Promise.all(Array.from({ length: 8 }, () => buildUser(t.database)));
    const outcomes = await Promise.allSettled(
      people.map((person) => joinTeam(writeAs(t.database, person), token)),
    );
    const joined = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    expect(joined).toHaveLength(3);
    expect(refused.map((error) => error.statusCode)).toEqual([410, 410, 410, 410, 410]);
    const [row] = await t.database.db
      .select()
      .from(teamInvites)
      .where(eq(teamInvites.id, invite.id));
    expect(row?.uses).toBe(50);
    expect(await membersOf(team.id)).toHaveLength(4);
  });

  it("lets one member opening a link twice at once join once, spending one use", async () => {
    const { team } = await ownedTeam();
    const token = newToken();
    const invite = await buildInvite(t.database, { teamId: team.id, tokenHash: hashToken(token) });
    const person = await buildUser(t.database);
    const writes = [writeAs(t.database, person), writeAs(t.database, person)];
    const results = await Promise.all(writes.map((write) => joinTeam(write, token)));
    expect(results.map((r) => r.joined).sort()).toEqual([false, true]);
    const [row] = await t.database.db
      .select()
      .from(teamInvites)
      .where(eq(teamInvites.id, invite.id));
    expect(row?.uses).toBe(1);
    // Nothing a page caches reads teams: no event is announced.
    expect(writes.flatMap((write) => write.events)).toEqual([]);
  });
});

describe("removeTeamMember", () => {
  it("keeps a team's last owner when two owners leave at once", async () => {
    const { owner, team } = await ownedTeam();
    const second = await buildUser(t.database);
    await buildTeamMember(t.database, { teamId: team.id, userId: second.id, role: "owner" });
    const outcomes = await Promise.allSettled(
      [owner, second].map((who) =>
        removeTeamMember(writeAs(t.database, who), team.slug, who.username),
      ),
    );
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = outcomes.find((o) => o.status === "rejected");
    expect(rejected?.status === "rejected" && rejected.reason.statusCode).toBe(409);
    expect((await membersOf(team.id)).map((m) => m.role)).toEqual(["owner"]);
  });
});

describe("deleteAccount", () => {
  it("passes each team its member was the last owner of on, and deletes those only they were in", async () => {
    const { owner, team } = await ownedTeam();
    const away = await buildUser(t.database, { deactivatedAt: new Date() });
    const first = await buildUser(t.database);
    const later = await buildUser(t.database);
    const joined = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await buildTeamMember(t.database, { teamId: team.id, userId: away.id, joinedAt: joined(30) });
    await buildTeamMember(t.database, { teamId: team.id, userId: first.id, joinedAt: joined(20) });
    await buildTeamMember(t.database, { teamId: team.id, userId: later.id, joinedAt: joined(10) });
    const shared = await buildTeam(t.database);
    await buildTeamMember(t.database, { teamId: shared.id, userId: owner.id, role: "owner" });
    await buildTeamMember(t.database, { teamId: shared.id, userId: later.id, role: "owner" });
    const alone = await buildTeam(t.database);
    await buildTeamMember(t.database, { teamId: alone.id, userId: owner.id, role: "owner" });

    await deleteAccount(writeAs(t.database, owner));

    const roles = async (teamId: number) =>
      (await membersOf(teamId))
        .map((m) => [m.userId, m.role])
        .sort(([a], [b]) => Number(a) - Number(b));
    expect(await roles(team.id)).toEqual([
      [away.id, "member"],
      [first.id, "owner"],
      [later.id, "member"],
    ]);
    expect(await roles(shared.id)).toEqual([[later.id, "owner"]]);
    expect(await t.database.db.select().from(teams).where(eq(teams.id, alone.id))).toEqual([]);
  });
});

describe("shareATeam", () => {
  it("is true of two active members of one team only", async () => {
    const { owner, team } = await ownedTeam();
    const teammate = await buildUser(t.database);
    const away = await buildUser(t.database, { deactivatedAt: new Date() });
    const stranger = await buildUser(t.database);
    await buildTeamMember(t.database, { teamId: team.id, userId: teammate.id });
    await buildTeamMember(t.database, { teamId: team.id, userId: away.id });
    const other = await buildTeam(t.database);
    await buildTeamMember(t.database, { teamId: other.id, userId: stranger.id });
    const { db } = t.database;
    expect(await shareATeam(db, owner.id, teammate.id)).toBe(true);
    expect(await shareATeam(db, teammate.id, owner.id)).toBe(true);
    expect(await shareATeam(db, owner.id, away.id)).toBe(false);
    expect(await shareATeam(db, away.id, owner.id)).toBe(false);
    expect(await shareATeam(db, owner.id, stranger.id)).toBe(false);
  });
});
