// Who sees a prism, generated from tables: 3 audiences × 5 kinds of viewer × every way a prism
// is read. Each case asserts the prism is there, or that it is absent exactly as a prism that does
// not exist is (the same status and body): in answers, through entity tags and 304s, and on the
// live stream.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Audience } from "../../../contract/audiences.ts";
import { prismLink } from "../../../contract/feeds.ts";
import { slugify } from "../../../contract/slug.ts";
import type { UserRow } from "../../db/schema.ts";
import { hashToken } from "../../security/tokens.ts";
import {
  buildAnnotation,
  buildNotification,
  buildPrism,
  buildTeam,
  buildTeamMember,
  buildUser,
} from "../../test/builders.ts";
import { isEvent, openStream } from "../../test/event-stream.ts";
import {
  profileBody,
  respondToQuote,
  send,
  setupTestApp,
  signIn,
  TEST_ORIGIN,
  visitorCookie,
} from "../../test/helpers.ts";

const t = setupTestApp();

const audiences = ["public", "team", "private"] as const;
const kinds = ["anonymous", "member", "teammate", "owner", "admin"] as const;
type Kind = (typeof kinds)[number];

/** The rule under test, as a table: who sees a prism of each audience. */
const sees: Record<Audience, readonly Kind[]> = {
  public: kinds,
  team: ["teammate", "owner", "admin"],
  private: ["owner", "admin"],
};
/** What is read outside Prism's own pages (explore, cards, feeds, embeds) shows public prisms alone. */
const publicOnly: Record<Audience, readonly Kind[]> = { public: kinds, team: [], private: [] };

const TEXT = "<p>Mornings are for deep work.</p>";
/** An id no prism, annotation or notification has. */
const MISSING = 2 ** 31 - 1;

/** A member of the world's team and their one prism. */
interface Owned {
  owner: UserRow;
  prismId: number;
  title: string;
}

interface Fixture extends Owned {
  /** An approved response on it by someone else, which anyone who sees the prism sees. */
  approvedId: number;
  /** The private status link of an anonymous response on it. */
  statusToken: string;
}

interface World {
  team: { slug: string };
  member: UserRow;
  teammate: UserRow;
  admin: UserRow;
  /** Each audience's prism, each of its own owner (so that lists and explore tell them apart). */
  of: Record<Audience, Fixture>;
  /** Each signed-in viewer's response on each prism, and the notification of its reply. */
  notes: Map<string, { annotationId: number; notificationId: number; marker: string }>;
}

const world = {} as World;

/** An owner in the world's team, with one prism of `audience` and nothing else on it. */
async function ownedPrism(audience: Audience, title = `A ${audience} prism`): Promise<Owned> {
  const owner = await buildUser(t.database);
  await buildTeamMember(t.database, { teamId: teamId, userId: owner.id });
  const prism = await buildPrism(t.database, { userId: owner.id, audience, title, content: TEXT });
  return { owner, prismId: prism.id, title };
}

/** An owned prism with an approved response by another member and an anonymous one's status link. */
async function ownerWith(audience: Audience, title = `A ${audience} prism`): Promise<Fixture> {
  const owned = await ownedPrism(audience, title);
  const author = await buildUser(t.database);
  const approved = await buildAnnotation(t.database, {
    prismId: owned.prismId,
    userId: author.id,
    status: "approved",
    prismTitle: title,
  });
  const statusToken = randomBytes(16).toString("base64url");
  await buildAnnotation(t.database, {
    prismId: owned.prismId,
    annotatorName: "Visitor",
    statusTokenHash: hashToken(statusToken),
    prismTitle: title,
  });
  return { ...owned, approvedId: approved.id, statusToken };
}

let teamId = 0;

