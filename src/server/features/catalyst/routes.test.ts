// The Catalyst calls: who may make them, what each returns and does, and the audit log it leaves.
import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { authMessages } from "../../../contract/auth.ts";
import { type ActivityDay, catalystMessages } from "../../../contract/catalyst.ts";
import { buildApp } from "../../app.ts";
import {
  annotations,
  auditLog,
  contactMessages,
  federationReports,
  notifications,
  prismHearts,
  prisms,
  sessions,
  type UserRow,
  users,
} from "../../db/schema.ts";
import {
  buildAnnotation,
  buildHeart,
  buildNotification,
  buildPrism,
  buildTeam,
  buildUser,
} from "../../test/builders.ts";
import { isEvent, openStream } from "../../test/event-stream.ts";
import { send, setupTestApp, signIn, TEST_PASSWORD } from "../../test/helpers.ts";

const t = setupTestApp();
let base = "";
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});

const day = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

let admin: UserRow;
let adminHeaders: Record<string, string>;
beforeAll(async () => {
  admin = await buildUser(t.database, { isAdmin: true });
  adminHeaders = await signIn(t.database, admin);
});

const asAdmin = (method: "GET" | "PUT" | "DELETE" | "POST", url: string, payload?: object) =>
  send(t.app, method, url, { headers: adminHeaders, payload });

/** A member with a prism, a heart, an annotation and the owner's notifications about them. */
async function prismWithResponses(title = "How I work") {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, title });
  await buildHeart(t.database, { prismId: prism.id });
  await t.database.db.update(prisms).set({ heartsCount: 1 }).where(eq(prisms.id, prism.id));
  const annotation = await buildAnnotation(t.database, { prismId: prism.id, prismTitle: title });
  await buildNotification(t.database, { userId: owner.id, prismId: prism.id });
  await buildNotification(t.database, {
    userId: owner.id,
    prismId: prism.id,
    type: "annotation",
    annotationId: annotation.id,
  });
  return { owner, prism, annotation };
}

async function auditOf(action: string, targetId: number) {
  return t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));
}

