import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { Annotation } from "../../contract/annotations.ts";
import { annotations, prisms, users } from "../db/schema.ts";
import { cacheHits } from "../metrics.ts";
import { buildAnnotation, buildPrism, buildUser } from "../test/builders.ts";
import { testDatabaseUrl, withDatabase } from "../test/databases.ts";
import {
  asSent,
  jsonHeaders,
  send,
  setupTestApp,
  signIn,
  TEST_PASSWORD,
  visitorCookie,
} from "../test/helpers.ts";
import { databaseName, spawnInstance } from "../test/instances.ts";

const t = setupTestApp();

const list = (username: string) => t.app.inject({ method: "GET", url: `/api/prisms/${username}` });
const titles = (body: unknown) => (body as { title: string }[]).map((prism) => prism.title);

const profile = (username: string) =>
  t.app.inject({ method: "GET", url: `/api/users/${username}` });
const explore = (list: "users" | "prisms") =>
  t.app.inject({ method: "GET", url: `/api/explore/${list}?limit=50` });
/** The explore entry of one member (users list) or one prism (prisms list). */
const exploredUser = async (userId: number) =>
  ((await explore("users")).json() as { user: { id: number; displayName: string | null } }[]).find(
    (entry) => entry.user.id === userId,
  )?.user;
const exploredPrism = async (prismId: number) =>
  ((await explore("prisms")).json() as { prism: { id: number; heartsCount: number } }[]).find(
    (entry) => entry.prism.id === prismId,
  )?.prism;

/** Changes written straight into the tables, as if their events had been lost on the way. */
const retitleQuietly = (prismId: number, title: string) =>
  t.database.db.update(prisms).set({ title }).where(eq(prisms.id, prismId));
const quietlyCountHearts = (prismId: number, heartsCount: number) =>
  t.database.db.update(prisms).set({ heartsCount }).where(eq(prisms.id, prismId));
const renameQuietly = (userId: number, displayName: string) =>
  t.database.db.update(users).set({ displayName }).where(eq(users.id, userId));

/**
 * Runs `work` with the clock standing still: the explore members list's tag also moves with a
 * window of time (activity reorders it without an event), so that only what `work` does moves it.
 */
async function withClockStill(work: () => Promise<void>) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  try {
    await work();
  } finally {
    vi.useRealTimers();
  }
}

const profileUpdate = (user: { email: string }, displayName: string) => ({
  firstName: "Ada",
  lastName: "Lovelace",
  email: user.email,
  displayName,
  websiteUrl: "",
  twitterUrl: "",
  linkedinUrl: "",
});

