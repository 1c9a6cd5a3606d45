// Each owner's content classifier over HTTP: taught by the owner's own decisions alone (approving,
// putting back from spam, keeping and replying teach "genuine"; spam and taking down teach
// "spam"; rejecting nothing; an admin's decisions never), one owner's lessons never touching
// another's responses, and heard only once it has learnt enough of each kind.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ReviewAction } from "../../../contract/annotations.ts";
import { annotationFlags, annotations, spamModels } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { respondToQuote, send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";
import { LESSONS_BEFORE_SPEAKING } from "./classifier.ts";

const t = setupTestApp();

const CONTENT = "<p>I give feedback in writing first.</p><p>Then we talk.</p>";
const SPAMMY = [
  "Cheap pills discount pharmacy order",
  "Discount pharmacy cheap pills today",
  "Order cheap pills discount prices",
  "Cheap replica watches discount order",
  "Pharmacy discount cheap pills order",
];
const GENUINE = [
  "Writing first gives everyone time to think",
  "I also prefer written feedback before meetings",
  "Thoughtful point about giving feedback",
  "We do the same in our team, writing helps",
  "Feedback in writing feels kinder to me",
];
const NEW_SPAM = "Cheap pills, discount pharmacy: order";

async function scene() {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
  return { owner, prism, ownerHeaders: await signIn(t.database, owner) };
}

let callers = 0;
/** A request from an address of its own, so that no per-address limit answers. */
function from<T extends object>(options: T): T & { remoteAddress: string } {
  callers += 1;
  return { ...options, remoteAddress: `10.37.${(callers >> 8) & 255}.${callers & 255}` };
}

const modelOf = async (ownerId: number) =>
  (await t.database.db.select().from(spamModels).where(eq(spamModels.ownerId, ownerId)))[0]
    ?.model ?? null;

/** Anonymous responses to the owner's prism with these texts, `status` (pending by default). */
async function responses(
  prismId: number,
  texts: string[],
  status: "pending" | "approved" = "pending",
) {
  const ids: number[] = [];
  for (const annotationText of texts) {
    const row = await buildAnnotation(t.database, {
      prismId,
      annotationText,
      status,
      visitorHash: `spam-model-${callers}-${ids.length}`,
    });
    ids.push(row.id);
  }
  return ids;
}

const bulk = (headers: Record<string, string>, ids: number[], action: ReviewAction) =>
  send(t.app, "POST", "/api/annotations/bulk", from({ headers, payload: { ids, action } }));

/** The owner teaches their model five of each kind, less `fewerGenuine` genuine ones. */
async function teach(prismId: number, headers: Record<string, string>, fewerGenuine = 0) {
  const spam = await responses(prismId, SPAMMY);
  expect((await bulk(headers, spam, "spam")).statusCode).toBe(200);
  const genuine = await responses(prismId, GENUINE.slice(fewerGenuine));
  expect((await bulk(headers, genuine, "approve")).statusCode).toBe(200);
}

/** An anonymous response to the prism, from a browser and an address of its own. */
function respond(prismId: number, annotationText: string) {
  callers += 1;
  return respondToQuote(
    t.app,
    prismId,
    CONTENT,
    "in writing",
    { cookie: visitorCookie(`spam-model-reader-${callers}`) },
    { annotationText },
  );
}

const stored = async (id: number) =>
  (await t.database.db.select().from(annotations).where(eq(annotations.id, id)))[0];

describe("the owner's content classifier", () => {
  it("learns from each kind of decision the owner takes, and unlearns one taken back", async () => {
    const { owner, prism, ownerHeaders } = await scene();
    const [approved, rejected, spam] = await responses(prism.id, ["Kind words", "Rude", "Buy"]);
    await bulk(ownerHeaders, [approved as number], "approve");
    await bulk(ownerHeaders, [rejected as number], "reject");
    expect((await modelOf(owner.id))?.docs).toEqual({ ham: 1, spam: 0 });
    await bulk(ownerHeaders, [spam as number], "spam");
    expect((await modelOf(owner.id))?.docs).toEqual({ ham: 1, spam: 1 });
    expect((await stored(spam as number))?.spamLesson).toBe("spam");
    // Not spam after all: the spam lesson is taken back, and it is taught as genuine, once.
    await bulk(ownerHeaders, [spam as number], "not-spam");
    await bulk(ownerHeaders, [spam as number], "approve");
    const model = await modelOf(owner.id);
    expect(model?.docs).toEqual({ ham: 2, spam: 0 });
    expect(model?.counts.buy).toEqual([1, 0]);

    // The Flagged folder: keeping teaches genuine, taking down spam.
    const [kept, takenDown] = await responses(prism.id, ["Kept one", "Taken down"], "approved");
    await t.database.db.insert(annotationFlags).values([
      { annotationId: kept as number, visitorHash: "flagger", reason: "spam" },
      { annotationId: takenDown as number, visitorHash: "flagger", reason: "spam" },
    ]);
    await bulk(ownerHeaders, [kept as number], "keep");
    await bulk(ownerHeaders, [takenDown as number], "take-down");
    expect((await modelOf(owner.id))?.docs).toEqual({ ham: 3, spam: 1 });

    // Approving one at a time, and replying, teach genuine too; rejecting one teaches nothing.
    const [single, replied, refused] = await responses(prism.id, ["One", "Two", "Three"]);
    const decide = (id: number, status: string) =>
      send(t.app, "PUT", `/api/annotations/${id}/status`, {
        headers: ownerHeaders,
        payload: { status },
      });
    expect((await decide(single as number, "approved")).statusCode).toBe(200);
    expect((await decide(refused as number, "rejected")).statusCode).toBe(200);
    const reply = await send(t.app, "PUT", `/api/annotations/${replied}/reply`, {
      headers: ownerHeaders,
      payload: { text: "Thank you" },
    });
    expect(reply.statusCode).toBe(200);
    expect((await modelOf(owner.id))?.docs).toEqual({ ham: 5, spam: 1 });
  });

  it("never learns from an admin's decisions on an owner's responses", async () => {
    const { owner, prism } = await scene();
    const admin = await buildUser(t.database, { isAdmin: true });
    const adminHeaders = await signIn(t.database, admin);
    const [first, second] = await responses(prism.id, ["Spam by an admin", "Approved by one"]);
    const asAdmin = await send(t.app, "PUT", `/api/prisms/0/annotations/${first}/status`, {
      headers: adminHeaders,
      payload: { status: "spam" },
    });
    expect(asAdmin.statusCode).toBe(200);
    const approved = await send(t.app, "PUT", `/api/annotations/${second}/status`, {
      headers: adminHeaders,
      payload: { status: "approved" },
    });
    expect(approved.statusCode).toBe(200);
    expect((await stored(second as number))?.status).toBe("approved");
    expect(await modelOf(owner.id)).toBeNull();
  });

  it("is heard once it has learnt enough of each kind, and answers the author as pending", async () => {
    const { owner, prism, ownerHeaders } = await scene();
    await teach(prism.id, ownerHeaders, 1);
    expect((await modelOf(owner.id))?.docs).toEqual({ ham: 4, spam: 5 });
    // Four genuine lessons: not yet listened to.
    const early = await respond(prism.id, NEW_SPAM);
    expect(early.statusCode).toBe(201);
    expect((await stored(early.json().id))?.status).toBe("pending");
    expect((await stored(early.json().id))?.signals?.reasons).toEqual([]);

    const [fifth] = await responses(prism.id, [GENUINE[0] as string]);
    await bulk(ownerHeaders, [fifth as number], "approve");
    const late = await respond(prism.id, NEW_SPAM);
    // Its author is answered as for any response waiting for review.
    expect(late.statusCode).toBe(201);
    expect(late.json()).toMatchObject({ status: "pending", statusUrl: expect.any(String) });
    const status = await send(t.app, "GET", `/api${late.json().statusUrl}`);
    expect(status.json()).toMatchObject({ text: NEW_SPAM, status: "pending" });
    expect(await stored(late.json().id)).toMatchObject({
      status: "spam",
      signals: { reasons: ["Looks like what you marked as spam"] },
    });
    const folder = await send(t.app, "GET", "/api/annotations/review?status=spam", {
      headers: ownerHeaders,
    });
    expect(folder.json().items).toContainEqual(
      expect.objectContaining({
        id: late.json().id,
        reasons: ["Looks like what you marked as spam"],
      }),
    );
    // What looks like what the owner approved waits for review, with no doubt raised.
    const fair = await respond(prism.id, "Feedback in writing first helps my team think");
    expect(await stored(fair.json().id)).toMatchObject({
      status: "pending",
      signals: { reasons: [] },
    });
  });

  it("keeps each owner's lessons to their own responses", async () => {
    const taught = await scene();
    const other = await scene();
    await teach(taught.prism.id, taught.ownerHeaders);
    expect((await modelOf(taught.owner.id))?.docs).toEqual({
      ham: LESSONS_BEFORE_SPEAKING,
      spam: LESSONS_BEFORE_SPEAKING,
    });
    const theirs = await respond(other.prism.id, NEW_SPAM);
    expect(await stored(theirs.json().id)).toMatchObject({
      status: "pending",
      signals: { reasons: [] },
    });
    expect(await modelOf(other.owner.id)).toBeNull();
    const mine = await respond(taught.prism.id, NEW_SPAM);
    expect((await stored(mine.json().id))?.status).toBe("spam");
  });
});