describe("authorization", () => {
  /**
   * Every admin call, with how to make a valid request of it and what an admin gets. The test
   * below fails when a call under /api/analytics (or the admin status call) has no row here.
   */
  const calls: Record<string, { admin: number; request: () => Promise<[string, object?]> }> = {
    "GET /api/analytics/stats": { admin: 200, request: async () => ["/api/analytics/stats"] },
    "GET /api/analytics/activity": { admin: 200, request: async () => ["/api/analytics/activity"] },
    "GET /api/analytics/users": { admin: 200, request: async () => ["/api/analytics/users"] },
    "GET /api/analytics/prisms": { admin: 200, request: async () => ["/api/analytics/prisms"] },
    "GET /api/analytics/annotations": {
      admin: 200,
      request: async () => ["/api/analytics/annotations"],
    },
    "GET /api/analytics/audit": { admin: 200, request: async () => ["/api/analytics/audit"] },
    "GET /api/analytics/contact-messages": {
      admin: 200,
      request: async () => ["/api/analytics/contact-messages"],
    },
    "PUT /api/analytics/users/{id}/admin": {
      admin: 200,
      request: async () => [
        `/api/analytics/users/${(await buildUser(t.database)).id}/admin`,
        { isAdmin: true },
      ],
    },
    "PUT /api/analytics/users/{id}/deactivate": {
      admin: 200,
      request: async () => [`/api/analytics/users/${(await buildUser(t.database)).id}/deactivate`],
    },
    "PUT /api/analytics/users/{id}/reactivate": {
      admin: 200,
      request: async () => [
        `/api/analytics/users/${(await buildUser(t.database, { deactivatedAt: new Date() })).id}/reactivate`,
      ],
    },
    // This server cannot send e-mail: the admin is told that nothing was sent.
    "POST /api/analytics/users/{id}/reset-password": {
      admin: 409,
      request: async () => [
        `/api/analytics/users/${(await buildUser(t.database)).id}/reset-password`,
      ],
    },
    "PUT /api/analytics/users/{id}/silence": {
      admin: 200,
      request: async () => [
        `/api/analytics/users/${(await buildUser(t.database)).id}/silence`,
        { silenced: true },
      ],
    },
    "DELETE /api/analytics/prisms/{id}": {
      admin: 204,
      request: async () => [`/api/analytics/prisms/${(await prismWithResponses()).prism.id}`],
    },
    "GET /api/analytics/teams": { admin: 200, request: async () => ["/api/analytics/teams"] },
    "DELETE /api/analytics/teams/{id}": {
      admin: 204,
      request: async () => [`/api/analytics/teams/${(await buildTeam(t.database)).id}`],
    },
    "DELETE /api/analytics/annotations/{id}": {
      admin: 204,
      request: async () => [
        `/api/analytics/annotations/${(await prismWithResponses()).annotation.id}`,
      ],
    },
    "GET /api/analytics/federation": {
      admin: 200,
      request: async () => ["/api/analytics/federation"],
    },
    "PUT /api/analytics/federation/domains/{domain}": {
      admin: 200,
      request: async () => [
        "/api/analytics/federation/domains/spam.example",
        { policy: "limited" },
      ],
    },
    "GET /api/analytics/reports": { admin: 200, request: async () => ["/api/analytics/reports"] },
    // A report another server sent (an inbound Flag), kept as the inbox keeps it.
    "PUT /api/analytics/reports/{id}/dismiss": {
      admin: 204,
      request: async () => {
        const member = await buildUser(t.database);
        const [report] = await t.database.db
          .insert(federationReports)
          .values({
            reporterActorId: "https://mod.example/actor",
            reporterDomain: "mod.example",
            userId: member.id,
            objects: [`https://prism.example/ap/actors/${member.id}`],
            activityId: `https://mod.example/flags/${member.id}`,
          })
          .returning();
        return [`/api/analytics/reports/${report?.id}/dismiss`];
      },
    },
    "PUT /api/prisms/0/annotations/{id}/status": {
      admin: 200,
      request: async () => [
        `/api/prisms/0/annotations/${(await prismWithResponses()).annotation.id}/status`,
        { status: "approved" },
      ],
    },
  };

  it("has a row for every admin call the app registers", async () => {
    const docs = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const registered = Object.entries(docs.paths).flatMap(([path, methods]) =>
      path.startsWith("/api/analytics/") || path === "/api/prisms/0/annotations/{id}/status"
        ? Object.keys(methods)
            .filter((method) => method !== "head")
            .map((method) => `${method.toUpperCase()} ${path}`)
        : [],
    );
    expect(registered.sort()).toEqual(Object.keys(calls).sort());
  });

  for (const [call, { admin: expected, request }] of Object.entries(calls)) {
    it(`${call}: 401 signed out, 403 for a member, ${expected} for an admin`, async () => {
      const method = call.split(" ")[0] as "GET" | "PUT" | "DELETE" | "POST";
      const [url, payload] = await request();
      const member = await signIn(t.database, await buildUser(t.database));
      const anonymous = await send(t.app, method, url, { payload });
      expect(anonymous.statusCode).toBe(401);
      const denied = await send(t.app, method, url, { headers: member, payload });
      expect(denied.statusCode).toBe(403);
      // The admin's call then answers: the refused ones changed nothing it depends on.
      const allowed = await send(t.app, method, url, { headers: adminHeaders, payload });
      expect(allowed.statusCode, allowed.body).toBe(expected);
    });
  }

  it("answers 404 for unknown ids", async () => {
    const missing = 2 ** 31 - 1;
    for (const [method, url, payload] of [
      ["PUT", `/api/analytics/users/${missing}/admin`, { isAdmin: true }],
      ["PUT", `/api/analytics/users/${missing}/deactivate`],
      ["PUT", `/api/analytics/users/${missing}/reactivate`],
      ["DELETE", `/api/analytics/prisms/${missing}`],
      ["DELETE", `/api/analytics/annotations/${missing}`],
      ["PUT", `/api/prisms/0/annotations/${missing}/status`, { status: "pending" }],
    ] as const) {
      const response = await asAdmin(method, url, payload);
      expect(response.statusCode, url).toBe(404);
    }
  });

  it("answers bad input with 400 and the error shape, changing nothing", async () => {
    const target = await buildUser(t.database);
    for (const [method, url, payload, field] of [
      ["GET", "/api/analytics/users?limit=0", undefined, "limit"],
      ["GET", "/api/analytics/users?offset=-1", undefined, "offset"],
      ["GET", "/api/analytics/contact-messages?limit=51", undefined, "limit"],
      ["GET", `/api/analytics/prisms?q=${"x".repeat(101)}`, undefined, "q"],
      ["PUT", `/api/analytics/users/${target.id}/admin`, { isAdmin: "yes" }, "isAdmin"],
      ["PUT", `/api/analytics/users/${target.id}/admin`, {}, "isAdmin"],
      ["PUT", "/api/analytics/users/abc/deactivate", undefined, "id"],
    ] as const) {
      const response = await asAdmin(method, url, payload);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors, url).toHaveProperty(field);
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ isAdmin: false, deactivatedAt: null });
  });
});

