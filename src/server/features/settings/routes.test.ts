import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  annotations,
  notifications,
  prismHearts,
  prisms,
  sessions,
  users,
} from "../../db/schema.ts";
import { buildUser, jsonHeaders, setupTestApp, signIn } from "../../test/helpers.ts";

const t = setupTestApp();

const profile = (overrides: Record<string, unknown> = {}) => ({
  firstName: "Octavia",
  lastName: "Butler",
  email: "octavia@example.com",
  displayName: "",
  websiteUrl: "",
  twitterUrl: "",
  linkedinUrl: "",
  ...overrides,
});

describe("PUT /api/user/profile", () => {
  it("requires a signed-in member", async () => {
    const response = await t.app.inject({
      method: "PUT",
      url: "/api/user/profile",
      headers: jsonHeaders(),
      payload: profile(),
    });
    expect(response.statusCode).toBe(401);
  });

  it("saves the fields, trims them and stores empty links as none", async () => {
    const user = await buildUser(t.database);
    const response = await t.app.inject({
      method: "PUT",
      url: "/api/user/profile",
      headers: jsonHeaders(await signIn(t.database, user)),
      payload: profile({
        email: `  ${user.username}-new@example.com `,
        displayName: " Octavia ",
        websiteUrl: "https://octavia.example",
        linkedinUrl: "http://linkedin.com/in/octavia",
      }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: "Octavia",
      email: `${user.username}-new@example.com`,
      displayName: "Octavia",
      websiteUrl: "https://octavia.example",
      twitterUrl: null,
      linkedinUrl: "http://linkedin.com/in/octavia",
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.twitterUrl).toBeNull();
    expect(row?.displayName).toBe("Octavia");
  });

  it.each([
    ["firstName", { firstName: " " }, "First name is required"],
    ["lastName", { lastName: "" }, "Last name is required"],
    ["email", { email: "nope" }, "Invalid email address"],
    ["websiteUrl", { websiteUrl: "javascript:alert(1)" }, "Must be a valid URL"],
    ["twitterUrl", { twitterUrl: "ftp://x.com/me" }, "Must be a valid URL"],
    ["linkedinUrl", { linkedinUrl: "not a url" }, "Must be a valid URL"],
    [
      "websiteUrl",
      { websiteUrl: `https://example.com/${"a".repeat(2048)}` },
      "Must be at most 2048 characters",
    ],
  ])("rejects a bad %s with 400 and changes nothing", async (field, overrides, message) => {
    const user = await buildUser(t.database);
    const response = await t.app.inject({
      method: "PUT",
      url: "/api/user/profile",
      headers: jsonHeaders(await signIn(t.database, user)),
      payload: profile(overrides),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toBe(message);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toEqual(user);
  });

  it("answers 409 when another member has the email in any case, and allows one's own", async () => {
    const other = await buildUser(t.database);
    const user = await buildUser(t.database);
    const headers = jsonHeaders(await signIn(t.database, user));
    const taken = await t.app.inject({
      method: "PUT",
      url: "/api/user/profile",
      headers,
      payload: profile({ email: other.email.toUpperCase() }),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ email: "Email is already registered" });
    const own = await t.app.inject({
      method: "PUT",
      url: "/api/user/profile",
      headers,
      payload: profile({ email: user.email.toUpperCase() }),
    });
    expect(own.statusCode).toBe(200);
  });

  it("rejects unknown fields such as isAdmin", async () => {
    const user = await buildUser(t.database);
    const response = await t.app.inject({
      method: "PUT",
      url: "/api/user/profile",
      headers: jsonHeaders(await signIn(t.database, user)),
      payload: profile({ isAdmin: true }),
    });
    expect(response.statusCode).toBe(400);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.isAdmin).toBe(false);
  });
});

describe("DELETE /api/user/account", () => {
  it("requires a signed-in member", async () => {
    const response = await t.app.inject({
      method: "DELETE",
      url: "/api/user/account",
      headers: jsonHeaders(),
    });
    expect(response.statusCode).toBe(401);
  });

  it("removes the member and everything that is theirs, correcting counts elsewhere", async () => {
    const leaving = await buildUser(t.database);
    const staying = await buildUser(t.database);
    const db = t.database.db;
    const [own] = await db
      .insert(prisms)
      .values({ userId: leaving.id, title: "Mine", content: "<p>x</p>", index: 0, heartsCount: 1 })
      .returning();
    const [theirs] = await db
      .insert(prisms)
      .values({
        userId: staying.id,
        title: "Theirs",
        content: "<p>hello world</p>",
        index: 0,
        heartsCount: 2,
      })
      .returning();
    if (!own || !theirs) throw new Error("setup");
    await db.insert(prismHearts).values([
      { prismId: own.id, userId: staying.id },
      { prismId: theirs.id, userId: leaving.id },
      { prismId: theirs.id, visitorHash: "someone" },
    ]);
    await db.insert(annotations).values([
      {
        prismId: theirs.id,
        userId: leaving.id,
        selectedText: "hello",
        annotationText: "hi",
        selectionStart: 0,
        selectionEnd: 5,
        prismTitle: "Theirs",
      },
      {
        prismId: own.id,
        userId: staying.id,
        selectedText: "x",
        annotationText: "yo",
        selectionStart: 0,
        selectionEnd: 1,
        prismTitle: "Mine",
      },
    ]);
    await db.insert(notifications).values([
      {
        userId: staying.id,
        prismId: theirs.id,
        type: "heart",
        actorKey: `user:${leaving.id}`,
        actorName: "Leaving",
      },
      { userId: leaving.id, prismId: own.id, type: "heart", actorKey: `user:${staying.id}` },
    ]);
    const headers = jsonHeaders(await signIn(t.database, leaving));

    const response = await t.app.inject({ method: "DELETE", url: "/api/user/account", headers });
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((c) => c.name === "prism_session")?.value).toBe("");

    const count = async (
      table:
        | typeof prisms
        | typeof prismHearts
        | typeof annotations
        | typeof notifications
        | typeof sessions,
    ) => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(eq(table.userId, leaving.id));
      return row?.n;
    };
    expect(await db.select().from(users).where(eq(users.id, leaving.id))).toEqual([]);
    expect(await count(prisms)).toBe(0);
    expect(await count(prismHearts)).toBe(0);
    expect(await count(annotations)).toBe(0);
    expect(await count(notifications)).toBe(0);
    expect(await count(sessions)).toBe(0);
    expect(await db.select().from(annotations).where(eq(annotations.prismId, own.id))).toEqual([]);
    const [after] = await db.select().from(prisms).where(eq(prisms.id, theirs.id));
    expect(after?.heartsCount).toBe(1);
    const left = await db.select().from(notifications).where(eq(notifications.userId, staying.id));
    expect(left).toEqual([]);
    expect((await t.app.inject({ method: "GET", url: "/api/user", headers })).statusCode).toBe(401);
  });
});

describe("GET /api/users/:username", () => {
  it("shows public fields only, ignoring case, and 404s unknown and deactivated members", async () => {
    const user = await buildUser(t.database, { websiteUrl: "https://me.example" });
    const response = await t.app.inject({
      method: "GET",
      url: `/api/users/${user.username.toUpperCase()}`,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ username: user.username, websiteUrl: "https://me.example" });
    for (const secret of ["email", "password", "googleId", "isAdmin", "deactivatedAt"]) {
      expect(body).not.toHaveProperty(secret);
    }
    expect(
      (await t.app.inject({ method: "GET", url: "/api/users/nobody-at-all" })).statusCode,
    ).toBe(404);
    const gone = await buildUser(t.database, { deactivatedAt: new Date() });
    expect(
      (await t.app.inject({ method: "GET", url: `/api/users/${gone.username}` })).statusCode,
    ).toBe(404);
  });
});