describe("full answers from memory", () => {
  it("answers an unchanged prism list from memory, and the changed one once its event says so", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, title: "Mornings" });
    const first = await list(owner.username);
    expect(titles(first.json())).toEqual(["Mornings"]);

    // No event, no new version: the answer comes from memory, not from the table.
    await retitleQuietly(prism.id, "Changed behind the app's back");
    const again = await list(owner.username);
    expect(again.statusCode).toBe(200);
    expect(titles(again.json())).toEqual(["Mornings"]);
    expect(again.headers.etag).toBe(first.headers.etag);

    // A write through Prism announces itself, and the next answer is read afresh.
    const saved = await t.app.inject({
      method: "PUT",
      url: `/api/prisms/${prism.id}`,
      headers: jsonHeaders(await signIn(t.database, owner)),
      payload: { title: "Evenings", content: prism.content },
    });
    expect(saved.statusCode).toBe(200);
    const changed = await list(owner.username);
    expect(titles(changed.json())).toEqual(["Evenings"]);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it("answers from memory with every header the read's own answer has, and the request's own id", async () => {
    const owner = await buildUser(t.database);
    await buildPrism(t.database, { userId: owner.id, title: "Mornings" });
    const ask = (id: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: "GET",
        url: `/api/prisms/${owner.username}`,
        headers: { "x-request-id": id, ...headers },
      });
    /** The headers that name the answer, not the moment or the request. */
    const named = (headers: Record<string, unknown>) => {
      const { date: _date, "x-request-id": _id, ...rest } = headers;
      return rest;
    };
    const answersFromMemory = async () =>
      (await cacheHits.get()).values.find((value) => value.labels.cache === "answers")?.value ?? 0;
    // The first read finds the list in no memory; the second keeps its answer; the third is it.
    await ask("first");
    const read = await ask("read");
    const before = await answersFromMemory();
    const kept = await ask("kept");
    expect(await answersFromMemory()).toBe(before + 1);
    const unchanged = await ask("unchanged", { "if-none-match": String(read.headers.etag) });

    expect([read.statusCode, kept.statusCode, unchanged.statusCode]).toEqual([200, 200, 304]);
    expect(kept.body).toBe(read.body);
    expect(named(kept.headers)).toEqual(named(read.headers));
    const { "content-type": _type, "content-length": _length, ...bodiless } = named(read.headers);
    expect(named(unchanged.headers)).toEqual(bodiless);
    expect(read.headers["content-security-policy"]).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect([read, kept, unchanged].map((answer) => answer.headers["x-request-id"])).toEqual([
      "read",
      "kept",
      "unchanged",
    ]);
  });
  it("answers heart status from memory, per viewer, until the prism's hearts or its owner's prisms change", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, heartsCount: 2 });
    const url = `/api/prisms/${prism.id}/heart`;
    const first = { cookie: visitorCookie("visitor-cache-000000001") };
    const second = { cookie: visitorCookie("visitor-cache-000000002") };
    const status = (headers: Record<string, string>) =>
      t.app.inject({ method: "GET", url, headers });

    const before = await status(first);
    expect(before.json()).toEqual({ hearted: false, heartsCount: 2 });
    expect(before.headers.etag).toBeTruthy();
    expect(before.headers["cache-control"]).toBe("private, no-cache");
    // Another browser's answer has a tag of its own.
    const other = await status(second);
    expect(other.headers.etag).toBeTruthy();
    expect(other.headers.etag).not.toBe(before.headers.etag);
    const unchanged = await status({ ...first, "if-none-match": before.headers.etag as string });
    expect(unchanged.statusCode).toBe(304);

    // No event, no new version: the count and this browser's heart come from memory.
    await quietlyCountHearts(prism.id, 7);
    const again = await status(first);
    expect(again.json()).toEqual({ hearted: false, heartsCount: 2 });
    expect(again.headers.etag).toBe(before.headers.etag);

    // A heart through Prism announces itself: every viewer's next answer is read afresh.
    const hearted = await send(t.app, "POST", url, { headers: first });
    expect(hearted.json()).toEqual({ hearted: true, heartsCount: 8 });
    const after = await status(first);
    expect(after.json()).toEqual({ hearted: true, heartsCount: 8 });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await status(second)).json()).toEqual({ hearted: false, heartsCount: 8 });
    const stale = await status({ ...first, "if-none-match": before.headers.etag as string });
    expect(stale.statusCode).toBe(200);

    // Deleting the prism moves its owner's prisms: it is gone, not answered from memory.
    const deleted = await send(t.app, "DELETE", `/api/prisms/${prism.id}`, {
      headers: await signIn(t.database, owner),
    });
    expect(deleted.statusCode).toBe(204);
    const gone = await status({ ...first, "if-none-match": after.headers.etag as string });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers.etag).toBeUndefined();
  });

  it("answers a prism's annotations from memory, as each viewer may see them, until they, the prism or their authors' names change", async () => {
    const owner = await buildUser(t.database);
    const ownerHeaders = await signIn(t.database, owner);
    const author = await buildUser(t.database, { displayName: "Old name" });
    const authorHeaders = await signIn(t.database, author);
    const prism = await buildPrism(t.database, { userId: owner.id, content: "<p>Mornings.</p>" });
    const url = `/api/prisms/${prism.id}/annotations`;
    const writer = { cookie: visitorCookie("visitor-annotating-0001") };
    const reader = { cookie: visitorCookie("visitor-reading-000001") };
    const annotate = async (headers: Record<string, string>, annotationText: string) =>
      send(t.app, "POST", "/api/annotations", {
        headers,
        payload: await asSent(t.app, headers, {
          prismId: prism.id,
          annotationText,
          selectedText: "Mornings",
          selectionStart: 0,
          selectionEnd: 8,
        }),
      });
    const read = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: "GET", url, headers });
    const seen = async (headers: Record<string, string> = {}) =>
      ((await read(headers)).json() as Annotation[]).map((a) => ({
        text: a.annotationText,
        author: a.authorName,
        status: a.status,
        isOwn: a.isOwn,
        canModerate: a.canModerate,
      }));

    const anonymous = await annotate(writer, "From a browser");
    expect(anonymous.statusCode).toBe(201);
    expect(await seen()).toEqual([]);
    expect(await seen(reader)).toEqual([]);
    const own = {
      text: "From a browser",
      author: null,
      status: "pending",
      isOwn: true,
      canModerate: false,
    };
    expect(await seen(writer)).toEqual([own]);
    expect(await seen(ownerHeaders)).toEqual([{ ...own, isOwn: false, canModerate: true }]);

    const decided = await send(t.app, "PUT", `/api/annotations/${anonymous.json().id}/status`, {
      headers: ownerHeaders,
      payload: { status: "approved" },
    });
    expect(decided.statusCode).toBe(200);
    const approved = { ...own, status: "approved", isOwn: false };
    const first = await read(reader);
    expect(first.json()).toMatchObject([{ annotationText: "From a browser", status: "approved" }]);
    expect(first.headers.etag).toBeTruthy();
    expect(await seen()).toEqual([approved]);
    expect(await seen(writer)).toEqual([{ ...approved, isOwn: true }]);

    // No event, no new version: every viewer's answer comes from memory.
    await t.database.db
      .update(annotations)
      .set({ annotationText: "Changed behind the app's back" })
      .where(eq(annotations.prismId, prism.id));
    const again = await read(reader);
    expect(again.json()).toMatchObject([{ annotationText: "From a browser" }]);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(
      (await read({ ...reader, "if-none-match": first.headers.etag as string })).statusCode,
    ).toBe(304);
    expect(await seen(writer)).toEqual([{ ...approved, isOwn: true }]);

    // A member's response moves the prism's annotations: read afresh, the quiet change too.
    expect((await annotate(authorHeaders, "From a member")).statusCode).toBe(201);
    const fromMember = {
      text: "From a member",
      author: "Old name",
      status: "pending",
      isOwn: true,
      canModerate: false,
    };
    const quiet = { ...approved, text: "Changed behind the app's back" };
    expect(await seen()).toEqual([quiet]);
    expect(await seen(authorHeaders)).toEqual([fromMember, quiet]);
    const changed = await read(reader);
    expect(changed.headers.etag).not.toBe(first.headers.etag);

    // The author's new name moves their profile, and so the lists that name them; a reader who
    // is not shown their pending annotation keeps the tag of the answer they have.
    const authorsTag = (await read(authorHeaders)).headers.etag;
    const renamed = await send(t.app, "PUT", "/api/user/profile", {
      headers: authorHeaders,
      payload: profileUpdate(author, "New name"),
    });
    expect(renamed.statusCode).toBe(200);
    expect(await seen(authorHeaders)).toEqual([{ ...fromMember, author: "New name" }, quiet]);
    expect((await read(authorHeaders)).headers.etag).not.toBe(authorsTag);
    expect((await read(reader)).headers.etag).toBe(changed.headers.etag);

    const deleted = await send(t.app, "DELETE", `/api/prisms/${prism.id}`, {
      headers: ownerHeaders,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await read(reader)).statusCode).toBe(404);
  });

  it("confirms no admin's list of annotations once they are no longer an admin", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const adminHeaders = await signIn(t.database, admin);
    const former = await buildUser(t.database, { isAdmin: true });
    const formerHeaders = await signIn(t.database, former);
    const prism = await buildPrism(t.database, { userId: admin.id });
    await buildAnnotation(t.database, { prismId: prism.id, status: "pending" });
    const url = `/api/prisms/${prism.id}/annotations`;
    const asAdmin = await t.app.inject({ method: "GET", url, headers: formerHeaders });
    expect(asAdmin.json()).toMatchObject([{ status: "pending" }]);

    const revoked = await send(t.app, "PUT", `/api/analytics/users/${former.id}/admin`, {
      headers: adminHeaders,
      payload: { isAdmin: false },
    });
    expect(revoked.statusCode).toBe(200);
    const after = await t.app.inject({
      method: "GET",
      url,
      headers: { ...formerHeaders, "if-none-match": asAdmin.headers.etag as string },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual([]);
  });

  it("keeps the explore members list's version when only hearts change", async () => {
    const member = await buildUser(t.database, { lastActiveAt: new Date() });
    const prism = await buildPrism(t.database, { userId: member.id });
    // The clock stands still, so that only the heart could move the members list's tag.
    await withClockStill(async () => {
      const [members, prisms] = [await explore("users"), await explore("prisms")];
      const hearted = await send(t.app, "POST", `/api/prisms/${prism.id}/heart`, {
        headers: { cookie: visitorCookie("visitor-explore-00000002") },
      });
      expect(hearted.statusCode).toBe(200);
      expect((await explore("users")).headers.etag).toBe(members.headers.etag);
      expect((await explore("prisms")).headers.etag).not.toBe(prisms.headers.etag);
    });
  });

  it("never keeps a missing member's answer", async () => {
    expect((await list("not-yet-a-member")).statusCode).toBe(404);
    const member = await buildUser(t.database, { username: "not-yet-a-member" });
    await buildPrism(t.database, { userId: member.id, title: "Hello" });
    expect(titles((await list("not-yet-a-member")).json())).toEqual(["Hello"]);
  });

  it("tags no missing member's answer, so a later member's page is never confirmed by a 304", async () => {
    for (const url of ["/api/prisms/no-one-yet", "/api/users/no-one-yet"]) {
      const missing = await t.app.inject({ method: "GET", url });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers.etag).toBeUndefined();
    }
  });

  it("tags only an address the route's own schema accepts: any other is answered 400", async () => {
    const kept = await explore("prisms");
    const etag = kept.headers.etag as string;
    expect(etag).toBeTruthy();
    for (const url of ["/api/explore/prisms?limit=many", "/api/explore/prisms?offset=-1"]) {
      const refused = await t.app.inject({
        method: "GET",
        url,
        headers: { "if-none-match": etag },
      });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.headers.etag, url).toBeUndefined();
    }
  });

  it("answers an unchanged profile from memory, and the changed one once its owner saves it", async () => {
    const member = await buildUser(t.database, { displayName: "First" });
    const first = await profile(member.username);
    expect(first.json().displayName).toBe("First");
    expect(first.headers.etag).toBeTruthy();

    await renameQuietly(member.id, "Behind the app's back");
    expect((await profile(member.username)).json().displayName).toBe("First");

    const saved = await send(t.app, "PUT", "/api/user/profile", {
      headers: await signIn(t.database, member),
      payload: profileUpdate(member, "Second"),
    });
    expect(saved.statusCode).toBe(200);
    const changed = await profile(member.username.toUpperCase());
    expect(changed.json().displayName).toBe("Second");
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it("stops answering a profile from memory once an admin deactivates the member or they delete their account", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const adminHeaders = await signIn(t.database, admin);
    const member = await buildUser(t.database);
    expect((await profile(member.username)).statusCode).toBe(200);
    const url = `/api/analytics/users/${member.id}`;
    expect(
      (await send(t.app, "PUT", `${url}/deactivate`, { headers: adminHeaders })).statusCode,
    ).toBe(200);
    expect((await profile(member.username)).statusCode).toBe(404);
    expect(
      (await send(t.app, "PUT", `${url}/reactivate`, { headers: adminHeaders })).statusCode,
    ).toBe(200);
    expect((await profile(member.username)).statusCode).toBe(200);

    const deleted = await send(t.app, "DELETE", "/api/user/account", {
      headers: await signIn(t.database, member),
      payload: { currentPassword: TEST_PASSWORD },
    });
    expect(deleted.statusCode).toBe(204);
    expect((await profile(member.username)).statusCode).toBe(404);
  });

  it("answers explore from memory until a member's prisms, hearts or profile change", async () => {
    const member = await buildUser(t.database, { lastActiveAt: new Date(), displayName: "Old" });
    const headers = await signIn(t.database, member);
    const created = await send(t.app, "POST", "/api/prisms", {
      headers,
      payload: { title: "On explore", content: "<p>Hello.</p>" },
    });
    expect(created.statusCode).toBe(201);
    const prismId: number = created.json().id;
    // The clock stands still, so that the quiet rename is not read anew just because the members
    // list's window of time ended between the two reads.
    await withClockStill(async () => {
      expect((await exploredUser(member.id))?.displayName).toBe("Old");
      expect((await exploredPrism(prismId))?.heartsCount).toBe(0);

      await renameQuietly(member.id, "Behind the app's back");
      expect((await exploredUser(member.id))?.displayName).toBe("Old");

      await send(t.app, "PUT", "/api/user/profile", {
        headers,
        payload: profileUpdate(member, "New"),
      });
      expect((await exploredUser(member.id))?.displayName).toBe("New");

      const hearted = await send(t.app, "POST", `/api/prisms/${prismId}/heart`, {
        headers: { cookie: visitorCookie("visitor-explore-00000001") },
      });
      expect(hearted.statusCode).toBe(200);
      expect((await exploredPrism(prismId))?.heartsCount).toBe(1);

      await send(t.app, "DELETE", `/api/prisms/${prismId}`, { headers });
      expect(await exploredUser(member.id)).toBeUndefined();
      expect(await exploredPrism(prismId)).toBeUndefined();
    });
  });
});