describe("GET /api/analytics/stats", () => {
  it("counts what the tables hold, in the last day, week and month", async () => {
    for (const age of [2 * 60 * 60 * 1000, 3 * day, 20 * day, 45 * day]) {
      const member = await buildUser(t.database, { createdAt: ago(age), lastActiveAt: ago(age) });
      const prism = await buildPrism(t.database, { userId: member.id });
      await buildHeart(t.database, { prismId: prism.id });
      await buildAnnotation(t.database, { prismId: prism.id });
    }
    await buildUser(t.database, { createdAt: ago(10 * day), lastActiveAt: null });

    const response = await asAdmin("GET", "/api/analytics/stats");
    expect(response.statusCode).toBe(200);

    // Counted here from the rows themselves, not by the query under test.
    const now = Date.now();
    const all = await t.database.db.select().from(users);
    const newerThan = (date: Date | null, ms: number) => date !== null && now - date.getTime() < ms;
    const countOf = async (table: typeof prisms | typeof prismHearts | typeof annotations) =>
      (await t.database.db.select({ id: table.id }).from(table)).length;
    expect(response.json()).toEqual({
      totalUsers: all.length,
      newUsersMonth: all.filter((u) => newerThan(u.createdAt, 30 * day)).length,
      totalPrisms: await countOf(prisms),
      totalHearts: await countOf(prismHearts),
      totalAnnotations: await countOf(annotations),
      activeUsersToday: all.filter((u) => newerThan(u.lastActiveAt, day)).length,
      activeUsersWeek: all.filter((u) => newerThan(u.lastActiveAt, 7 * day)).length,
      newUsersToday: all.filter((u) => newerThan(u.createdAt, day)).length,
      newUsersWeek: all.filter((u) => newerThan(u.createdAt, 7 * day)).length,
    });
    // The fixtures above make each window differ from the next.
    const stats = response.json();
    expect(stats.newUsersToday).toBeLessThan(stats.newUsersWeek);
    expect(stats.newUsersWeek).toBeLessThan(stats.newUsersMonth);
    expect(stats.newUsersMonth).toBeLessThan(stats.totalUsers);
  });
});

describe("GET /api/analytics/activity", () => {
  it("gives the last 30 UTC days, oldest first, with what was made on each", async () => {
    const member = await buildUser(t.database, { createdAt: ago(5 * day) });
    const prism = await buildPrism(t.database, { userId: member.id, createdAt: ago(5 * day) });
    await buildHeart(t.database, { prismId: prism.id, createdAt: ago(2 * day) });
    await buildAnnotation(t.database, { prismId: prism.id, createdAt: ago(40 * day) });

    const response = await asAdmin("GET", "/api/analytics/activity");
    expect(response.statusCode).toBe(200);
    const days = response.json() as ActivityDay[];
    expect(days).toHaveLength(30);
    const utcDay = (date: Date) => date.toISOString().slice(0, 10);
    expect(days.at(-1)?.day).toBe(utcDay(new Date()));
    expect(days[0]?.day).toBe(utcDay(ago(29 * day)));

    const perDay = async (
      table: typeof users | typeof prisms | typeof prismHearts | typeof annotations,
    ) => {
      const counts = new Map<string, number>();
      for (const row of await t.database.db.select({ at: table.createdAt }).from(table)) {
        counts.set(utcDay(row.at), (counts.get(utcDay(row.at)) ?? 0) + 1);
      }
      return counts;
    };
    const [u, p, h, a] = await Promise.all([
      perDay(users),
      perDay(prisms),
      perDay(prismHearts),
      perDay(annotations),
    ]);
    expect(days).toEqual(
      days.map(({ day: d }) => ({
        day: d,
        users: u.get(d) ?? 0,
        prisms: p.get(d) ?? 0,
        hearts: h.get(d) ?? 0,
        annotations: a.get(d) ?? 0,
      })),
    );
    // The rows made above are among them.
    expect(days.find((d) => d.day === utcDay(ago(5 * day)))?.prisms).toBeGreaterThanOrEqual(1);
    expect(days.find((d) => d.day === utcDay(ago(2 * day)))?.hearts).toBeGreaterThanOrEqual(1);
  });
});

