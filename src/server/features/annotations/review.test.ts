// The owner's review queue over HTTP: the pending responses to their prisms, a page at a time,
// and bulk decisions on them, for the owner alone, all or nothing, within their bounds.
import { asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import { annotations, auditLog } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn } from "../../test/helpers.ts";

const t = setupTestApp();

/** An owner with two prisms, another member, and their signed-in headers. */
async function scene() {
  const owner = await buildUser(t.database);
  const member = await buildUser(t.database, { displayName: "Ada" });
  const first = await buildPrism(t.database, { userId: owner.id, title: "How I work" });
  const second = await buildPrism(t.database, { userId: owner.id, title: "Meetings", index: 1 });
  return {
    owner,
    member,
    first,
    second,
    ownerHeaders: await signIn(t.database, owner),
    memberHeaders: await signIn(t.database, member),
  };
}

const queue = (headers: Record<string, string>, query = "") =>
  send(t.app, "GET", `/api/annotations/review${query}`, { headers });

let callers = 0;
/** A bulk decision, from an address of its own. */
function bulk(headers: Record<string, string>, payload: object) {
  callers += 1;
  return send(t.app, "POST", "/api/annotations/bulk", {
    headers,
    payload,
    remoteAddress: `10.35.${(callers >> 8) & 255}.${callers & 255}`,
  });
}

const statuses = async (ids: number[]) =>
  (
    await t.database.db
      .select({ status: annotations.status })
      .from(annotations)
      .where(inArray(annotations.id, ids))
      .orderBy(asc(annotations.id))
  ).map((row) => row.status);

describe("GET /api/annotations/review", () => {
  it("lists the pending responses to the owner's prisms, oldest first, as the owner's panel shows them", async () => {
    const { member, first, second, ownerHeaders, memberHeaders } = await scene();
    // The builder's response says "Same here" of "Mornings".
    const byMember = await buildAnnotation(t.database, { prismId: first.id, userId: member.id });
    const anonymous = await buildAnnotation(t.database, {
      prismId: second.id,
      annotatorName: "Sam",
      visitorHash: "review-visitor",
    });
    await buildAnnotation(t.database, { prismId: first.id, status: "approved" });
    await buildAnnotation(t.database, { prismId: second.id, status: "rejected" });
    // Someone else's pending response is in their queue, not this one.
    const elsewhere = await buildPrism(t.database, { userId: member.id });
    const theirs = await buildAnnotation(t.database, { prismId: elsewhere.id });

    const response = await queue(ownerHeaders);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        expect.objectContaining({
          id: byMember.id,
          prismId: first.id,
          prismTitle: "How I work",
          selectedText: "Mornings",
          annotationText: "Same here",
          authorName: "Ada",
          status: "pending",
          canModerate: true,
          isOwn: false,
          reasons: [],
        }),
        expect.objectContaining({
          id: anonymous.id,
          prismId: second.id,
          prismTitle: "Meetings",
          authorName: "Sam (visitor)",
          reasons: [],
        }),
      ],
      nextCursor: null,
      counts: { pending: 2, spam: 0, flagged: 0 },
    });
    expect(JSON.stringify(response.json())).not.toMatch(/review-visitor|annotatorEmail/);
    expect((await queue(memberHeaders)).json()).toEqual({
      items: [expect.objectContaining({ id: theirs.id })],
      nextCursor: null,
      counts: { pending: 1, spam: 0, flagged: 0 },
    });
  });

  it("pages by cursor: each page after the last id of the one before, until none is left", async () => {
    const { first, ownerHeaders } = await scene();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await buildAnnotation(t.database, { prismId: first.id })).id);
    const pageOne = (await queue(ownerHeaders, "?limit=2")).json();
    expect(pageOne.items.map((item: { id: number }) => item.id)).toEqual(ids.slice(0, 2));
    expect(pageOne.nextCursor).toBe(ids[1]);
    const pageTwo = (await queue(ownerHeaders, `?limit=2&cursor=${pageOne.nextCursor}`)).json();
    expect(pageTwo.items.map((item: { id: number }) => item.id)).toEqual(ids.slice(2, 4));
    const pageThree = (await queue(ownerHeaders, `?limit=2&cursor=${pageTwo.nextCursor}`)).json();
    expect(pageThree).toEqual({
      items: [expect.objectContaining({ id: ids[4] })],
      nextCursor: null,
      // Each page counts the whole folder.
      counts: { pending: 5, spam: 0, flagged: 0 },
    });
    // The default page holds 50.
    for (let i = 0; i < 50; i++) await buildAnnotation(t.database, { prismId: first.id });
    const full = (await queue(ownerHeaders)).json();
    expect(full.items).toHaveLength(50);
    expect(full.nextCursor).toBe(full.items[49].id);
  });

  it("asks who is asking, and refuses a status, cursor or size it does not know", async () => {
    const { ownerHeaders } = await scene();
    expect((await queue({})).statusCode).toBe(401);
    for (const query of ["?status=approved", "?cursor=abc", "?cursor=0", "?limit=51", "?limit=0"]) {
      const refused = await queue(ownerHeaders, query);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().message, query).toEqual(expect.any(String));
    }
  });
});

