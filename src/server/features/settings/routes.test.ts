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
import {
  buildAnnotation,
  buildHeart,
  buildNotification,
  buildPrism,
  buildUser,
} from "../../test/builders.ts";
import { send, setupTestApp, signIn, TEST_PASSWORD } from "../../test/helpers.ts";

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

const saveProfile = (payload: object, headers: Record<string, string> = {}) =>
  send(t.app, "PUT", "/api/user/profile", { payload, headers });

const deleteAccount = (headers: Record<string, string> = {}) =>
  send(t.app, "DELETE", "/api/user/account", {
    headers,
    payload: { currentPassword: TEST_PASSWORD },
  });

describe("PUT /api/user/profile", () => {
  it("keeps pre-approve members off by default, turns it on, and leaves it alone when not sent", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    expect((await saveProfile(profile({ email: user.email }), headers)).json()).toMatchObject({
      preapproveMembers: false,
    });
    const on = await saveProfile(profile({ email: user.email, preapproveMembers: true }), headers);
    expect(on.json()).toMatchObject({ preapproveMembers: true });
    await saveProfile(profile({ email: user.email }), headers);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.preapproveMembers).toBe(true);
    const bad = await saveProfile(
      profile({ email: user.email, preapproveMembers: "yes" }),
      headers,
    );
    expect(bad.statusCode).toBe(400);
  });

  it("requires a signed-in member", async () => {
    expect((await saveProfile(profile())).statusCode).toBe(401);
  });

  it("saves the fields, trims them and stores empty links as none", async () => {
    const user = await buildUser(t.database);
    const response = await saveProfile(
      profile({
        email: `  ${user.username}-new@example.com `,
        currentPassword: TEST_PASSWORD,
        displayName: " Octavia ",
        websiteUrl: "https://octavia.example",
        linkedinUrl: "http://linkedin.com/in/octavia",
      }),
      await signIn(t.database, user),
    );
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
    const response = await saveProfile(profile(overrides), await signIn(t.database, user));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toBe(message);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toEqual(user);
  });

  it("answers 409 when another member has the email in any case, and allows one's own", async () => {
    const other = await buildUser(t.database);
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const changed = (email: string) => profile({ email, currentPassword: TEST_PASSWORD });
    const taken = await saveProfile(changed(other.email.toUpperCase()), headers);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ email: "Email is already registered" });
    const own = await saveProfile(changed(user.email.toUpperCase()), headers);
    expect(own.statusCode).toBe(200);
  });

  it("rejects unknown fields such as isAdmin", async () => {
    const user = await buildUser(t.database);
    const response = await saveProfile(profile({ isAdmin: true }), await signIn(t.database, user));
    expect(response.statusCode).toBe(400);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.isAdmin).toBe(false);
  });
});

describe("DELETE /api/user/account", () => {
  it("requires a signed-in member", async () => {
    expect((await deleteAccount()).statusCode).toBe(401);
  });

  it("removes the member and everything that is theirs, correcting counts elsewhere", async () => {
    const leaving = await buildUser(t.database);
    const staying = await buildUser(t.database);
    const db = t.database.db;
    const own = await buildPrism(t.database, {
      userId: leaving.id,
      title: "Mine",
      content: "<p>x</p>",
      heartsCount: 1,
    });
    const theirs = await buildPrism(t.database, {
      userId: staying.id,
      title: "Theirs",
      content: "<p>hello world</p>",
      heartsCount: 2,
    });
    await buildHeart(t.database, { prismId: own.id, userId: staying.id });
    await buildHeart(t.database, { prismId: theirs.id, userId: leaving.id });
    await buildHeart(t.database, { prismId: theirs.id, visitorHash: "someone" });
    await buildAnnotation(t.database, {
      prismId: theirs.id,
      userId: leaving.id,
      selectedText: "hello",
      annotationText: "hi",
      selectionEnd: 5,
      prismTitle: "Theirs",
    });
    await buildAnnotation(t.database, {
      prismId: own.id,
      userId: staying.id,
      selectedText: "x",
      annotationText: "yo",
      selectionEnd: 1,
      prismTitle: "Mine",
    });
    await buildNotification(t.database, {
      userId: staying.id,
      prismId: theirs.id,
      actorKey: `user:${leaving.id}`,
      actorName: "Leaving",
    });
    await buildNotification(t.database, {
      userId: leaving.id,
      prismId: own.id,
      actorKey: `user:${staying.id}`,
      actorName: null,
    });
    const headers = await signIn(t.database, leaving);

    const response = await deleteAccount(headers);
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
