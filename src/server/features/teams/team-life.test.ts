// Team life: what the team's page marks new since a member last looked, the waiting count only
// its member sees, teammates told of each other's prisms when they asked, teammates' responses
// pre-approved, and Catalyst's Teams table.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TeamPage } from "../../../contract/teams.ts";
import { annotations, auditLog, notifications, prisms, teamMembers } from "../../db/schema.ts";
import {
  buildAnnotation,
  buildPrism,
  buildTeam,
  buildTeamMember,
  buildUser,
} from "../../test/builders.ts";
import { profileBody, respondToQuote, send, setupTestApp, signIn } from "../../test/helpers.ts";

const t = setupTestApp();

type Headers = Record<string, string>;

async function member(fields: Parameters<typeof buildUser>[1] = {}) {
  const user = await buildUser(t.database, fields);
  return { user, headers: await signIn(t.database, user) };
}

/** A team of an owner and a teammate, each signed in. */
async function team() {
  const owner = await member();
  const teammate = await member();
  const row = await buildTeam(t.database, { name: "Platform" });
  await buildTeamMember(t.database, { teamId: row.id, userId: owner.user.id, role: "owner" });
  await buildTeamMember(t.database, { teamId: row.id, userId: teammate.user.id });
  return { team: row, owner, teammate };
}

async function page(slug: string, headers: Headers): Promise<TeamPage> {
  const response = await send(t.app, "GET", `/api/teams/${slug}`, { headers });
  expect(response.statusCode).toBe(200);
  return response.json();
}

const prismsOn = (seen: TeamPage, username: string) =>
  seen.members.find((m) => m.username === username)?.prisms ?? [];

/** Moves a prism's last change, or a member's last look, to `minutes` ago. */
const ago = (minutes: number) => sql`now() - make_interval(mins => ${minutes})`;

describe("the team's page", () => {
  it("marks what a teammate changed since the member last looked, until they look again", async () => {
    const { team: row, owner, teammate } = await team();
    const old = await buildPrism(t.database, { userId: owner.user.id, title: "Old" });
    const fresh = await buildPrism(t.database, { userId: owner.user.id, title: "Fresh", index: 1 });
    const own = await buildPrism(t.database, { userId: teammate.user.id, title: "Mine" });
    await t.database.db
      .update(prisms)
      .set({ updatedAt: ago(60) })
      .where(eq(prisms.id, old.id));
    await t.database.db
      .update(teamMembers)
      .set({ joinedAt: ago(120), lastSeenAt: ago(30) })
      .where(eq(teamMembers.userId, teammate.user.id));

    const first = await page(row.slug, teammate.headers);
    expect(prismsOn(first, owner.user.username).map((p) => [p.title, p.isNew])).toEqual([
      ["Old", false],
      ["Fresh", true],
    ]);
    // One's own changes are never news.
    expect(prismsOn(first, teammate.user.username)).toMatchObject([{ id: own.id, isNew: false }]);

    const seen = await send(t.app, "POST", `/api/teams/${row.slug}/seen`, {
      headers: teammate.headers,
    });
    expect(seen.statusCode).toBe(204);
    const again = await page(row.slug, teammate.headers);
    expect(prismsOn(again, owner.user.username).some((p) => p.isNew)).toBe(false);
    expect(fresh.id).toBe(prismsOn(again, owner.user.username)[1]?.id);
  });

  it("before a member's first look, marks what changed since they joined", async () => {
    const { team: row, owner, teammate } = await team();
    const before = await buildPrism(t.database, { userId: owner.user.id, title: "Before" });
    await t.database.db
      .update(prisms)
      .set({ updatedAt: ago(60) })
      .where(eq(prisms.id, before.id));
    await buildPrism(t.database, { userId: owner.user.id, title: "After", index: 1 });
    await t.database.db
      .update(teamMembers)
      .set({ joinedAt: ago(30) })
      .where(eq(teamMembers.userId, teammate.user.id));
    const seen = await page(row.slug, teammate.headers);
    expect(prismsOn(seen, owner.user.username).map((p) => [p.title, p.isNew])).toEqual([
      ["Before", false],
      ["After", true],
    ]);
  });

  it("records one member's look, for that team alone, and 404s outside the team", async () => {
    const { team: row, teammate } = await team();
    const outsider = await member();
    const refused = await send(t.app, "POST", `/api/teams/${row.slug}/seen`, {
      headers: outsider.headers,
    });
    expect(refused.statusCode).toBe(404);
    await send(t.app, "POST", `/api/teams/${row.slug}/seen`, { headers: teammate.headers });
    const looks = await t.database.db
      .select({ userId: teamMembers.userId, lastSeenAt: teamMembers.lastSeenAt })
      .from(teamMembers)
      .where(eq(teamMembers.teamId, row.id));
    expect(looks.filter((look) => look.lastSeenAt !== null).map((look) => look.userId)).toEqual([
      teammate.user.id,
    ]);
  });

  it("shows each member their own count of waiting responses, and nobody else's", async () => {
    const { team: row, owner, teammate } = await team();
    const prism = await buildPrism(t.database, { userId: owner.user.id });
    await buildAnnotation(t.database, { prismId: prism.id, visitorHash: "a" });
    await buildAnnotation(t.database, { prismId: prism.id, visitorHash: "b" });
    await buildAnnotation(t.database, { prismId: prism.id, visitorHash: "c", status: "approved" });
    await buildAnnotation(t.database, { prismId: prism.id, visitorHash: "d", silenced: true });

    const counts = (seen: TeamPage) => seen.members.map((m) => [m.username, m.waitingCount]);
    expect(counts(await page(row.slug, owner.headers))).toEqual([
      [owner.user.username, 2],
      [teammate.user.username, null],
    ]);
    expect(counts(await page(row.slug, teammate.headers))).toEqual([
      [owner.user.username, null],
      [teammate.user.username, 0],
    ]);
  });
});