beforeAll(async () => {
  const team = await buildTeam(t.database);
  teamId = team.id;
  world.team = team;
  world.member = await buildUser(t.database);
  world.teammate = await buildUser(t.database);
  world.admin = await buildUser(t.database, { isAdmin: true });
  await buildTeamMember(t.database, { teamId, userId: world.teammate.id });
  world.of = {} as World["of"];
  for (const audience of audiences) world.of[audience] = await ownerWith(audience);
  world.notes = new Map();
  for (const audience of audiences) {
    for (const kind of kinds) {
      const viewer = userOf(kind, audience);
      if (!viewer) continue;
      const marker = `note-${kind}-${audience}-${randomUUID()}`;
      const { prismId } = world.of[audience];
      const note = await buildAnnotation(t.database, {
        prismId,
        userId: viewer.id,
        annotationText: marker,
        replyText: "Thanks",
        status: "approved",
      });
      const notification = await buildNotification(t.database, {
        userId: viewer.id,
        prismId,
        annotationId: note.id,
        type: "reply",
      });
      world.notes.set(`${kind} ${audience}`, {
        annotationId: note.id,
        notificationId: notification.id,
        marker,
      });
    }
  }
});

/** The member a kind of viewer is, for a prism of `audience` (its owner is that prism's). */
function userOf(
  kind: Kind,
  audience: Audience,
  fixture: Owned = world.of[audience],
): UserRow | null {
  switch (kind) {
    case "anonymous":
      return null;
    case "owner":
      return fixture.owner;
    default:
      return world[kind];
  }
}

/** Each member's session, made once: a case reads as its viewer, and no case ends a session. */
const sessions = new Map<number, Promise<Record<string, string>>>();

async function headersOf(kind: Kind, audience: Audience, fixture: Owned = world.of[audience]) {
  const user = userOf(kind, audience, fixture);
  if (!user) return { cookie: visitorCookie(`browser-${randomUUID()}`) };
  const session = sessions.get(user.id) ?? signIn(t.database, user);
  sessions.set(user.id, session);
  return session;
}

/** Each case's own address, so that no rate limit of one case spends another's. */
let address = 0;
const nextAddress = () => {
  address += 1;
  return `10.1.${Math.floor(address / 250)}.${(address % 250) + 1}`;
};

type Response = Awaited<ReturnType<typeof send>>;

interface Reader {
  kinds?: readonly Kind[];
  rule?: Record<Audience, readonly Kind[]>;
  /** Reads it as the viewer; `missing` reads a prism (or a thing of it) that does not exist. */
  read(fixture: Fixture, headers: Record<string, string>, missing: boolean): Promise<Response>;
  /** Whether the answer shows the prism; absent for reads of one prism by its address. */
  shows?(response: Response, fixture: Fixture, kind: Kind, audience: Audience): boolean;
}

const get = (url: string, headers: Record<string, string>) =>
  send(t.app, "GET", url, { headers, remoteAddress: nextAddress() });

const includes = (response: Response, text: string) => response.body.includes(text);

