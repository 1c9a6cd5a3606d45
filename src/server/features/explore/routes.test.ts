import { describe, expect, it } from "vitest";
import type { ExplorePrism, ExploreUser } from "../../../contract/explore.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn } from "../../test/helpers.ts";

const t = setupTestApp();

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

// The builders write rows straight into the tables, with none of the events that move the explore
// version, so a repeated address could be answered from memory (cache/conditional.postgres.test.ts tests
// that): each read here is a new address, which the page query ignores.
let reads = 0;
const explore = (list: "users" | "prisms", query: string) =>
  t.app.inject({ method: "GET", url: `/api/explore/${list}?${query}&read=${++reads}` });

async function getUsers(query = "limit=50"): Promise<ExploreUser[]> {
  const response = await explore("users", query);
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function getPrisms(query = "limit=50"): Promise<ExplorePrism[]> {
  const response = await explore("prisms", query);
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** The list's entries for these rows only (other tests' rows left out), in the list's order. */
const usersAmong = async (ids: number[]) =>
  (await getUsers()).filter((entry) => ids.includes(entry.user.id));
const prismsAmong = async (ids: number[]) =>
  (await getPrisms()).filter((entry) => ids.includes(entry.prism.id));

/** Each bad page query (with the field it gets wrong) is a 400 naming that field. */
function itRejectsBadPages(list: "users" | "prisms", cases: [string, string][]) {
  it.each(cases)("rejects %s with 400 naming %s", async (query, field) => {
    const response = await t.app.inject({ method: "GET", url: `/api/explore/${list}?${query}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toBeTruthy();
  });
}

/** What explore shows of a member: their names and username, nothing else. */
const memberKeys = ["displayName", "firstName", "id", "lastName", "profileImageUrl", "username"];

describe("GET /api/explore/users", () => {
  it("lists members with prisms, most recently active first, never-active last, each with their first prism", async () => {
    const earlier = await buildUser(t.database, { lastActiveAt: minutesAgo(30) });
    const latest = await buildUser(t.database, { lastActiveAt: minutesAgo(1) });
    const never = await buildUser(t.database, { lastActiveAt: null });
    const neverToo = await buildUser(t.database, { lastActiveAt: null });
    const withoutPrisms = await buildUser(t.database, { lastActiveAt: new Date() });
    // Inserted out of order: the first prism is the one at index 0, not the first row.
    await buildPrism(t.database, { userId: earlier.id, index: 1, title: "Second thoughts" });
    await buildPrism(t.database, {
      userId: earlier.id,
      index: 0,
      title: "First things",
      content: "<p>Begin <em>here</em>.</p>",
    });
    for (const member of [latest, never, neverToo]) {
      await buildPrism(t.database, { userId: member.id, title: `Prism of ${member.username}` });
    }

    const list = await usersAmong([earlier.id, latest.id, never.id, neverToo.id, withoutPrisms.id]);
    const ids = list.map((entry) => entry.user.id);
    // Never active: the newest member (highest id) first.
    expect(ids).toEqual([latest.id, earlier.id, neverToo.id, never.id]);
    // The first prism's content as the page shows it: a plain-text excerpt.
    expect(list[1]?.firstPrism).toEqual({ title: "First things", content: "Begin here." });
  });

  it("leaves out deactivated members", async () => {
    const gone = await buildUser(t.database, {
      lastActiveAt: new Date(),
      deactivatedAt: new Date(),
    });
    await buildPrism(t.database, { userId: gone.id });
    const ids = (await getUsers()).map((entry) => entry.user.id);
    expect(ids).not.toContain(gone.id);
  });

  it("leaves out a member whose last prism is deleted, and takes them back with a new one", async () => {
    const member = await buildUser(t.database, { lastActiveAt: new Date() });
    const headers = await signIn(t.database, member);
    const created = await send(t.app, "POST", "/api/prisms", {
      headers,
      payload: { title: "Only one", content: "<p>For now.</p>" },
    });
    expect(created.statusCode).toBe(201);
    expect((await usersAmong([member.id])).length).toBe(1);
    const deleted = await send(t.app, "DELETE", `/api/prisms/${created.json().id}`, { headers });
    expect(deleted.statusCode).toBe(204);
    expect(await usersAmong([member.id])).toEqual([]);
    await send(t.app, "POST", "/api/prisms", { headers, payload: { title: "Back", content: "" } });
    expect((await usersAmong([member.id])).map((entry) => entry.firstPrism?.title)).toEqual([
      "Back",
    ]);
  });

  it("shows the names the page shows and nothing else", async () => {
    const member = await buildUser(t.database, {
      lastActiveAt: new Date(),
      isAdmin: true,
      googleId: "google-123",
      displayName: "Shown",
      websiteUrl: "https://example.com/not-on-explore",
    });
    const named = await buildUser(t.database, { lastActiveAt: new Date() });
    for (const { id } of [member, named]) await buildPrism(t.database, { userId: id });
    const response = await explore("users", "limit=50");
    const entries = response.json() as ExploreUser[];
    const entry = entries.find((e) => e.user.id === member.id);
    // A display name stands instead of the first and last name, which are then not sent.
    expect(entry?.user).toEqual({
      id: member.id,
      username: member.username,
      displayName: "Shown",
      firstName: "",
      lastName: "",
      profileImageUrl: null,
    });
    expect(entries.find((e) => e.user.id === named.id)?.user).toEqual({
      id: named.id,
      username: named.username,
      displayName: null,
      firstName: named.firstName,
      lastName: named.lastName,
      profileImageUrl: null,
    });
    expect(response.body).not.toContain("not-on-explore");
    expect(Object.keys(entry?.user ?? {}).sort()).toEqual(memberKeys);
    for (const secret of ["email", "password", "googleId", "isAdmin", "google-123", "$argon2"]) {
      expect(response.body).not.toContain(secret);
    }
  });

  it("pages with limit and offset, ten by default", async () => {
    for (let i = 0; i < 12; i++) {
      const member = await buildUser(t.database, { lastActiveAt: minutesAgo(100 + i) });
      await buildPrism(t.database, { userId: member.id });
    }
    const all = await getUsers();
    expect(all.length).toBeGreaterThan(12);
    expect(await getUsers("")).toEqual(all.slice(0, 10));
    expect(await getUsers("limit=10&offset=10")).toEqual(all.slice(10, 20));
    expect(await getUsers("limit=3&offset=4")).toEqual(all.slice(4, 7));
    expect(await getUsers(`limit=10&offset=${all.length}`)).toEqual([]);
  });

  itRejectsBadPages("users", [
    ["limit=0", "limit"],
    ["limit=51", "limit"],
    ["limit=abc", "limit"],
    ["limit=2.5", "limit"],
    ["offset=-1", "offset"],
  ]);
});

describe("GET /api/explore/prisms", () => {
  it("lists prisms by hearts, then newest, each with its author", async () => {
    const author = await buildUser(t.database);
    const other = await buildUser(t.database);
    const hearted = (
      userId: number,
      index: number,
      title: string,
      heartsCount: number,
      minutes: number,
    ) =>
      buildPrism(t.database, { userId, index, title, heartsCount, createdAt: minutesAgo(minutes) });
    const old = await hearted(author.id, 0, "Old favourite", 5, 60);
    const quiet = await hearted(author.id, 1, "Quiet", 0, 1);
    const newer = await hearted(other.id, 0, "New favourite", 5, 10);
    const top = await hearted(other.id, 1, "Most loved", 9, 120);
    const olderQuiet = await hearted(other.id, 2, "How I work", 0, 500);

    const list = await prismsAmong([old.id, quiet.id, newer.id, top.id, olderQuiet.id]);
    const ids = list.map((entry) => entry.prism.id);
    expect(ids).toEqual([top.id, newer.id, old.id, quiet.id, olderQuiet.id]);
    expect(list[0]).toEqual({
      user: expect.objectContaining({ id: other.id, username: other.username }),
      prism: {
        id: top.id,
        title: "Most loved",
        content: "Mornings are for deep work.",
        heartsCount: 9,
      },
    });
    expect(Object.keys(list[0]?.prism ?? {}).sort()).toEqual([
      "content",
      "heartsCount",
      "id",
      "title",
    ]);
  });

  it("breaks a tie of hearts and time by the newest id", async () => {
    const author = await buildUser(t.database);
    const at = minutesAgo(42);
    const first = await buildPrism(t.database, { userId: author.id, index: 0, createdAt: at });
    const second = await buildPrism(t.database, { userId: author.id, index: 1, createdAt: at });
    const ids = (await getPrisms()).map((entry) => entry.prism.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
  });

  it("leaves out deactivated members' prisms and shows public author fields only", async () => {
    const gone = await buildUser(t.database, { deactivatedAt: new Date() });
    const hidden = await buildPrism(t.database, { userId: gone.id, heartsCount: 1000 });
    const author = await buildUser(t.database, { isAdmin: true, googleId: "google-456" });
    const shown = await buildPrism(t.database, { userId: author.id, heartsCount: 999 });
    const response = await explore("prisms", "limit=50");
    const list = response.json() as ExplorePrism[];
    expect(list.map((entry) => entry.prism.id)).not.toContain(hidden.id);
    expect(list[0]?.prism.id).toBe(shown.id);
    expect(Object.keys(list[0]?.user ?? {}).sort()).toEqual(memberKeys);
    for (const secret of ["email", "password", "googleId", "isAdmin", "google-456", "$argon2"]) {
      expect(response.body).not.toContain(secret);
    }
  });

  it("hides a member's prisms and page while an admin has them deactivated", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const headers = await signIn(t.database, admin);
    const member = await buildUser(t.database, { lastActiveAt: new Date() });
    const prism = await buildPrism(t.database, { userId: member.id });
    const listed = async () => ({
      user: (await usersAmong([member.id])).length,
      prism: (await prismsAmong([prism.id])).length,
    });
    expect(await listed()).toEqual({ user: 1, prism: 1 });
    const url = `/api/analytics/users/${member.id}`;
    expect((await send(t.app, "PUT", `${url}/deactivate`, { headers })).statusCode).toBe(200);
    expect(await listed()).toEqual({ user: 0, prism: 0 });
    expect((await send(t.app, "PUT", `${url}/reactivate`, { headers })).statusCode).toBe(200);
    expect(await listed()).toEqual({ user: 1, prism: 1 });
  });

  it("pages with limit and offset, ten by default", async () => {
    const author = await buildUser(t.database);
    for (let i = 0; i < 12; i++) {
      await buildPrism(t.database, {
        userId: author.id,
        index: i,
        createdAt: minutesAgo(1000 + i),
      });
    }
    const all = await getPrisms();
    expect(all.length).toBeGreaterThan(12);
    expect(await getPrisms("")).toEqual(all.slice(0, 10));
    expect(await getPrisms("limit=10&offset=10")).toEqual(all.slice(10, 20));
    expect(await getPrisms("limit=4&offset=3")).toEqual(all.slice(3, 7));
  });

  itRejectsBadPages("prisms", [
    ["limit=0", "limit"],
    ["limit=100", "limit"],
    ["offset=-5", "offset"],
    ["offset=x", "offset"],
  ]);
});