const CONTENT = "<p>Mornings are for deep work.</p>";

const writePrism = (headers: Headers, body: object) =>
  send(t.app, "POST", "/api/prisms", { headers, payload: { content: CONTENT, ...body } });

const teamLinesOf = (userId: number) =>
  t.database.db
    .select({
      prismId: notifications.prismId,
      actorName: notifications.actorName,
      read: notifications.read,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, "team.prism")))
    .orderBy(notifications.id);

async function optIn(
  who: { user: { firstName: string; lastName: string; email: string } },
  headers: Headers,
) {
  const response = await send(t.app, "PUT", "/api/user/profile", {
    headers,
    payload: profileBody(who.user, { notifyTeamPrisms: true }),
  });
  expect(response.statusCode).toBe(200);
  expect(response.json().notifyTeamPrisms).toBe(true);
}

describe("teammates told of each other's prisms", () => {
  it("tells only teammates who opted in, as one line per prism however often it is edited", async () => {
    const { owner, teammate } = await team();
    const quiet = await member();
    const outsider = await member({ notifyTeamPrisms: true });
    const { team: second } = { team: await buildTeam(t.database, { name: "Second" }) };
    await buildTeamMember(t.database, { teamId: second.id, userId: owner.user.id });
    await buildTeamMember(t.database, { teamId: second.id, userId: quiet.user.id });
    await optIn(teammate, teammate.headers);

    const created = await writePrism(owner.headers, { title: "Roadmap", audience: "team" });
    expect(created.statusCode).toBe(201);
    const prismId = created.json().id as number;
    for (const title of ["Roadmap 2", "Roadmap 3"]) {
      const saved = await send(t.app, "PUT", `/api/prisms/${prismId}`, {
        headers: owner.headers,
        payload: { title, content: CONTENT },
      });
      expect(saved.statusCode).toBe(200);
    }
    expect(await teamLinesOf(teammate.user.id)).toEqual([
      { prismId, actorName: expect.any(String), read: false },
    ]);
    expect(await teamLinesOf(quiet.user.id)).toEqual([]);
    expect(await teamLinesOf(outsider.user.id)).toEqual([]);
    expect(await teamLinesOf(owner.user.id)).toEqual([]);

    const list = await send(t.app, "GET", "/api/notifications", { headers: teammate.headers });
    expect(list.json()).toMatchObject([
      { type: "team.prism", prismId, prismTitle: "Roadmap 3", quote: null, passage: null },
    ]);
  });

  it("makes a new line for an edit after the last one was read", async () => {
    const { owner, teammate } = await team();
    await optIn(teammate, teammate.headers);
    const prismId = (await writePrism(owner.headers, { title: "Plan" })).json().id as number;
    await send(t.app, "POST", "/api/notifications/read-all", { headers: teammate.headers });
    await send(t.app, "PUT", `/api/prisms/${prismId}`, {
      headers: owner.headers,
      payload: { title: "Plan B", content: CONTENT },
    });
    expect((await teamLinesOf(teammate.user.id)).map((line) => line.read)).toEqual([true, false]);
  });

  it("tells nobody of a prism kept to its owner, until it is shared", async () => {
    const { owner, teammate } = await team();
    await optIn(teammate, teammate.headers);
    const prismId = (
      await writePrism(owner.headers, { title: "Draft", audience: "private" })
    ).json().id as number;
    await send(t.app, "PUT", `/api/prisms/${prismId}`, {
      headers: owner.headers,
      payload: { title: "Draft 2", content: CONTENT },
    });
    expect(await teamLinesOf(teammate.user.id)).toEqual([]);
    await send(t.app, "PUT", `/api/prisms/${prismId}`, {
      headers: owner.headers,
      payload: { title: "Draft 2", content: CONTENT, audience: "team" },
    });
    expect((await teamLinesOf(teammate.user.id)).map((line) => line.prismId)).toEqual([prismId]);
  });
});