/** Every read path that shows a prism or something of it, by what it is. */
const readers: Record<string, Reader> = {
  "the owner's prism list": {
    read: ({ owner }, headers) => get(`/api/prisms/${owner.username}`, headers),
    shows: (response, { prismId }) =>
      response.json().some((prism: { id: number }) => prism.id === prismId),
  },
  "a heart status": {
    read: ({ prismId }, headers, missing) =>
      get(`/api/prisms/${missing ? MISSING : prismId}/heart`, headers),
  },
  "hearting it": {
    async read({ prismId }, headers, missing) {
      const url = `/api/prisms/${missing ? MISSING : prismId}/heart`;
      const remoteAddress = nextAddress();
      const first = await send(t.app, "POST", url, { headers, remoteAddress });
      // Un-hearts it again, so that the world stays as it was for the next case.
      if (first.statusCode === 200) await send(t.app, "POST", url, { headers, remoteAddress });
      return first;
    },
  },
  "its annotations": {
    read: ({ prismId }, headers, missing) =>
      get(`/api/prisms/${missing ? MISSING : prismId}/annotations`, headers),
  },
  "one of its annotations": {
    read: ({ approvedId }, headers, missing) =>
      get(`/api/annotations/${missing ? MISSING : approvedId}`, headers),
  },
  "responding to it": {
    read: ({ prismId }, headers, missing) =>
      respondToQuote(t.app, missing ? MISSING : prismId, TEXT, "deep", headers),
  },
  "changing it (its owner's alone: 403 to others who see it)": {
    kinds: ["member", "teammate", "owner", "admin"],
    read: ({ prismId, title }, headers, missing) =>
      send(t.app, "PUT", `/api/prisms/${missing ? MISSING : prismId}`, {
        headers,
        remoteAddress: nextAddress(),
        payload: { title, content: TEXT },
      }),
  },
  "deciding on one of its responses": {
    kinds: ["member", "teammate", "owner", "admin"],
    read: ({ approvedId }, headers, missing) =>
      send(t.app, "PUT", `/api/annotations/${missing ? MISSING : approvedId}/status`, {
        headers,
        remoteAddress: nextAddress(),
        payload: { status: "approved" },
      }),
  },
  "replying to one of its responses": {
    kinds: ["member", "teammate", "owner", "admin"],
    read: ({ approvedId }, headers, missing) =>
      send(t.app, "DELETE", `/api/annotations/${missing ? MISSING : approvedId}/reply`, {
        headers,
        remoteAddress: nextAddress(),
      }),
  },
  "an anonymous response's status link": {
    read: ({ statusToken }, headers, missing) =>
      get(`/api/responses/${missing ? "0".repeat(22) : statusToken}`, headers),
  },
  "its resonance (the owner's and admins')": {
    kinds: ["member", "teammate", "owner", "admin"],
    read: ({ prismId }, headers, missing) =>
      get(`/api/prisms/${missing ? MISSING : prismId}/resonance`, headers),
  },
  "explore's prisms": {
    rule: publicOnly,
    read: (_, headers) => get("/api/explore/prisms?limit=50", headers),
    shows: (response, { prismId }) =>
      response.json().some((row: { prism: { id: number } }) => row.prism.id === prismId),
  },
  "explore's people": {
    rule: publicOnly,
    read: (_, headers) => get("/api/explore/users?limit=50", headers),
    shows: (response, { owner }) =>
      response
        .json()
        .some((row: { user: { username: string } }) => row.user.username === owner.username),
  },
  "its share card": {
    rule: publicOnly,
    read: ({ owner, prismId }, headers, missing) =>
      get(`/og/${owner.username}/${missing ? MISSING : prismId}.png`, headers),
  },
  "the JSON feed": {
    rule: publicOnly,
    read: ({ owner }, headers) => get(`/${owner.username}/feed.json`, headers),
    shows: (response, { owner, prismId }) => includes(response, prismLink(owner.username, prismId)),
  },
  "the Atom feed": {
    rule: publicOnly,
    read: ({ owner }, headers) => get(`/${owner.username}/feed.atom`, headers),
    shows: (response, { owner, prismId }) => includes(response, prismLink(owner.username, prismId)),
  },
  "its embed": {
    rule: publicOnly,
    read: ({ owner, prismId }, headers, missing) =>
      get(`/embed/${owner.username}/${missing ? MISSING : prismId}`, headers),
  },
  "its oEmbed": {
    rule: publicOnly,
    read: ({ owner, prismId }, headers, missing) =>
      get(
        `/oembed?url=${encodeURIComponent(`${TEST_ORIGIN}${prismLink(owner.username, missing ? MISSING : prismId)}`)}`,
        headers,
      ),
  },
  "its deep link by slug (oEmbed)": {
    rule: publicOnly,
    read: ({ owner, title }, headers, missing) =>
      get(
        `/oembed?url=${encodeURIComponent(`${TEST_ORIGIN}/${owner.username}/${slugify(missing ? "No such prism" : title)}`)}`,
        headers,
      ),
  },
  "the viewer's notifications": {
    kinds: ["member", "teammate", "owner", "admin"],
    read: (_, headers) => get("/api/notifications?limit=50", headers),
    shows: (response, _fixture, kind, audience) =>
      response
        .json()
        .some(
          (line: { id: number }) =>
            line.id === world.notes.get(`${kind} ${audience}`)?.notificationId,
        ),
  },
  "the viewer's export": {
    kinds: ["member", "teammate", "owner", "admin"],
    read: (_, headers) => get("/api/user/export", headers),
    shows: (response, _fixture, kind, audience) =>
      includes(response, world.notes.get(`${kind} ${audience}`)?.marker ?? "none"),
  },
  "Catalyst's prisms (admins only)": {
    kinds: ["admin"],
    read: (_, headers) => get("/api/analytics/prisms?limit=50", headers),
    shows: (response, { prismId }, _kind, audience) =>
      response
        .json()
        .items.some(
          (row: { prism: { id: number; audience: string } }) =>
            row.prism.id === prismId && row.prism.audience === audience,
        ),
  },
  "the team's page": {
    kinds: ["teammate", "owner"],
    read: (_, headers) => get(`/api/teams/${world.team.slug}`, headers),
    shows: (response, { prismId }) =>
      response
        .json()
        .members.some((member: { prisms: { id: number }[] }) =>
          member.prisms.some((prism) => prism.id === prismId),
        ),
  },
};