describe("after the event listener lost its connection", () => {
  const postgresUrl = testDatabaseUrl();

  it.runIf(postgresUrl)(
    "another process starts its versions and memory over, so it never serves what it missed",
    { timeout: 60_000 },
    async () => {
      if (!postgresUrl) return;
      const other = await spawnInstance(withDatabase(postgresUrl, await databaseName(t.database)));
      try {
        const owner = await buildUser(t.database, {
          lastActiveAt: new Date(),
          displayName: "Before",
        });
        const prism = await buildPrism(t.database, {
          userId: owner.id,
          title: "Before",
          heartsCount: 1,
        });
        const annotation = await buildAnnotation(t.database, {
          prismId: prism.id,
          annotationText: "Before",
          status: "approved",
        });
        const visitor = { cookie: visitorCookie("visitor-resync-0000001") };
        const get = async (path: string) => {
          const response = await fetch(`${other.origin}${path}`, { headers: visitor });
          return { etag: response.headers.get("etag"), body: await response.json() };
        };
        const read = async () => {
          const [prismList, member, explored, heart, annotated] = await Promise.all([
            get(`/api/prisms/${owner.username}`),
            get(`/api/users/${owner.username}`),
            get("/api/explore/prisms?limit=50"),
            get(`/api/prisms/${prism.id}/heart`),
            get(`/api/prisms/${prism.id}/annotations`),
          ]);
          const entry = (explored.body as { prism: { id: number; title: string } }[]).find(
            (e) => e.prism.id === prism.id,
          );
          return {
            etags: [prismList.etag, heart.etag, annotated.etag],
            titles: [
              ...titles(prismList.body),
              (member.body as { displayName: string }).displayName,
              entry?.prism.title,
              (annotated.body as Annotation[])[0]?.annotationText,
            ],
            heartsCount: (heart.body as { heartsCount: number }).heartsCount,
          };
        };
        const first = await read();
        const before = { titles: ["Before", "Before", "Before", "Before"], heartsCount: 1 };
        expect(first).toMatchObject(before);
        expect(first.etags.every(Boolean)).toBe(true);

        // The other process's events never arrive: it still answers from memory.
        await retitleQuietly(prism.id, "After");
        await renameQuietly(owner.id, "After");
        await quietlyCountHearts(prism.id, 2);
        await t.database.db
          .update(annotations)
          .set({ annotationText: "After" })
          .where(eq(annotations.id, annotation.id));
        expect(await read()).toMatchObject(before);

        // Its listening connection is cut; when it listens again it may have missed anything.
        await t.database.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid()
                and query ilike 'listen%'`,
        );
        const after = { titles: ["After", "After", "After", "After"], heartsCount: 2 };
        let now = await read();
        for (let attempt = 0; attempt < 200 && now.titles[0] !== "After"; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          now = await read();
        }
        expect(now).toMatchObject(after);
        for (const [i, etag] of now.etags.entries()) expect(etag).not.toBe(first.etags[i]);
      } finally {
        await other.stop();
      }
    },
  );
});