describe("POST /api/annotations/bulk", () => {
  it("decides on the owner's responses and answers how many changed", async () => {
    const { owner, first, second, ownerHeaders } = await scene();
    const ids = [
      (await buildAnnotation(t.database, { prismId: first.id })).id,
      (await buildAnnotation(t.database, { prismId: second.id })).id,
    ];
    const answer = await bulk(ownerHeaders, { ids, action: "reject" });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ changed: 2 });
    expect(await statuses(ids)).toEqual(["rejected", "rejected"]);
    const lines = await t.database.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.targetId, ids))
      .orderBy(asc(auditLog.id));
    expect(lines.map((line) => [line.actorId, line.action, line.details])).toEqual(
      ids.map(() => [
        owner.id,
        "annotation.status",
        expect.objectContaining({ before: { status: "pending" }, after: { status: "rejected" } }),
      ]),
    );
    expect((await queue(ownerHeaders)).json().items).toEqual([]);
  });

  it("changes nothing when one response is another's: 404 for a member, 403 for an admin", async () => {
    const { member, first, ownerHeaders, memberHeaders } = await scene();
    const mine = await buildAnnotation(t.database, { prismId: first.id });
    const theirPrism = await buildPrism(t.database, { userId: member.id });
    const theirs = await buildAnnotation(t.database, { prismId: theirPrism.id });
    const admin = await buildUser(t.database, { isAdmin: true });
    const adminHeaders = await signIn(t.database, admin);
    const ids = [mine.id, theirs.id];

    const foreign = await bulk(ownerHeaders, { ids, action: "approve" });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: "Annotation not found" });
    expect((await bulk(memberHeaders, { ids, action: "approve" })).statusCode).toBe(404);
    const byAdmin = await bulk(adminHeaders, { ids, action: "approve" });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json()).toEqual({ message: annotationMessages.bulkOwnerOnly });
    expect((await bulk({}, { ids, action: "approve" })).statusCode).toBe(401);
    expect(await statuses(ids)).toEqual(["pending", "pending"]);
    expect(
      await t.database.db.select().from(auditLog).where(inArray(auditLog.targetId, ids)),
    ).toEqual([]);
  });

  it("changes nothing when one response was decided already (409)", async () => {
    const { first, ownerHeaders } = await scene();
    const waiting = await buildAnnotation(t.database, { prismId: first.id });
    const decided = await buildAnnotation(t.database, { prismId: first.id, status: "approved" });
    const answer = await bulk(ownerHeaders, { ids: [waiting.id, decided.id], action: "reject" });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual({ message: annotationMessages.bulkNotPending });
    expect(await statuses([waiting.id, decided.id])).toEqual(["pending", "approved"]);
  });

  it("takes 1 to 100 different ids and one of its actions, else 400 on the field", async () => {
    const { first, ownerHeaders } = await scene();
    const waiting = await buildAnnotation(t.database, { prismId: first.id });
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    const refusals: [object, string, string | undefined][] = [
      [{ ids: [], action: "approve" }, "ids", annotationMessages.bulkNone],
      [{ ids: many, action: "approve" }, "ids", annotationMessages.bulkTooMany],
      [
        { ids: [waiting.id, waiting.id], action: "approve" },
        "ids",
        annotationMessages.bulkRepeated,
      ],
      [{ ids: ["1"], action: "approve" }, "ids.0", undefined],
      [{ ids: [0], action: "approve" }, "ids.0", undefined],
      [{ ids: [waiting.id], action: "archive" }, "action", undefined],
      [{ ids: [waiting.id], action: "approve", status: "approved" }, "", undefined],
    ];
    for (const [payload, field, message] of refusals) {
      const answer = await bulk(ownerHeaders, payload);
      const described = JSON.stringify(payload).slice(0, 60);
      expect(answer.statusCode, described).toBe(400);
      if (message) expect(answer.json().errors[field], described).toBe(message);
    }
    expect(await statuses([waiting.id])).toEqual(["pending"]);
    // A hundred is the most, and is decided at once.
    const hundred: number[] = [waiting.id];
    for (let i = 1; i < 100; i++) {
      hundred.push((await buildAnnotation(t.database, { prismId: first.id })).id);
    }
    const answer = await bulk(ownerHeaders, { ids: hundred, action: "approve" });
    expect(answer.json()).toEqual({ changed: 100 });
    expect(new Set(await statuses(hundred))).toEqual(new Set(["approved"]));
  });

  it("allows a member 60 bulk decisions a minute, then 429", async () => {
    const { ownerHeaders } = await scene();
    const missing = { ids: [2 ** 31 - 1], action: "approve" };
    for (let i = 0; i < 60; i++) {
      expect((await bulk(ownerHeaders, missing)).statusCode).toBe(404);
    }
    const limited = await bulk(ownerHeaders, missing);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: annotationMessages.reviewTooMany });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("the review queue and the prism's own list", () => {
  it("agree after a bulk decision: approved responses are shown to everyone", async () => {
    const { first, ownerHeaders } = await scene();
    const waiting = await buildAnnotation(t.database, { prismId: first.id });
    expect((await send(t.app, "GET", `/api/prisms/${first.id}/annotations`)).json()).toEqual([]);
    await bulk(ownerHeaders, { ids: [waiting.id], action: "approve" });
    const shown = (await send(t.app, "GET", `/api/prisms/${first.id}/annotations`)).json();
    expect(shown).toEqual([expect.objectContaining({ id: waiting.id, status: "approved" })]);
    const [row] = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.id, waiting.id));
    expect(row?.status).toBe("approved");
  });
});