const cases = Object.entries(readers).flatMap(([path, reader]) =>
  audiences.flatMap((audience) =>
    (reader.kinds ?? kinds).map((kind) => {
      const rule = reader.rule ?? sees;
      return { path, reader, audience, kind, visible: rule[audience].includes(kind) };
    }),
  ),
);

describe("who sees a prism", () => {
  it.each(cases)(
    "$path, $audience prism, $kind viewer: visible $visible",
    async ({ reader, audience, kind, visible }) => {
      const fixture = world.of[audience];
      const headers = await headersOf(kind, audience);
      const response = await reader.read(fixture, headers, false);
      if (reader.shows) {
        expect(response.statusCode).toBe(200);
        expect(reader.shows(response, fixture, kind, audience)).toBe(visible);
        return;
      }
      if (visible) {
        expect(response.statusCode).not.toBe(404);
        expect(response.statusCode).toBeLessThan(500);
        return;
      }
      // Absent: answered exactly as a prism that does not exist is.
      const missing = await reader.read(fixture, headers, true);
      expect(missing.statusCode).toBe(404);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(missing.json());
    },
  );
});

/** The owner changes the prism's audience, as the editor does. */
async function setAudience(fixture: Owned, audience: Audience) {
  const response = await send(t.app, "PUT", `/api/prisms/${fixture.prismId}`, {
    headers: await signIn(t.database, fixture.owner),
    payload: { title: "A prism that moves", content: TEXT, audience },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json().audience).toBe(audience);
}

/**
 * Reads that pages poll with their tags, by what they are, and what a viewer who may not see the
 * prism is answered: a list without it, or the 404 of a prism that does not exist.
 */
const tagged: Record<string, { url: (fixture: Owned) => string; absent: unknown }> = {
  "the owner's prism list": { url: ({ owner }) => `/api/prisms/${owner.username}`, absent: [] },
  "a heart status": {
    url: ({ prismId }) => `/api/prisms/${prismId}/heart`,
    absent: { message: "Prism not found" },
  },
  "its annotations": {
    url: ({ prismId }) => `/api/prisms/${prismId}/annotations`,
    absent: { message: "Prism not found" },
  },
};

const tagCases = Object.entries(tagged).flatMap(([path, { url, absent }]) =>
  audiences.flatMap((audience) =>
    kinds.map((kind) => ({
      path,
      url,
      absent,
      audience,
      kind,
      visible: sees[audience].includes(kind),
    })),
  ),
);

describe("a 304 never confirms what the viewer may not see", () => {
  it.each(tagCases)(
    "$path, public made $audience, $kind viewer: visible $visible",
    async ({ url, absent, audience, kind, visible }) => {
      const fixture = await ownerWith("public");
      const headers = await headersOf(kind, audience, fixture);
      const before = await get(url(fixture), headers);
      expect(before.statusCode).toBe(200);
      const etag = String(before.headers.etag);
      await setAudience(fixture, audience);
      const after = await get(url(fixture), { ...headers, "if-none-match": etag });
      if (visible) {
        expect([200, 304]).toContain(after.statusCode);
      } else {
        expect(after.statusCode).toBe(Array.isArray(absent) ? 200 : 404);
        expect(after.json()).toEqual(absent);
      }
    },
  );
});

/** What a viewer who may not see a prism polls beside it, which its changes must leave as it is. */
const standing: Record<string, (fixture: Owned, publicId: number) => string> = {
  "the owner's prism list": ({ owner }) => `/api/prisms/${owner.username}`,
  "the public prism's heart status": (_, publicId) => `/api/prisms/${publicId}/heart`,
  "the public prism's annotations": (_, publicId) => `/api/prisms/${publicId}/annotations`,
  "explore's prisms": () => "/api/explore/prisms?limit=50",
  "the JSON feed": ({ owner }) => `/${owner.username}/feed.json`,
  "the Atom feed": ({ owner }) => `/${owner.username}/feed.atom`,
};

const standingCases = Object.entries(standing).flatMap(([path, url]) =>
  (["team", "private"] as const).flatMap((audience) =>
    kinds
      .filter((kind) => !sees[audience].includes(kind))
      .map((kind) => ({ path, url, audience, kind })),
  ),
);

describe("a tag stands while only what the viewer may not see changes", () => {
  it.each(standingCases)(
    "$path, a $audience prism edited and hearted, $kind viewer",
    async ({ url, audience, kind }) => {
      const fixture = await ownedPrism(audience);
      const shown = await buildPrism(t.database, {
        userId: fixture.owner.id,
        index: 1,
        title: "Out in the open",
        content: TEXT,
      });
      const headers = await headersOf(kind, audience, fixture);
      const address = url(fixture, shown.id);
      const before = await get(address, headers);
      expect(before.statusCode).toBe(200);
      const owner = await signIn(t.database, fixture.owner);
      const edited = await send(t.app, "PUT", `/api/prisms/${fixture.prismId}`, {
        headers: owner,
        payload: { title: "Still a draft", content: "<p>Evenings too.</p>" },
      });
      expect(edited.statusCode).toBe(200);
      const hearted = await send(t.app, "POST", `/api/prisms/${fixture.prismId}/heart`, {
        headers: owner,
      });
      expect(hearted.statusCode).toBe(200);
      const after = await get(address, {
        ...headers,
        "if-none-match": String(before.headers.etag),
      });
      expect(after.statusCode).toBe(304);
    },
  );
});

describe("the live stream", () => {
  let base = "";
  const streams: Awaited<ReturnType<typeof openStream>>[] = [];
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await Promise.all(streams.map((stream) => stream.close()));
  });

  async function streamOf(kind: Kind, audience: Audience, fixture: Owned) {
    const stream = await openStream(base, await headersOf(kind, audience, fixture));
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.connected();
    return stream;
  }

  /**
   * Whether the stream heard of the owner's change before a change everyone hears (a public
   * prism's, made after it): events reach a stream in the order they were made.
   */
  async function heardBefore(
    stream: Awaited<ReturnType<typeof openStream>>,
    { owner, prismId }: Owned,
    marker: Owned,
  ): Promise<string[]> {
    await stream.waitFor(isEvent("prisms.changed", { username: marker.owner.username }));
    const about = (data: string) =>
      data.includes(`"${owner.username}"`) || data.includes(`"prismId":${prismId}`);
    const heard = stream.blocks.flatMap((block) =>
      block.event && about(block.data ?? "") ? [block.event] : [],
    );
    return [...new Set(heard)].sort();
  }

  const streamCases = audiences.flatMap((audience) =>
    kinds.map((kind) => ({ audience, kind, visible: sees[audience].includes(kind) })),
  );

  it.each(streamCases)(
    "an edit, a heart and a response of a $audience prism reach a $kind viewer: $visible",
    async ({ audience, kind, visible }) => {
      const fixture = await ownedPrism(audience);
      const marker = await ownedPrism("public");
      const stream = await streamOf(kind, audience, fixture);
      const owner = await signIn(t.database, fixture.owner);
      await send(t.app, "PUT", `/api/prisms/${fixture.prismId}`, {
        headers: owner,
        payload: { title: "Edited", content: TEXT },
      });
      await send(t.app, "POST", `/api/prisms/${fixture.prismId}/heart`, { headers: owner });
      // The owner approves a response: a change anyone who sees the prism may see.
      const response = await buildAnnotation(t.database, { prismId: fixture.prismId });
      const approved = await send(t.app, "PUT", `/api/annotations/${response.id}/status`, {
        headers: owner,
        payload: { status: "approved" },
      });
      expect(approved.statusCode).toBe(200);
      await send(t.app, "PUT", `/api/prisms/${marker.prismId}`, {
        headers: await signIn(t.database, marker.owner),
        payload: { title: "Marker", content: TEXT },
      });
      expect(await heardBefore(stream, fixture, marker)).toEqual(
        visible ? ["annotation.changed", "heart.changed", "prisms.changed"] : [],
      );
    },
  );

  it("joining and leaving a team reach the member's stream, and what they read follows", async () => {
    const fixture = await ownedPrism("team");
    const marker = await ownedPrism("public");
    const owner = await signIn(t.database, fixture.owner);
    const created = await send(t.app, "POST", "/api/teams", {
      headers: owner,
      payload: { name: "Night shift" },
    });
    expect(created.statusCode).toBe(201);
    const { slug } = created.json();
    const invite = await send(t.app, "POST", `/api/teams/${slug}/invites`, { headers: owner });
    const token = new URL(invite.json().url).pathname.split("/invites/")[1];
    const newcomer = await buildUser(t.database);
    const headers = await signIn(t.database, newcomer);
    const list = async () =>
      (await get(`/api/prisms/${fixture.owner.username}`, headers))
        .json()
        .map((prism: { id: number }) => prism.id);
    expect(await list()).toEqual([]);

    const stream = await openStream(base, headers);
    streams.push(stream);
    await stream.connected();
    const bystander = await streamOf("member", "team", fixture);
    const joined = await send(t.app, "POST", `/api/invites/${token}`, { headers });
    expect(joined.statusCode).toBe(200);
    await stream.waitFor(isEvent("prisms.changed", { username: fixture.owner.username }));
    expect(await list()).toEqual([fixture.prismId]);

    const left = await send(t.app, "DELETE", `/api/teams/${slug}/members/${newcomer.username}`, {
      headers,
    });
    expect(left.statusCode).toBe(204);
    await stream.waitFor(isEvent("prisms.changed", { username: fixture.owner.username }));
    expect(await list()).toEqual([]);

    // A member in no team with either heard of neither.
    await send(t.app, "PUT", `/api/prisms/${marker.prismId}`, {
      headers: await signIn(t.database, marker.owner),
      payload: { title: "Marker", content: TEXT },
    });
    expect(await heardBefore(bystander, fixture, marker)).toEqual([]);
  });

  const changeCases = audiences.flatMap((from) =>
    audiences
      .filter((to) => to !== from)
      .flatMap((to) =>
        kinds.map((kind) => ({
          from,
          to,
          kind,
          visible: sees[from].includes(kind) || sees[to].includes(kind),
        })),
      ),
  );

  it.each(changeCases)(
    "a change from $from to $to reaches a $kind viewer: $visible",
    async ({ from, to, kind, visible }) => {
      const fixture = await ownedPrism(from);
      const marker = await ownedPrism("public");
      const stream = await streamOf(kind, from, fixture);
      await setAudience(fixture, to);
      await send(t.app, "PUT", `/api/prisms/${marker.prismId}`, {
        headers: await signIn(t.database, marker.owner),
        payload: { title: "Marker", content: TEXT },
      });
      expect(await heardBefore(stream, fixture, marker)).toEqual(visible ? ["prisms.changed"] : []);
      // And what it then reads follows the new audience at once.
      const list = await get(
        `/api/prisms/${fixture.owner.username}`,
        await headersOf(kind, from, fixture),
      );
      const shown = list.json().some((prism: { id: number }) => prism.id === fixture.prismId);
      expect(shown).toBe(sees[to].includes(kind));
    },
  );
});