describe("the admin tables", () => {
  it("pages members newest first with the total, and searches username, name and e-mail", async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const made: UserRow[] = [];
    for (let i = 0; i < 12; i++) {
      made.push(
        await buildUser(t.database, {
          username: `${tag}_${i}`,
          createdAt: ago((20 - i) * 60_000),
        }),
      );
    }
    const named = await buildUser(t.database, { firstName: "Grace", lastName: `Hopper${tag}` });
    const mailed = await buildUser(t.database, { email: `${tag.toUpperCase()}@Example.org` });

    const first = await asAdmin("GET", `/api/analytics/users?limit=10&offset=0&q=${tag}`);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.total).toBe(14);
    expect(body.items).toHaveLength(10);
    // Newest first: the two made last, then the twelve from the newest down.
    expect(body.items.slice(0, 4).map((u: { id: number }) => u.id)).toEqual([
      mailed.id,
      named.id,
      made[11]?.id,
      made[10]?.id,
    ]);
    expect(body.items[0]).not.toHaveProperty("password");
    expect(body.items[0]).toMatchObject({ isAdmin: false, deactivatedAt: null });

    const second = (
      await asAdmin("GET", `/api/analytics/users?limit=10&offset=10&q=${tag}`)
    ).json();
    expect(second.total).toBe(14);
    expect(second.items.map((u: { id: number }) => u.id)).toEqual(
      [made[3], made[2], made[1], made[0]].map((u) => u?.id),
    );
    const past = (await asAdmin("GET", `/api/analytics/users?limit=10&offset=30&q=${tag}`)).json();
    expect(past).toEqual({ items: [], total: 14 });

    const byName = (await asAdmin("GET", `/api/analytics/users?q=grace%20HOPPER${tag}`)).json();
    expect(byName.items.map((u: { id: number }) => u.id)).toEqual([named.id]);
    const byMail = (await asAdmin("GET", `/api/analytics/users?q=${tag}@example`)).json();
    expect(byMail.items.map((u: { id: number }) => u.id)).toEqual([mailed.id]);
    // Pattern characters are taken literally.
    const literal = (await asAdmin("GET", `/api/analytics/users?q=${tag}%25`)).json();
    expect(literal).toEqual({ items: [], total: 0 });
  });

  it("lists prisms with author, likes, the edited mark and annotation count; searches title and author", async () => {
    const tag = `pq${Date.now().toString(36)}`;
    const author = await buildUser(t.database, { displayName: `Writer ${tag}` });
    const prism = await buildPrism(t.database, {
      userId: author.id,
      title: `Deep work ${tag}`,
      heartsCount: 3,
      editedAfterHearts: true,
    });
    await buildAnnotation(t.database, { prismId: prism.id });
    await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
    const other = await buildPrism(t.database, {
      userId: (await buildUser(t.database)).id,
      title: `Other ${tag}`,
    });

    const byTitle = (await asAdmin("GET", `/api/analytics/prisms?q=DEEP%20work%20${tag}`)).json();
    expect(byTitle).toEqual({
      items: [
        {
          prism: {
            id: prism.id,
            title: prism.title,
            heartsCount: 3,
            editedAfterHearts: true,
            audience: "public",
            createdAt: prism.createdAt.toISOString(),
          },
          author: {
            id: author.id,
            username: author.username,
            firstName: author.firstName,
            lastName: author.lastName,
            displayName: `Writer ${tag}`,
          },
          annotationsCount: 2,
        },
      ],
      total: 1,
    });
    const byAuthor = (await asAdmin("GET", `/api/analytics/prisms?q=writer%20${tag}`)).json();
    expect(byAuthor.items.map((row: { prism: { id: number } }) => row.prism.id)).toEqual([
      prism.id,
    ]);
    const both = (await asAdmin("GET", `/api/analytics/prisms?q=${tag}`)).json();
    expect(both.items.map((row: { prism: { id: number } }) => row.prism.id)).toEqual([
      other.id,
      prism.id,
    ]);
  });

  it("lists annotations with prism and author (absent for visitors); searches text and annotator", async () => {
    const tag = `aq${Date.now().toString(36)}`;
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, title: `Mornings ${tag}` });
    const member = await buildUser(t.database, { displayName: `Reader ${tag}` });
    const byMember = await buildAnnotation(t.database, {
      prismId: prism.id,
      userId: member.id,
      annotationText: "Same here",
      status: "approved",
      createdAt: ago(60_000),
    });
    const byVisitor = await buildAnnotation(t.database, {
      prismId: prism.id,
      annotatorName: `Visitor ${tag}`,
      annotationText: `I like ${tag} too`,
    });

    const byText = (await asAdmin("GET", `/api/analytics/annotations?q=i%20LIKE%20${tag}`)).json();
    expect(byText).toEqual({
      items: [
        {
          annotation: {
            id: byVisitor.id,
            annotationText: `I like ${tag} too`,
            selectedText: "Mornings",
            annotatorName: `Visitor ${tag}`,
            status: "pending",
            silenced: false,
            createdAt: byVisitor.createdAt.toISOString(),
          },
          prism: { id: prism.id, title: prism.title, ownerUsername: owner.username },
          author: null,
          flags: { count: 0, reasons: [] },
        },
      ],
      total: 1,
    });
    const byAnnotator = (
      await asAdmin("GET", `/api/analytics/annotations?q=reader%20${tag}`)
    ).json();
    expect(byAnnotator.items).toHaveLength(1);
    expect(byAnnotator.items[0].annotation.id).toBe(byMember.id);
    expect(byAnnotator.items[0].author).toMatchObject({ id: member.id, username: member.username });
    const byVisitorName = (
      await asAdmin("GET", `/api/analytics/annotations?q=visitor%20${tag}`)
    ).json();
    expect(
      byVisitorName.items.map((row: { annotation: { id: number } }) => row.annotation.id),
    ).toEqual([byVisitor.id]);
  });
});

