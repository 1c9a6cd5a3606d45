// A deactivated member's prisms are gone for everyone, as their page is: hearts (status and
// toggle), responses (writing and reading them), the prism reads and the share cards answer 404,
// even when the answer was kept in memory, or tagged in a browser, a moment before. Reactivation
// brings every answer back as it was.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotations, prisms } from "../../src/server/db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../src/server/test/builders.ts";
import {
  asSent,
  send,
  setupTestApp,
  signIn,
  visitorCookie,
} from "../../src/server/test/helpers.ts";

const t = setupTestApp();

type Headers = Record<string, string>;

/** A member's prism with an approved response, a signed-in reader, and an admin. */
async function scene() {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  const annotation = await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
  const reader = await signIn(t.database, await buildUser(t.database));
  const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
  const account = (action: "deactivate" | "reactivate") =>
    send(t.app, "PUT", `/api/analytics/users/${owner.id}/${action}`, { headers: admin });
  return { owner, prism, annotation, reader, account };
}

type Scene = Awaited<ReturnType<typeof scene>>;

/** Every read of the prism, as a reader makes it. */
const reads = (s: Scene) => ({
  "heart status": `/api/prisms/${s.prism.id}/heart`,
  "responses to it": `/api/prisms/${s.prism.id}/annotations`,
  "one response": `/api/annotations/${s.annotation.id}`,
  "the owner's prisms": `/api/prisms/${s.owner.username}`,
  "the owner's share card": `/og/${s.owner.username}.png`,
  "the prism's share card": `/og/${s.owner.username}/${s.prism.id}.png`,
});

const respond = async (s: Scene, headers: Headers) =>
  send(t.app, "POST", "/api/annotations", {
    headers,
    payload: await asSent(t.app, headers, {
      prismId: s.prism.id,
      selectedText: "Mornings",
      annotationText: "Same here",
      selectionStart: 0,
      selectionEnd: 8,
    }),
  });

const heart = (s: Scene, headers: Headers) =>
  send(t.app, "POST", `/api/prisms/${s.prism.id}/heart`, { headers });

/** Reads each twice (the second is answered from memory), keeping each answer's entity tag. */
async function readAll(s: Scene, headers: Headers) {
  const answers: Record<string, { status: number; etag: string | undefined }> = {};
  for (const [name, url] of Object.entries(reads(s))) {
    await send(t.app, "GET", url, { headers });
    const again = await send(t.app, "GET", url, { headers });
    answers[name] = { status: again.statusCode, etag: again.headers.etag as string | undefined };
  }
  return answers;
}

const statuses = (answers: Awaited<ReturnType<typeof readAll>>) =>
  Object.fromEntries(Object.entries(answers).map(([name, { status }]) => [name, status]));

describe("a deactivated member's prisms", () => {
  it("answer 404 to every read right after deactivation, though the answers were kept in memory", async () => {
    const s = await scene();
    const before = await readAll(s, s.reader);
    expect(statuses(before)).toEqual({
      "heart status": 200,
      "responses to it": 200,
      "one response": 200,
      "the owner's prisms": 200,
      "the owner's share card": 200,
      "the prism's share card": 200,
    });
    expect((await s.account("deactivate")).statusCode).toBe(200);

    for (const [name, url] of Object.entries(reads(s))) {
      const plain = await send(t.app, "GET", url, { headers: s.reader });
      expect(plain.statusCode, name).toBe(404);
      expect(plain.json(), name).toEqual({ message: expect.any(String) });
      // The browser still holds the tag of the answer it had: that answer is not confirmed.
      const etag = before[name]?.etag;
      if (etag) {
        const conditional = await send(t.app, "GET", url, {
          headers: { ...s.reader, "if-none-match": etag },
        });
        expect(conditional.statusCode, `${name} with If-None-Match`).toBe(404);
      }
    }
  });

  it("take no heart, from a member or a visitor, and count none", async () => {
    const s = await scene();
    expect((await send(t.app, "GET", `/api/prisms/${s.prism.id}/heart`)).statusCode).toBe(200);
    expect((await s.account("deactivate")).statusCode).toBe(200);

    expect((await heart(s, s.reader)).statusCode).toBe(404);
    expect((await heart(s, { cookie: visitorCookie("deactivated-visitor-0001") })).statusCode).toBe(
      404,
    );
    const [row] = await t.database.db.select().from(prisms).where(eq(prisms.id, s.prism.id));
    expect(row?.heartsCount).toBe(0);
  });

  it("take no response, from a member or a visitor, and store none", async () => {
    const s = await scene();
    const listed = await send(t.app, "GET", `/api/prisms/${s.prism.id}/annotations`);
    expect(listed.statusCode).toBe(200);
    expect((await s.account("deactivate")).statusCode).toBe(200);

    expect((await respond(s, s.reader)).statusCode).toBe(404);
    expect(
      (await respond(s, { cookie: visitorCookie("deactivated-visitor-0002") })).statusCode,
    ).toBe(404);
    const stored = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.prismId, s.prism.id));
    expect(stored.map((row) => row.id)).toEqual([s.annotation.id]);
  });

  it("are back, hearts and responses included, once the member is reactivated", async () => {
    const s = await scene();
    await readAll(s, s.reader);
    expect((await s.account("deactivate")).statusCode).toBe(200);
    expect((await heart(s, s.reader)).statusCode).toBe(404);
    expect((await s.account("reactivate")).statusCode).toBe(200);

    expect(statuses(await readAll(s, s.reader))).toEqual({
      "heart status": 200,
      "responses to it": 200,
      "one response": 200,
      "the owner's prisms": 200,
      "the owner's share card": 200,
      "the prism's share card": 200,
    });
    const hearted = await heart(s, s.reader);
    expect(hearted.statusCode).toBe(200);
    expect(hearted.json()).toEqual({ hearted: true, heartsCount: 1 });
    expect((await respond(s, s.reader)).statusCode).toBe(201);
  });
});
