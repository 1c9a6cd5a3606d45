// What one member can make others download, and make the server do: a prism's content is bounded
// as stored (sanitizing must not multiply it), a page holds a bounded number of prisms, a member's
// writes are rate limited, and a page of explore stays small whatever members write.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { exploreExcerpt, previewOf } from "../../src/contract/excerpt.ts";
import type { ExplorePrism, ExploreUser } from "../../src/contract/explore.ts";
import { limits } from "../../src/contract/limits.ts";
import { prismMessages } from "../../src/contract/prisms.ts";
import { prisms } from "../../src/server/db/schema.ts";
import { buildPrism, buildUser } from "../../src/server/test/builders.ts";
import { send, setupTestApp, signIn } from "../../src/server/test/helpers.ts";

const t = setupTestApp();

type Headers = Record<string, string>;

const bytes = (value: string) => Buffer.byteLength(value, "utf8");

async function member() {
  const user = await buildUser(t.database);
  return { user, headers: await signIn(t.database, user) };
}

async function storedPrisms(userId: number) {
  return t.database.db.select().from(prisms).where(eq(prisms.userId, userId)).orderBy(prisms.id);
}

const create = (headers: Headers, content: string, title = "Bounds") =>
  send(t.app, "POST", "/api/prisms", { headers, payload: { title, content } });

/** A 400 on the content field with the content limit's message. */
function expectContentRefused(response: Awaited<ReturnType<typeof send>>) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({
    message: prismMessages.contentTooLong,
    errors: { content: prismMessages.contentTooLong },
  });
}

describe("a prism's stored content", () => {
  it("keeps characters as characters: `‹` is stored as one character, not as an entity", async () => {
    const { user, headers } = await member();
    // 51,000 bytes: within the limit as sent, and as stored.
    const content = "‹".repeat(17_000);
    const created = await create(headers, content);
    expect(created.statusCode).toBe(201);
    const [stored] = await storedPrisms(user.id);
    expect(stored?.content).toBe(content);
    expect(bytes(stored?.content ?? "")).toBeLessThanOrEqual(limits.prismContentBytes);
  });

  it("refuses 51,000 `‹` (153,000 bytes), and plain ASCII over the limit, storing nothing", async () => {
    const { user, headers } = await member();
    expectContentRefused(await create(headers, "‹".repeat(51_000)));
    expectContentRefused(await create(headers, "a".repeat(limits.prismContentBytes + 1)));
    expect(await storedPrisms(user.id)).toEqual([]);
  });

  it("refuses content that sanitizing makes larger than the limit, on create and on edit", async () => {
    const { user, headers } = await member();
    // Each is within the limit as sent; stored as `&lt;`, `&amp;` or a link with its rel and
    // target, each is several times larger.
    const growing = [
      "<".repeat(51_000),
      "&".repeat(20_000),
      '<a href="https://a.io">a</a>'.repeat(1_800),
    ];
    for (const content of growing) {
      expect(bytes(content)).toBeLessThanOrEqual(limits.prismContentBytes);
      expectContentRefused(await create(headers, content));
    }
    expect(await storedPrisms(user.id)).toEqual([]);

    const prism = await buildPrism(t.database, { userId: user.id });
    for (const content of growing) {
      expectContentRefused(
        await send(t.app, "PUT", `/api/prisms/${prism.id}`, {
          headers,
          payload: { title: prism.title, content },
        }),
      );
    }
    const [kept] = await storedPrisms(user.id);
    expect(kept?.content).toBe(prism.content);
  });
});

describe("prisms per member", () => {
  it(`refuses a prism beyond ${limits.prismsPerMember} with a 409 that says so, and takes one again after a delete`, async () => {
    const { user, headers } = await member();
    for (let index = 0; index < limits.prismsPerMember; index++) {
      await buildPrism(t.database, { userId: user.id, index, title: `Prism ${index}` });
    }
    const refused = await create(headers, "<p>One too many</p>");
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: prismMessages.tooMany });
    expect(await storedPrisms(user.id)).toHaveLength(limits.prismsPerMember);

    const [last] = (await storedPrisms(user.id)).filter(
      (prism) => prism.index === limits.prismsPerMember - 1,
    );
    const deleted = await send(t.app, "DELETE", `/api/prisms/${last?.id}`, { headers });
    expect(deleted.statusCode).toBe(204);
    expect((await create(headers, "<p>Room again</p>")).statusCode).toBe(201);
  });
});