describe("annotators in the annotations table", () => {
  it("names members with and without a display name, and leaves visitors to their own name", async () => {
    const tag = `an${Date.now().toString(36)}`;
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, title: `Evenings ${tag}` });
    const named = await buildUser(t.database, { displayName: `Named ${tag}` });
    const plain = await buildUser(t.database, { displayName: null });
    const rows = [
      { userId: named.id },
      { userId: plain.id },
      { annotatorName: `Visitor ${tag}` },
      {},
    ];
    const ids: number[] = [];
    for (const row of rows) {
      ids.push((await buildAnnotation(t.database, { prismId: prism.id, ...row })).id);
    }
    const [namedId, plainId, visitorId, anonymousId] = ids;

    const listed = (await asAdmin("GET", "/api/analytics/annotations?limit=50")).json() as {
      items: {
        annotation: { id: number; annotatorName: string | null };
        author: { username: string; displayName: string | null } | null;
      }[];
    };
    const byId = new Map(listed.items.map((item) => [item.annotation.id, item]));
    expect(byId.get(namedId as number)?.author).toMatchObject({
      username: named.username,
      displayName: `Named ${tag}`,
    });
    expect(byId.get(plainId as number)?.author).toMatchObject({
      username: plain.username,
      displayName: null,
    });
    expect(byId.get(visitorId as number)).toMatchObject({
      annotation: { annotatorName: `Visitor ${tag}` },
      author: null,
    });
    expect(byId.get(anonymousId as number)).toMatchObject({
      annotation: { annotatorName: null },
      author: null,
    });
  });
});