describe("an unlisted page", () => {
  it("leaves explore and the sitemap, and is still read by its link and its feed", async () => {
    const fixture = await ownerWith("public");
    const { owner, prismId } = fixture;
    const saved = await send(t.app, "PUT", "/api/user/profile", {
      headers: await signIn(t.database, owner),
      payload: profileBody(owner, { listed: false }),
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().listed).toBe(false);
    const anyone = { cookie: visitorCookie("unlisted-reader") };
    expect((await get(`/api/users/${owner.username}`, anyone)).json().listed).toBe(false);
    expect(
      readers["explore's prisms"]?.shows?.(
        await get("/api/explore/prisms?limit=50", anyone),
        fixture,
        "anonymous",
        "public",
      ),
    ).toBe(false);
    expect(
      readers["explore's people"]?.shows?.(
        await get("/api/explore/users?limit=50", anyone),
        fixture,
        "anonymous",
        "public",
      ),
    ).toBe(false);
    expect((await get("/sitemap.xml", anyone)).body).not.toContain(`/${owner.username}<`);
    expect(
      (await get(`/api/prisms/${owner.username}`, anyone)).json().map((p: { id: number }) => p.id),
    ).toEqual([prismId]);
    expect((await get(`/${owner.username}/feed.json`, anyone)).body).toContain(
      prismLink(owner.username, prismId),
    );

    const listedAgain = await send(t.app, "PUT", "/api/user/profile", {
      headers: await signIn(t.database, owner),
      payload: profileBody(owner, { listed: true }),
    });
    expect(listedAgain.json().listed).toBe(true);
    expect(
      readers["explore's prisms"]?.shows?.(
        await get("/api/explore/prisms?limit=50", anyone),
        fixture,
        "anonymous",
        "public",
      ),
    ).toBe(true);
    expect((await get("/sitemap.xml", anyone)).body).toContain(`/${owner.username}<`);
  });

  it("keeps a prism written while the page is unlisted off explore until it is listed again", async () => {
    const owner = await buildUser(t.database, { lastActiveAt: new Date(), listed: false });
    const headers = await signIn(t.database, owner);
    const created = await send(t.app, "POST", "/api/prisms", {
      headers,
      payload: { title: "Written unlisted", content: TEXT },
    });
    expect(created.statusCode).toBe(201);
    const prismId: number = created.json().id;
    const anyone = { cookie: visitorCookie("unlisted-writer-reader") };
    const explored = async () => ({
      prism: (await get("/api/explore/prisms?limit=50", anyone))
        .json()
        .some((entry: { prism: { id: number } }) => entry.prism.id === prismId),
      member: (await get("/api/explore/users?limit=50", anyone))
        .json()
        .some((entry: { user: { id: number } }) => entry.user.id === owner.id),
    });
    expect(await explored()).toEqual({ prism: false, member: false });
    const listed = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: profileBody(owner, { listed: true }),
    });
    expect(listed.statusCode).toBe(200);
    expect(await explored()).toEqual({ prism: true, member: true });
  });
});
