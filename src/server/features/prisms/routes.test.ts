import { asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { looksSafe, xssCorpus } from "../../../../tests/fixtures/xss.ts";
import { limits } from "../../../contract/limits.ts";
import { text } from "../../../contract/text.ts";
import { prismHearts, prisms } from "../../db/schema.ts";
import { buildHeart, buildPrism, buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn } from "../../test/helpers.ts";

const t = setupTestApp();

async function ownerWithHeaders() {
  const owner = await buildUser(t.database);
  return { owner, headers: await signIn(t.database, owner) };
}

const strangerHeaders = async () => signIn(t.database, await buildUser(t.database));

const list = (username: string, headers: Record<string, string> = {}) =>
  send(t.app, "GET", `/api/prisms/${username}`, { headers });

const create = (payload: object, headers: Record<string, string> = {}) =>
  send(t.app, "POST", "/api/prisms", { payload, headers });

const save = (id: number | string, payload: object, headers: Record<string, string> = {}) =>
  send(t.app, "PUT", `/api/prisms/${id}`, { payload, headers });

const remove = (id: number, headers: Record<string, string> = {}) =>
  send(t.app, "DELETE", `/api/prisms/${id}`, { headers });

async function titlesOf(userId: number) {
  const rows = await t.database.db
    .select()
    .from(prisms)
    .where(eq(prisms.userId, userId))
    .orderBy(asc(prisms.index));
  return rows.map((r) => `${r.index}:${r.title}`);
}

describe("GET /api/prisms/:username", () => {
  it("lists a member's prisms by index, and 404s an unknown member", async () => {
    const owner = await buildUser(t.database);
    await buildPrism(t.database, { userId: owner.id, title: "Second", index: 1 });
    await buildPrism(t.database, { userId: owner.id, title: "First", index: 0 });
    const response = await list(owner.username.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.json().map((p: { title: string }) => p.title)).toEqual(["First", "Second"]);
    expect(response.json()[0]).toMatchObject({
      heartsCount: 0,
      editedAfterHearts: false,
      userId: owner.id,
    });
    expect((await list("no-such-member")).statusCode).toBe(404);
  });

  it("answers an unchanged poll with 304 and a changed one with the new list", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const first = await list(owner.username);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await list(owner.username, { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    await create({ title: "New", content: "" }, headers);
    const changed = await list(owner.username, { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toHaveLength(1);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe("POST /api/prisms", () => {
  it("needs a signed-in member", async () => {
    expect((await create({ title: "x", content: "" })).statusCode).toBe(401);
  });

  it("creates prisms in order, trimmed and sanitized, answering 201", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const first = await create(
      { title: "  My values  ", content: "<p>Care<script>alert(1)</script></p>" },
      headers,
    );
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ title: "My values", content: "<p>Care</p>", index: 0 });
    const second = await create({ title: "Next", content: "" }, headers);
    expect(second.json().index).toBe(1);
    expect(await titlesOf(owner.id)).toEqual(["0:My values", "1:Next"]);
  });

  it.each([
    [{ title: "   ", content: "" }, "title", "Title is required"],
    [{ title: "x".repeat(201), content: "" }, "title", "Title must be at most 200 characters"],
    [{ title: "ok", content: "x".repeat(51 * 1024) }, "content", "Content must be at most 50 KB"],
    [{ title: "ok" }, "content", "Invalid input: expected string, received undefined"],
    [{ title: "ok", content: "", userId: 1 }, "userId", "Unknown field: userId"],
    [{ title: "<img src=x onerror=alert(1)>", content: "" }, "title", "Title is required"],
  ])("rejects %j with 400 naming %s", async (payload, field, message) => {
    const { owner, headers } = await ownerWithHeaders();
    const response = await create(payload, headers);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toBe(message);
    expect(await titlesOf(owner.id)).toEqual([]);
  });

  it(`stores nothing executable from ${xssCorpus().label}, as title or content`, {
    timeout: 120_000,
  }, async () => {
    const { payloads } = xssCorpus();
    console.log(`prism API checked against ${payloads.length} XSS payloads`);
    let refused = 0;
    const owners: number[] = [];
    let headers: Record<string, string> = {};
    for (const [i, payload] of payloads.entries()) {
      // A page holds a bounded number of prisms: a new owner for each page's worth.
      if (i % limits.prismsPerMember === 0) {
        const next = await ownerWithHeaders();
        owners.push(next.owner.id);
        headers = next.headers;
      }
      const response = await create(
        { title: `T ${payload}`.slice(0, 200), content: payload },
        headers,
      );
      // A payload with a control character is refused outright (see contract/text.ts).
      if (!text().safeParse(payload).success) {
        expect(response.statusCode, payload).toBe(400);
        refused += 1;
        continue;
      }
      expect(response.statusCode, payload).toBe(201);
      const stored = response.json();
      expect(looksSafe(stored.content), stored.content).toBe(true);
      expect(stored.title).not.toMatch(/[<>]/);
    }
    const rows = await t.database.db.select().from(prisms).where(inArray(prisms.userId, owners));
    expect(rows).toHaveLength(payloads.length - refused);
    for (const row of rows) expect(looksSafe(row.content)).toBe(true);
  });
});

describe("PUT /api/prisms/:id", () => {
  it("lets only the owner change a prism: 401 signed out, 403 for others, 404 when missing", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const prism = await buildPrism(t.database, { userId: owner.id });
    const other = await strangerHeaders();
    const payload = { id: prism.id, title: "Changed", content: "<p>new</p>" };
    expect((await save(prism.id, payload)).statusCode).toBe(401);
    expect((await save(prism.id, payload, other)).statusCode).toBe(403);
    expect((await save(999999, { title: "x", content: "" }, headers)).statusCode).toBe(404);
    expect((await save("abc", payload, headers)).statusCode).toBe(400);
    const [unchanged] = await t.database.db.select().from(prisms).where(eq(prisms.id, prism.id));
    expect(unchanged?.title).toBe(prism.title);
    const ok = await save(prism.id, payload, headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ title: "Changed", content: "<p>new</p>" });
  });

  it("resets hearts when the title of a hearted prism changes", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const prism = await buildPrism(t.database, {
      userId: owner.id,
      heartsCount: 2,
      editedAfterHearts: true,
    });
    await buildHeart(t.database, { prismId: prism.id, visitorHash: "a" });
    await buildHeart(t.database, { prismId: prism.id, visitorHash: "b" });
    const response = await save(
      prism.id,
      { title: "A new title", content: prism.content },
      headers,
    );
    expect(response.json()).toMatchObject({ heartsCount: 0, editedAfterHearts: false });
    expect(
      await t.database.db.select().from(prismHearts).where(eq(prismHearts.prismId, prism.id)),
    ).toEqual([]);
  });

  it("marks a hearted prism edited after hearts when only its content changes", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const hearted = await buildPrism(t.database, { userId: owner.id, heartsCount: 1 });
    await buildHeart(t.database, { prismId: hearted.id, visitorHash: "a" });
    const plain = await buildPrism(t.database, { userId: owner.id, index: 1 });
    const edit = (id: number, title: string) =>
      save(id, { title, content: "<p>rewritten</p>" }, headers);
    expect((await edit(hearted.id, hearted.title)).json()).toMatchObject({
      heartsCount: 1,
      editedAfterHearts: true,
    });
    expect((await edit(plain.id, plain.title)).json()).toMatchObject({
      heartsCount: 0,
      editedAfterHearts: false,
    });
  });

  it("refuses a body id that differs from the path", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const prism = await buildPrism(t.database, { userId: owner.id });
    const response = await save(prism.id, { id: prism.id + 1, title: "x", content: "" }, headers);
    expect(response.statusCode).toBe(400);
  });
});