describe("admin actions and the audit log", () => {
  it("grants and revokes the admin flag, never one's own, and audits both", async () => {
    const target = await buildUser(t.database);
    const granted = await asAdmin("PUT", `/api/analytics/users/${target.id}/admin`, {
      isAdmin: true,
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ id: target.id, isAdmin: true });
    const revoked = await asAdmin("PUT", `/api/analytics/users/${target.id}/admin`, {
      isAdmin: false,
    });
    expect(revoked.json()).toMatchObject({ id: target.id, isAdmin: false });
    expect(await auditOf("user.grant-admin", target.id)).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        targetType: "user",
        details: {
          target: `@${target.username}`,
          before: { isAdmin: false },
          after: { isAdmin: true },
        },
      }),
    ]);
    expect(await auditOf("user.revoke-admin", target.id)).toEqual([
      expect.objectContaining({
        details: {
          target: `@${target.username}`,
          before: { isAdmin: true },
          after: { isAdmin: false },
        },
      }),
    ]);

    const self = await asAdmin("PUT", `/api/analytics/users/${admin.id}/admin`, { isAdmin: false });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(catalystMessages.selfRevoke);
    const [me] = await t.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(me?.isAdmin).toBe(true);
    expect(await auditOf("user.revoke-admin", admin.id)).toEqual([]);
  });

  it("deactivates a member: sessions end, no sign-in, profile 404, nothing deleted; reactivation restores it", async () => {
    const target = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: target.id });
    const headers = await signIn(t.database, target);
    expect((await send(t.app, "GET", "/api/user", { headers })).statusCode).toBe(200);
    // Answered once, so that the list is remembered until its version moves.
    expect((await send(t.app, "GET", `/api/prisms/${target.username}`)).statusCode).toBe(200);

    const response = await asAdmin("PUT", `/api/analytics/users/${target.id}/deactivate`);
    expect(response.statusCode).toBe(200);
    expect(response.json().deactivatedAt).toEqual(expect.any(String));
    expect((await send(t.app, "GET", "/api/user", { headers })).statusCode).toBe(401);
    expect(
      await t.database.db.select().from(sessions).where(eq(sessions.userId, target.id)),
    ).toEqual([]);
    const login = () =>
      send(t.app, "POST", "/api/login", {
        payload: { username: target.username, password: TEST_PASSWORD },
      });
    const refused = await login();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(authMessages.deactivated);
    expect((await send(t.app, "GET", `/api/users/${target.username}`)).statusCode).toBe(404);
    expect((await send(t.app, "GET", `/api/prisms/${target.username}`)).statusCode).toBe(404);
    expect(await t.database.db.select().from(prisms).where(eq(prisms.id, prism.id))).toHaveLength(
      1,
    );
    expect(await auditOf("user.deactivate", target.id)).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        details: {
          target: `@${target.username}`,
          before: { status: "active" },
          after: { status: "deactivated" },
        },
      }),
    ]);

    const back = await asAdmin("PUT", `/api/analytics/users/${target.id}/reactivate`);
    expect(back.statusCode).toBe(200);
    expect(back.json().deactivatedAt).toBeNull();
    expect((await login()).statusCode).toBe(200);
    expect((await send(t.app, "GET", `/api/prisms/${target.username}`)).json()).toHaveLength(1);
    expect(await auditOf("user.reactivate", target.id)).toEqual([
      expect.objectContaining({
        details: {
          target: `@${target.username}`,
          before: { status: "deactivated" },
          after: { status: "active" },
        },
      }),
    ]);

    const self = await asAdmin("PUT", `/api/analytics/users/${admin.id}/deactivate`);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(catalystMessages.selfDeactivate);
    expect((await send(t.app, "GET", "/api/user", { headers: adminHeaders })).statusCode).toBe(200);
  });

  it("ends the deactivated member's open event streams at once, on every instance", async () => {
    // A second app on the same database: its streams hear of the deactivation through the bus.
    const other = await buildApp({ config: t.config, database: t.database });
    const otherOrigin = await other.listen({ port: 0, host: "127.0.0.1" });
    try {
      const target = await buildUser(t.database);
      const bystander = await buildUser(t.database);
      const here = await openStream(base, await signIn(t.database, target));
      const there = await openStream(otherOrigin, await signIn(t.database, target));
      const unaffected = await openStream(otherOrigin, await signIn(t.database, bystander));
      await Promise.all([here.connected(), there.connected(), unaffected.connected()]);

      expect(
        (await asAdmin("PUT", `/api/analytics/users/${target.id}/deactivate`)).statusCode,
      ).toBe(200);
      for (const s of [here, there]) {
        await s.waitFor(isEvent("sessions.ended"));
        await s.done;
        expect(s.complete()).toBe(true);
      }
      // The bystander's stream carries on: it still receives what happens next.
      await asAdmin("PUT", `/api/analytics/users/${target.id}/reactivate`);
      await unaffected.waitFor(isEvent("prisms.changed", { username: target.username }));
      expect(unaffected.isEnded()).toBe(false);
      expect(unaffected.text()).not.toContain("sessions.ended");
      await unaffected.close();
    } finally {
      await other.close();
    }
  });

  it("deletes any prism with its hearts, annotations and notifications, moves the rest up and tells open pages", async () => {
    const { owner, prism, annotation } = await prismWithResponses("Going away");
    const second = await buildPrism(t.database, { userId: owner.id, index: 1, title: "Staying" });
    const ownerStream = await openStream(base, await signIn(t.database, owner));
    const visitorStream = await openStream(base);
    await Promise.all([ownerStream.connected(), visitorStream.connected()]);

    const response = await asAdmin("DELETE", `/api/analytics/prisms/${prism.id}`);
    expect(response.statusCode).toBe(204);
    const db = t.database.db;
    expect(await db.select().from(prisms).where(eq(prisms.id, prism.id))).toEqual([]);
    expect(await db.select().from(prismHearts).where(eq(prismHearts.prismId, prism.id))).toEqual(
      [],
    );
    expect(await db.select().from(annotations).where(eq(annotations.id, annotation.id))).toEqual(
      [],
    );
    expect(await db.select().from(notifications).where(eq(notifications.userId, owner.id))).toEqual(
      [],
    );
    const [moved] = await db.select().from(prisms).where(eq(prisms.id, second.id));
    expect(moved?.index).toBe(0);

    await visitorStream.waitFor(isEvent("prisms.changed", { username: owner.username }));
    await ownerStream.waitFor(isEvent("notifications.changed"));
    await Promise.all([ownerStream.close(), visitorStream.close()]);
    expect(await auditOf("prism.delete", prism.id)).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        targetType: "prism",
        details: {
          target: "Going away",
          before: { title: "Going away", author: owner.username, hearts: 1 },
          after: null,
        },
      }),
    ]);
    expect((await asAdmin("DELETE", `/api/analytics/prisms/${prism.id}`)).statusCode).toBe(404);
  });

  it("deletes any annotation with its notification and tells the pages that may see it", async () => {
    const { owner, prism, annotation } = await prismWithResponses("Kept");
    const ownerStream = await openStream(base, await signIn(t.database, owner));
    await ownerStream.connected();

    const response = await asAdmin("DELETE", `/api/analytics/annotations/${annotation.id}`);
    expect(response.statusCode).toBe(204);
    const db = t.database.db;
    expect(await db.select().from(annotations).where(eq(annotations.id, annotation.id))).toEqual(
      [],
    );
    const left = await db.select().from(notifications).where(eq(notifications.userId, owner.id));
    expect(left.map((n) => n.type)).toEqual(["heart"]);
    expect(await db.select().from(prisms).where(eq(prisms.id, prism.id))).toHaveLength(1);

    // It was pending: its owner hears of it; pages that could not see it are not told.
    await ownerStream.waitFor(isEvent("annotation.changed", { prismId: prism.id }));
    await ownerStream.waitFor(isEvent("notifications.changed"));
    await ownerStream.close();
    expect(await auditOf("annotation.delete", annotation.id)).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        targetType: "annotation",
        details: {
          target: '"Same here" on "Kept"',
          before: { text: "Same here", passage: "Mornings", status: "pending" },
          after: null,
        },
      }),
    ]);
  });

  it("audits the admin's annotation status, from any status to any other", async () => {
    const { annotation } = await prismWithResponses("Decided");
    const url = `/api/prisms/0/annotations/${annotation.id}/status`;
    expect((await asAdmin("PUT", url, { status: "rejected" })).json().status).toBe("rejected");
    expect((await asAdmin("PUT", url, { status: "pending" })).json().status).toBe("pending");
    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "annotation.status"), eq(auditLog.targetId, annotation.id)))
      .orderBy(auditLog.id);
    expect(entries.map((e) => e.details)).toEqual([
      {
        target: '"Same here" on "Decided"',
        before: { status: "pending" },
        after: { status: "rejected" },
      },
      {
        target: '"Same here" on "Decided"',
        before: { status: "rejected" },
        after: { status: "pending" },
      },
    ]);
  });

  it("audits an admin's decision through the owners' call, and not the owner's own", async () => {
    const { owner, annotation } = await prismWithResponses("Owned");
    const byAdmin = await asAdmin("PUT", `/api/annotations/${annotation.id}/status`, {
      status: "approved",
    });
    expect(byAdmin.statusCode).toBe(200);
    expect((await auditOf("annotation.status", annotation.id)).map((e) => e.details)).toEqual([
      {
        target: '"Same here" on "Owned"',
        before: { status: "pending" },
        after: { status: "approved" },
      },
    ]);
    const other = await buildAnnotation(t.database, { prismId: annotation.prismId });
    const byOwner = await send(t.app, "PUT", `/api/annotations/${other.id}/status`, {
      headers: await signIn(t.database, owner),
      payload: { status: "rejected" },
    });
    expect(byOwner.statusCode).toBe(200);
    expect(await auditOf("annotation.status", other.id)).toEqual([]);
  });

  it("lists the audit log newest first with the acting admin, paged", async () => {
    const target = await buildUser(t.database);
    await asAdmin("PUT", `/api/analytics/users/${target.id}/admin`, { isAdmin: true });
    await asAdmin("PUT", `/api/analytics/users/${target.id}/deactivate`);

    const response = await asAdmin("GET", "/api/analytics/audit?limit=2&offset=0");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const [count] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    expect(body.total).toBe(count?.n);
    expect(body.items).toEqual([
      {
        id: expect.any(Number),
        createdAt: expect.any(String),
        actor: { id: admin.id, username: admin.username },
        action: "user.deactivate",
        targetType: "user",
        targetId: target.id,
        target: `@${target.username}`,
        before: { status: "active" },
        after: { status: "deactivated" },
      },
      expect.objectContaining({ action: "user.grant-admin", targetId: target.id }),
    ]);
    const [newest] = await t.database.db
      .select()
      .from(auditLog)
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(body.items[0].id).toBe(newest?.id);
  });
});

