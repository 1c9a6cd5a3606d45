import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { teamMessages } from "../../../contract/teams.ts";
import { auditLog, teamInvites, teamMembers, teams } from "../../db/schema.ts";
import { hashToken, newToken } from "../../security/tokens.ts";
import {
  buildInvite,
  buildPrism,
  buildTeam,
  buildTeamMember,
  buildUser,
} from "../../test/builders.ts";
import { send, setupTestApp, signIn, TEST_ORIGIN } from "../../test/helpers.ts";

const t = setupTestApp();

type Headers = Record<string, string>;

const get = (url: string, headers: Headers = {}) => send(t.app, "GET", url, { headers });
const post = (url: string, headers: Headers = {}, payload?: object) =>
  send(t.app, "POST", url, { headers, ...(payload ? { payload } : {}) });
const put = (url: string, headers: Headers, payload: object) =>
  send(t.app, "PUT", url, { headers, payload });
const remove = (url: string, headers: Headers = {}) => send(t.app, "DELETE", url, { headers });

async function member() {
  const user = await buildUser(t.database);
  return { user, headers: await signIn(t.database, user) };
}

/** A team with an owner and a member, each signed in. */
async function team(name = "Platform") {
  const owner = await member();
  const teammate = await member();
  const row = await buildTeam(t.database, { name });
  await buildTeamMember(t.database, { teamId: row.id, userId: owner.user.id, role: "owner" });
  await buildTeamMember(t.database, { teamId: row.id, userId: teammate.user.id });
  return { team: row, owner, teammate };
}

/** An invite link to the team and its token. */
async function invite(teamId: number, fields: Partial<typeof teamInvites.$inferInsert> = {}) {
  const token = newToken();
  const row = await buildInvite(t.database, { teamId, tokenHash: hashToken(token), ...fields });
  return { row, token };
}

/** Everything a team is: its row, who is in it as what, and its invite links. */
async function stateOf(teamId: number) {
  const { db } = t.database;
  return {
    team: (await db.select().from(teams).where(eq(teams.id, teamId)))[0],
    members: await db
      .select({ userId: teamMembers.userId, role: teamMembers.role })
      .from(teamMembers)
      .where(eq(teamMembers.teamId, teamId))
      .orderBy(teamMembers.userId),
    invites: await db.select().from(teamInvites).where(eq(teamInvites.teamId, teamId)),
  };
}

async function auditOf(teamId: number) {
  return t.database.db
    .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "team"), eq(auditLog.targetId, teamId)))
    .orderBy(auditLog.id);
}

const teamCount = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(teams))[0]?.n;