describe("a member's writes to their prisms", () => {
  it(`answer 429 with Retry-After after ${limits.prismWritesPerMinute} a minute, whatever the write; another member writes on`, async () => {
    const { user, headers } = await member();
    const first = await buildPrism(t.database, { userId: user.id, index: 0 });
    await buildPrism(t.database, { userId: user.id, index: 1 });
    const writes = [
      () => create(headers, "<p>More</p>"),
      () =>
        send(t.app, "PUT", `/api/prisms/${first.id}`, {
          headers,
          payload: { title: first.title, content: "<p>Edited</p>" },
        }),
      () =>
        send(t.app, "PUT", `/api/prisms/${first.id}/responders`, {
          headers,
          payload: { responders: "members" },
        }),
    ];
    // Each round moves the first prism down and back up, so that every move succeeds.
    const moves = [
      () =>
        send(t.app, "PUT", `/api/prisms/${first.id}/move`, {
          headers,
          payload: { direction: "down" },
        }),
      () =>
        send(t.app, "PUT", `/api/prisms/${first.id}/move`, {
          headers,
          payload: { direction: "up" },
        }),
    ];
    const calls = [...writes, ...Array.from({ length: 60 }, (_, i) => moves[i % 2])];
    for (let i = 0; i < limits.prismWritesPerMinute; i++) {
      const answer = await calls[i]?.();
      expect(answer?.statusCode, `write ${i + 1}: ${answer?.body}`).toBeLessThan(400);
    }
    const before = await storedPrisms(user.id);

    const limited = [
      await create(headers, "<p>Too quick</p>"),
      await send(t.app, "DELETE", `/api/prisms/${first.id}`, { headers }),
      await send(t.app, "PUT", `/api/prisms/${first.id}/move`, {
        headers,
        payload: { direction: "down" },
      }),
    ];
    for (const answer of limited) {
      expect(answer.statusCode).toBe(429);
      expect(answer.json()).toEqual({ message: prismMessages.tooManyWrites });
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(await storedPrisms(user.id)).toEqual(before);

    const other = await member();
    expect((await create(other.headers, "<p>Unaffected</p>")).statusCode).toBe(201);
  });
});

describe("explore", () => {
  /**
   * Ten members who wrote all they may: the longest names and titles in three-byte characters,
   * the longest links, and a first prism of 50 KB of them.
   */
  async function maximalMembers() {
    const long = (n: number) => "‹".repeat(n);
    const link = `https://example.com/${"a".repeat(limits.urlMax - 20)}`;
    const content = `<p>${long(Math.floor((limits.prismContentBytes - 7) / 3))}</p>`;
    expect(bytes(content)).toBeLessThanOrEqual(limits.prismContentBytes);
    const ahead = new Date(Date.now() + 60 * 60 * 1000);
    const built = [];
    for (let i = 0; i < 10; i++) {
      const user = await buildUser(t.database, {
        username: `maximal_${String(i).padStart(2, "0")}_${"m".repeat(limits.usernameMax - 12)}`,
        firstName: long(limits.nameMax),
        lastName: long(limits.nameMax),
        // Half of them go by a display name, half by their first and last names.
        displayName: i % 2 ? null : long(limits.nameMax),
        websiteUrl: link,
        twitterUrl: link,
        linkedinUrl: link,
        profileImageUrl: link,
        // First on both tabs: the most recently active, the most hearted.
        lastActiveAt: ahead,
      });
      const prism = await buildPrism(t.database, {
        userId: user.id,
        title: long(limits.prismTitleMax),
        content,
        heartsCount: 1_000_000 + i,
      });
      built.push({ user, prism });
    }
    return built;
  }

  it("answers ten members, or ten prisms, in at most 20 KB however much they wrote; each shows what the page shows", async () => {
    const built = await maximalMembers();
    const ids = built.map(({ user }) => user.id);

    const people = await send(t.app, "GET", "/api/explore/users?limit=10&offset=0");
    expect(people.statusCode).toBe(200);
    expect(bytes(people.body)).toBeLessThanOrEqual(20 * 1024);
    const members = people.json() as ExploreUser[];
    expect(members.map((entry) => entry.user.id).sort()).toEqual([...ids].sort());
    const first = built[0];
    const shown = members.find((entry) => entry.user.id === first?.user.id);
    expect(shown?.firstPrism).toEqual({
      title: first?.prism.title,
      content: previewOf(first?.prism.content ?? "", exploreExcerpt.people),
    });

    const popular = await send(t.app, "GET", "/api/explore/prisms?limit=10&offset=0");
    expect(popular.statusCode).toBe(200);
    expect(bytes(popular.body)).toBeLessThanOrEqual(20 * 1024);
    const list = popular.json() as ExplorePrism[];
    expect(list.map((entry) => entry.user.id).sort()).toEqual([...ids].sort());
    expect(list.find((entry) => entry.prism.id === first?.prism.id)?.prism.content).toBe(
      previewOf(first?.prism.content ?? "", exploreExcerpt.prisms),
    );
  });
});