describe("GET /api/analytics/contact-messages", () => {
  it("lists the contact form's messages newest first, paged, with the total", async () => {
    const sent = await send(t.app, "POST", "/api/contact", {
      payload: {
        name: "Noor",
        email: "noor@example.com",
        subject: "Hello",
        message: "I love the idea of annotations on passages.",
      },
    });
    expect(sent.statusCode).toBe(201);
    const [older] = await t.database.db
      .insert(contactMessages)
      .values({
        name: "Sam",
        email: "sam@example.com",
        subject: "Earlier",
        message: "A message from yesterday, kept all the same.",
        createdAt: ago(day),
      })
      .returning();

    const response = await asAdmin("GET", "/api/analytics/contact-messages?limit=2&offset=0");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const [count] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(contactMessages);
    expect(body.total).toBe(count?.n);
    expect(body.items[0]).toEqual({
      id: sent.json().id,
      name: "Noor",
      email: "noor@example.com",
      subject: "Hello",
      message: "I love the idea of annotations on passages.",
      createdAt: expect.any(String),
    });
    const everything = await asAdmin("GET", "/api/analytics/contact-messages?limit=50");
    const ids = everything.json().items.map((item: { id: number }) => item.id);
    expect(ids.indexOf(sent.json().id)).toBeLessThan(ids.indexOf(older?.id));
    expect(everything.json().items.find((item: { id: number }) => item.id === older?.id)).toEqual({
      id: older?.id,
      name: "Sam",
      email: "sam@example.com",
      subject: "Earlier",
      message: "A message from yesterday, kept all the same.",
      createdAt: older?.createdAt.toISOString(),
    });
  });
});