describe("teams", () => {
  it("asks every caller to sign in first, changing nothing", async () => {
    const { team: row, teammate } = await team();
    const { token } = await invite(row.id);
    const before = await stateOf(row.id);
    const calls = [
      post("/api/teams", {}, { name: "Anonymous" }),
      get(`/api/teams/${row.slug}/invites`),
      get("/api/teams"),
      get(`/api/teams/${row.slug}`),
      put(`/api/teams/${row.slug}`, {}, { name: "Renamed" }),
      remove(`/api/teams/${row.slug}`),
      post(`/api/teams/${row.slug}/invites`),
      remove(`/api/teams/${row.slug}/invites/1`),
      remove(`/api/teams/${row.slug}/members/${teammate.user.username}`),
      post(`/api/invites/${token}`),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: "You are not signed in" });
    }
    expect(await stateOf(row.id)).toEqual(before);
  });

  it("creates a team whose creator is its owner, with a slug of its own, audited", async () => {
    const creator = await member();
    const response = await post("/api/teams", creator.headers, { name: "  Design Ops! " });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      slug: "design-ops",
      name: "Design Ops!",
      role: "owner",
      createdAt: expect.any(String),
      members: [
        {
          username: creator.user.username,
          firstName: creator.user.firstName,
          lastName: creator.user.lastName,
          displayName: null,
          role: "owner",
          joinedAt: expect.any(String),
        },
      ],
    });
    const [row] = await t.database.db.select().from(teams).where(eq(teams.slug, "design-ops"));
    expect(await auditOf(row?.id ?? 0)).toEqual([
      {
        action: "team.create",
        actorId: creator.user.id,
        details: {
          target: "Design Ops!",
          before: null,
          after: { name: "Design Ops!", slug: "design-ops" },
        },
      },
    ]);
  });

  it("gives a name whose slug is taken, in any case, the next free suffix", async () => {
    const creator = await member();
    await buildTeam(t.database, { name: "Growth", slug: "Growth" });
    await buildTeam(t.database, { name: "Growth", slug: "growth-2" });
    const slugs = [];
    for (const name of ["growth", "GROWTH", "Gröwth", "𝐆rowth"]) {
      slugs.push((await post("/api/teams", creator.headers, { name })).json().slug);
    }
    expect(slugs).toEqual(["growth-3", "growth-4", "growth-5", "growth-6"]);
    const emoji = await post("/api/teams", creator.headers, { name: "🚀🚀" });
    expect(emoji.json().slug).toMatch(/^team(-\d+)?$/);
  });

  it("lists the member's teams by name with their role and active members", async () => {
    const { team: platform, owner, teammate } = await team("Platform");
    const other = await buildTeam(t.database, { name: "apps" });
    await buildTeamMember(t.database, {
      teamId: other.id,
      userId: teammate.user.id,
      role: "owner",
    });
    const gone = await buildUser(t.database, { deactivatedAt: new Date() });
    await buildTeamMember(t.database, { teamId: platform.id, userId: gone.id });
    await buildTeam(t.database, { name: "Not theirs" });

    const mine = await get("/api/teams", teammate.headers);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([
      {
        slug: other.slug,
        name: "apps",
        role: "owner",
        memberCount: 1,
        createdAt: expect.any(String),
      },
      {
        slug: platform.slug,
        name: "Platform",
        role: "member",
        memberCount: 2,
        createdAt: expect.any(String),
      },
    ]);
    expect((await get("/api/teams", owner.headers)).json()).toEqual([
      expect.objectContaining({ slug: platform.slug, role: "owner" }),
    ]);
  });

  it("shows a team to its members, owners first, in any case of its slug", async () => {
    const { team: row, owner, teammate } = await team();
    const gone = await buildUser(t.database, { deactivatedAt: new Date() });
    await buildTeamMember(t.database, { teamId: row.id, userId: gone.id });
    const response = await get(`/api/teams/${row.slug.toUpperCase()}`, teammate.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      slug: row.slug,
      name: "Platform",
      role: "member",
      members: [
        { username: owner.user.username, role: "owner" },
        { username: teammate.user.username, role: "member" },
      ],
    });
    expect(response.json().members).toHaveLength(2);
  });

  it("shows each member with their prisms in their page's order, and nobody else's", async () => {
    const { team: row, owner, teammate } = await team();
    const outsider = await member();
    const second = await buildPrism(t.database, {
      userId: owner.user.id,
      title: "Later",
      index: 1,
    });
    const first = await buildPrism(t.database, { userId: owner.user.id, title: "First", index: 0 });
    const theirs = await buildPrism(t.database, { userId: teammate.user.id, title: "Mine" });
    await buildPrism(t.database, { userId: outsider.user.id, title: "Not in the team" });
    const response = await get(`/api/teams/${row.slug}`, teammate.headers);
    expect(response.statusCode).toBe(200);
    expect(
      response
        .json()
        .members.map((m: { username: string; prisms: { id: number; title: string }[] }) => [
          m.username,
          m.prisms.map(({ id, title }) => ({ id, title })),
        ]),
    ).toEqual([
      [
        owner.user.username,
        [
          { id: first.id, title: "First" },
          { id: second.id, title: "Later" },
        ],
      ],
      [teammate.user.username, [{ id: theirs.id, title: "Mine" }]],
    ]);
  });

  it("answers anyone outside a team 404, exactly as a team that does not exist", async () => {
    const { team: row, teammate } = await team();
    const outsider = await member();
    const admin = await buildUser(t.database, { isAdmin: true });
    const adminHeaders = await signIn(t.database, admin);
    const before = await stateOf(row.id);
    const { row: link } = await invite(row.id);
    const calls = (slug: string, headers: Headers) => [
      get(`/api/teams/${slug}`, headers),
      put(`/api/teams/${slug}`, headers, { name: "Taken over" }),
      remove(`/api/teams/${slug}`, headers),
      post(`/api/teams/${slug}/invites`, headers),
      remove(`/api/teams/${slug}/invites/${link.id}`, headers),
      remove(`/api/teams/${slug}/members/${teammate.user.username}`, headers),
    ];
    const answers = async (slug: string, headers: Headers) =>
      (await Promise.all(calls(slug, headers))).map((r) => [r.statusCode, r.json()]);
    const missing = await answers("no-such-team", outsider.headers);
    expect(missing).toEqual(calls("", {}).map(() => [404, { message: teamMessages.notFound }]));
    expect(await answers(row.slug, outsider.headers)).toEqual(missing);
    expect(await answers(row.slug, adminHeaders)).toEqual(missing);
    const after = await stateOf(row.id);
    expect({ ...after, invites: after.invites.filter((i) => i.id !== link.id) }).toEqual(before);
    expect(after.invites.find((i) => i.id === link.id)?.revokedAt).toBeNull();
  });

  it("lets owners rename a team, keeping its slug, and refuses bad names changing nothing", async () => {
    const { team: row, owner } = await team();
    const bad = [{ name: "" }, { name: " " }, { name: "x".repeat(61) }, { name: "a\u0000b" }, {}];
    for (const body of [...bad, { name: "Ok", slug: "other" }]) {
      const response = await put(`/api/teams/${row.slug}`, owner.headers, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const creates = await Promise.all(bad.map((body) => post("/api/teams", owner.headers, body)));
    expect(creates.map((r) => r.statusCode)).toEqual(bad.map(() => 400));
    expect((await put(`/api/teams/${row.slug}`, owner.headers, { name: "" })).json()).toMatchObject(
      {
        errors: { name: teamMessages.nameRequired },
      },
    );
    const countBefore = await teamCount();
    expect((await stateOf(row.id)).team?.name).toBe("Platform");

    const renamed = await put(`/api/teams/${row.slug}`, owner.headers, { name: "Core Platform" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ slug: row.slug, name: "Core Platform", role: "owner" });
    expect(await teamCount()).toBe(countBefore);
    expect((await auditOf(row.id)).map((line) => line.action)).toEqual(["team.rename"]);
  });

  it("lets owners delete a team with its members and links", async () => {
    const { team: row, owner, teammate } = await team();
    await invite(row.id);
    const response = await remove(`/api/teams/${row.slug}`, owner.headers);
    expect(response.statusCode).toBe(204);
    expect(await stateOf(row.id)).toEqual({ team: undefined, members: [], invites: [] });
    expect((await get(`/api/teams/${row.slug}`, teammate.headers)).statusCode).toBe(404);
    expect(await get("/api/teams", teammate.headers).then((r) => r.json())).toEqual([]);
    expect(await auditOf(row.id)).toEqual([
      {
        action: "team.delete",
        actorId: owner.user.id,
        details: {
          target: "Platform",
          before: { name: "Platform", slug: row.slug, members: 2 },
          after: null,
        },
      },
    ]);
  });

  it("lets a member do none of an owner's things, changing nothing", async () => {
    const { team: row, owner, teammate } = await team();
    const other = await member();
    await buildTeamMember(t.database, { teamId: row.id, userId: other.user.id });
    const { row: link } = await invite(row.id);
    const before = await stateOf(row.id);
    const calls = [
      put(`/api/teams/${row.slug}`, teammate.headers, { name: "Mine now" }),
      remove(`/api/teams/${row.slug}`, teammate.headers),
      post(`/api/teams/${row.slug}/invites`, teammate.headers),
      remove(`/api/teams/${row.slug}/invites/${link.id}`, teammate.headers),
      remove(`/api/teams/${row.slug}/members/${other.user.username}`, teammate.headers),
      remove(`/api/teams/${row.slug}/members/${owner.user.username}`, teammate.headers),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: teamMessages.ownersOnly });
    }
    expect(await stateOf(row.id)).toEqual(before);
    expect(await auditOf(row.id)).toEqual([]);
  });

  it("lets a member leave, and owners remove anyone but the last owner", async () => {
    const { team: row, owner, teammate } = await team();
    const other = await member();
    const second = await member();
    await buildTeamMember(t.database, { teamId: row.id, userId: other.user.id });
    await buildTeamMember(t.database, { teamId: row.id, userId: second.user.id, role: "owner" });
    const members = (slug: string) => `/api/teams/${slug}/members`;

    const left = await remove(`${members(row.slug)}/${teammate.user.username}`, teammate.headers);
    expect(left.statusCode).toBe(204);
    const removed = await remove(
      `${members(row.slug)}/${other.user.username.toUpperCase()}`,
      owner.headers,
    );
    expect(removed.statusCode).toBe(204);
    const notThere = await remove(`${members(row.slug)}/${other.user.username}`, owner.headers);
    expect([notThere.statusCode, notThere.json()]).toEqual([
      404,
      { message: teamMessages.memberNotFound },
    ]);
    // One owner removes the other; the one left is the last, and stays.
    expect(
      (await remove(`${members(row.slug)}/${second.user.username}`, owner.headers)).statusCode,
    ).toBe(204);
    const last = await remove(`${members(row.slug)}/${owner.user.username}`, owner.headers);
    expect([last.statusCode, last.json()]).toEqual([409, { message: teamMessages.lastOwner }]);
    expect((await stateOf(row.id)).members).toEqual([{ userId: owner.user.id, role: "owner" }]);
    expect((await auditOf(row.id)).map((line) => [line.action, line.details])).toEqual([
      ["team.leave", expect.objectContaining({ before: { member: teammate.user.username } })],
      ["team.remove-member", expect.objectContaining({ before: { member: other.user.username } })],
      ["team.remove-member", expect.objectContaining({ before: { member: second.user.username } })],
    ]);
  });

  it("keeps a deactivated owner from counting as the team's owner", async () => {
    const { team: row, owner } = await team();
    const away = await buildUser(t.database, { deactivatedAt: new Date() });
    await buildTeamMember(t.database, { teamId: row.id, userId: away.id, role: "owner" });
    const last = await remove(
      `/api/teams/${row.slug}/members/${owner.user.username}`,
      owner.headers,
    );
    expect(last.statusCode).toBe(409);
  });
});