describe("teammates' responses", () => {
  const statusOf = async (annotationId: number) =>
    (
      await t.database.db
        .select({ status: annotations.status })
        .from(annotations)
        .where(eq(annotations.id, annotationId))
    )[0]?.status;

  it("land approved unless the owner turns it off; other members' still wait", async () => {
    const { owner, teammate } = await team();
    const stranger = await member();
    const prism = await buildPrism(t.database, { userId: owner.user.id, content: CONTENT });
    const respond = async (headers: Headers) => {
      const response = await respondToQuote(t.app, prism.id, CONTENT, "deep work", headers);
      expect(response.statusCode).toBe(201);
      return statusOf(response.json().id);
    };
    expect(await respond(teammate.headers)).toBe("approved");
    expect(await respond(stranger.headers)).toBe("pending");

    const off = await send(t.app, "PUT", "/api/user/profile", {
      headers: owner.headers,
      payload: profileBody(owner.user, { preapproveTeammates: false }),
    });
    expect(off.json().preapproveTeammates).toBe(false);
    expect(await respond(teammate.headers)).toBe("pending");
  });
});

describe("Catalyst's Teams table", () => {
  it("lists teams newest first with their members, searches and pages them", async () => {
    const admin = await member({ isAdmin: true });
    const { team: row } = await team();
    const tag = `t${row.id}`;
    const other = await buildTeam(t.database, { name: `Design ${tag}`, slug: `design-${tag}` });
    const all = await send(t.app, "GET", `/api/analytics/teams?q=${tag}`, {
      headers: admin.headers,
    });
    expect(all.json()).toEqual({
      total: 1,
      items: [
        {
          id: other.id,
          name: `Design ${tag}`,
          slug: `design-${tag}`,
          memberCount: 0,
          createdAt: other.createdAt.toISOString(),
        },
      ],
    });
    const paged = await send(t.app, "GET", "/api/analytics/teams?limit=1&offset=1", {
      headers: admin.headers,
    });
    expect(paged.json()).toMatchObject({ items: [{ id: row.id, memberCount: 2 }] });
  });

  it("refuses members and visitors, and lets an admin delete a team with its audit line", async () => {
    const admin = await member({ isAdmin: true });
    const { team: row, owner } = await team();
    const url = `/api/analytics/teams/${row.id}`;
    expect(
      (await send(t.app, "GET", "/api/analytics/teams", { headers: owner.headers })).statusCode,
    ).toBe(403);
    expect((await send(t.app, "DELETE", url, { headers: owner.headers })).statusCode).toBe(403);
    expect((await send(t.app, "DELETE", url)).statusCode).toBe(401);

    expect((await send(t.app, "DELETE", url, { headers: admin.headers })).statusCode).toBe(204);
    expect(
      (await send(t.app, "GET", `/api/teams/${row.slug}`, { headers: owner.headers })).statusCode,
    ).toBe(404);
    const lines = await t.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "team"), eq(auditLog.targetId, row.id)));
    expect(lines).toEqual([
      {
        action: "team.delete",
        actorId: admin.user.id,
        details: {
          target: "Platform",
          before: { name: "Platform", slug: row.slug, members: 2 },
          after: null,
        },
      },
    ]);
    expect((await send(t.app, "DELETE", url, { headers: admin.headers })).statusCode).toBe(404);
  });
});