describe("DELETE /api/prisms/:id and PUT /api/prisms/:id/move", () => {
  it("deletes only one's own prism and closes up the indexes", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const [a, b, c] = await Promise.all(
      ["A", "B", "C"].map((title, index) =>
        buildPrism(t.database, { userId: owner.id, title, index }),
      ),
    );
    if (!a || !b || !c) throw new Error("setup");
    expect((await remove(b.id, await strangerHeaders())).statusCode).toBe(403);
    expect((await remove(b.id)).statusCode).toBe(401);
    const response = await remove(b.id, headers);
    expect(response.statusCode).toBe(204);
    expect(await titlesOf(owner.id)).toEqual(["0:A", "1:C"]);
    expect((await remove(b.id, headers)).statusCode).toBe(404);
  });

  it("swaps with the neighbour, refusing to move past either end", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const [a, , c] = await Promise.all(
      ["A", "B", "C"].map((title, index) =>
        buildPrism(t.database, { userId: owner.id, title, index }),
      ),
    );
    if (!a || !c) throw new Error("setup");
    const move = (id: number, direction: string, h = headers) =>
      send(t.app, "PUT", `/api/prisms/${id}/move`, { payload: { direction }, headers: h });
    expect((await move(c.id, "up")).json()).toMatchObject({ title: "C", index: 1 });
    expect(await titlesOf(owner.id)).toEqual(["0:A", "1:C", "2:B"]);
    expect((await move(a.id, "down")).statusCode).toBe(200);
    expect(await titlesOf(owner.id)).toEqual(["0:C", "1:A", "2:B"]);
    expect((await move(c.id, "up")).statusCode).toBe(400);
    expect((await move(c.id, "sideways")).statusCode).toBe(400);
    expect((await move(a.id, "up", await strangerHeaders())).statusCode).toBe(403);
    expect(await titlesOf(owner.id)).toEqual(["0:C", "1:A", "2:B"]);
  });
});

describe("PUT /api/prisms/:id/responders", () => {
  const choose = (id: number, payload: object, headers: Record<string, string> = {}) =>
    send(t.app, "PUT", `/api/prisms/${id}/responders`, { payload, headers });

  it("authorization: 401 signed out, 403 for a member and for an admin, 200 for the owner", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const prism = await buildPrism(t.database, { userId: owner.id });
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    expect((await choose(prism.id, { responders: "members" })).statusCode).toBe(401);
    expect(
      (await choose(prism.id, { responders: "members" }, await strangerHeaders())).statusCode,
    ).toBe(403);
    expect((await choose(prism.id, { responders: "members" }, admin)).statusCode).toBe(403);
    const [unchanged] = await t.database.db.select().from(prisms).where(eq(prisms.id, prism.id));
    expect(unchanged?.responders).toBe("anyone");
    const ok = await choose(prism.id, { responders: "members" }, headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: prism.id, responders: "members" });
    expect((await choose(999999, { responders: "members" }, headers)).statusCode).toBe(404);
  });

  it("refuses an unknown choice with 400 and changes nothing; the list carries the choice", async () => {
    const { owner, headers } = await ownerWithHeaders();
    const prism = await buildPrism(t.database, { userId: owner.id });
    const bad = await choose(prism.id, { responders: "friends" }, headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty("errors");
    expect((await list(owner.username)).json()).toMatchObject([{ responders: "anyone" }]);
    await choose(prism.id, { responders: "no-one" }, headers);
    expect((await list(owner.username)).json()).toMatchObject([{ responders: "no-one" }]);
  });
});