describe("invite links", () => {
  it("are made by owners: a link to the invite page, only its token's hash kept", async () => {
    const { team: row, owner } = await team();
    const response = await post(`/api/teams/${row.slug}/invites`, owner.headers);
    expect(response.statusCode).toBe(201);
    const { id, url, expiresAt } = response.json();
    const token = url.slice(`${TEST_ORIGIN}/invites/`.length);
    expect(url).toBe(`${TEST_ORIGIN}/invites/${token}`);
    expect(token).toMatch(/^[\w-]{43}$/);
    const days = (Date.parse(expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const [row2] = await t.database.db.select().from(teamInvites).where(eq(teamInvites.id, id));
    expect(row2).toMatchObject({
      tokenHash: hashToken(token),
      uses: 0,
      maxUses: 50,
      createdBy: owner.user.id,
    });
    expect(JSON.stringify(row2)).not.toContain(token);
  });

  it("that are still open are listed for owners, newest first, without their tokens", async () => {
    const { team: row, owner, teammate } = await team();
    const made = await post(`/api/teams/${row.slug}/invites`, owner.headers);
    const older = await invite(row.id, {
      uses: 3,
      createdAt: new Date(Date.now() - 60_000),
      createdBy: owner.user.id,
    });
    await invite(row.id, { expiresAt: new Date(Date.now() - 1000) });
    await invite(row.id, { uses: 50 });
    await invite(row.id, { revokedAt: new Date() });
    const listed = await get(`/api/teams/${row.slug}/invites`, owner.headers);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      {
        id: made.json().id,
        createdAt: expect.any(String),
        expiresAt: made.json().expiresAt,
        uses: 0,
        maxUses: 50,
        createdBy: owner.user.username,
      },
      expect.objectContaining({ id: older.row.id, uses: 3, createdBy: owner.user.username }),
    ]);
    expect(listed.body).not.toContain(new URL(made.json().url).pathname.split("/")[2]);
    const asMember = await get(`/api/teams/${row.slug}/invites`, teammate.headers);
    expect([asMember.statusCode, asMember.json()]).toEqual([
      403,
      { message: teamMessages.ownersOnly },
    ]);
    const outsider = await member();
    expect((await get(`/api/teams/${row.slug}/invites`, outsider.headers)).statusCode).toBe(404);
  });

  it("let a signed-in member join as a member, once", async () => {
    const { team: row, owner } = await team();
    const created = await post(`/api/teams/${row.slug}/invites`, owner.headers);
    const path = new URL(created.json().url).pathname;
    const newcomer = await member();
    const joined = await post(`/api/${path.slice(1)}`, newcomer.headers);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({
      joined: true,
      team: {
        slug: row.slug,
        name: "Platform",
        role: "member",
        memberCount: 3,
        createdAt: expect.any(String),
      },
    });
    const again = await post(`/api/${path.slice(1)}`, newcomer.headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ joined: false, team: { role: "member", memberCount: 3 } });
    const byOwner = await post(`/api/${path.slice(1)}`, owner.headers);
    expect(byOwner.json()).toMatchObject({ joined: false, team: { role: "owner" } });
    const state = await stateOf(row.id);
    expect(state.invites.map((i) => i.uses)).toEqual([1]);
    expect(state.members).toContainEqual({ userId: newcomer.user.id, role: "member" });
    expect((await get(`/api/teams/${row.slug}`, newcomer.headers)).statusCode).toBe(200);
    expect((await auditOf(row.id)).map((line) => [line.action, line.actorId])).toEqual([
      ["team.invite", owner.user.id],
      ["team.join", newcomer.user.id],
    ]);
  });

  it("answer a forged token 404, and an expired, revoked or used-up link 410", async () => {
    const { team: row, owner, teammate } = await team();
    const expired = await invite(row.id, { expiresAt: new Date(Date.now() - 1000) });
    const usedUp = await invite(row.id, { uses: 50 });
    const revoked = await invite(row.id);
    const revoke = await remove(`/api/teams/${row.slug}/invites/${revoked.row.id}`, owner.headers);
    expect(revoke.statusCode).toBe(204);
    const elsewhere = await buildTeam(t.database);
    const foreign = await invite(elsewhere.id);
    const wrongTeam = await remove(
      `/api/teams/${row.slug}/invites/${foreign.row.id}`,
      owner.headers,
    );
    expect([wrongTeam.statusCode, wrongTeam.json()]).toEqual([
      404,
      { message: teamMessages.inviteLinkNotFound },
    ]);
    const before = await stateOf(row.id);
    const newcomer = await member();

    const forged = await post(`/api/invites/${newToken()}`, newcomer.headers);
    expect([forged.statusCode, forged.json()]).toEqual([
      404,
      { message: teamMessages.inviteNotFound },
    ]);
    for (const { token } of [expired, usedUp, revoked]) {
      const response = await post(`/api/invites/${token}`, newcomer.headers);
      expect([response.statusCode, response.json()]).toEqual([
        410,
        { message: teamMessages.inviteGone },
      ]);
    }
    // Someone already in the team is told so, whatever the link's state.
    expect((await post(`/api/invites/${expired.token}`, teammate.headers)).json()).toMatchObject({
      joined: false,
    });
    expect(await stateOf(row.id)).toEqual(before);
    expect((await get(`/api/teams/${row.slug}`, newcomer.headers)).statusCode).toBe(404);
  });
});
