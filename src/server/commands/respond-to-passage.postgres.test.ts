// Responding to a passage, called as the route calls it: who may respond, the quote checked
// against the prism's text, what is stored, the owner's notification, the events, all or nothing.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotationMessages } from "../../contract/annotation-messages.ts";
import type { AnnotationCreate } from "../../contract/annotations.ts";
import { personCheckMessages } from "../../contract/person-check.ts";
import { htmlToPlainText } from "../../contract/plain-text.ts";
import type { Responders } from "../../contract/responders.ts";
import type { Participant } from "../actors.ts";
import { annotations, notifications, spentProofs, type users } from "../db/schema.ts";
import { issueChallenge } from "../features/person-check/service.ts";
import { buildPrism, buildUser } from "../test/builders.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { setupTestDatabase, TEST_SECRET } from "../test/helpers.ts";
import { personCheck, TYPING_MS } from "../test/person-check.ts";
import { run } from "../test/write.ts";
import { respondToPassage } from "./annotations.ts";

const t = setupTestDatabase();

const CONTENT = "<p>I give feedback <strong>in writing</strong> first.</p><p>Then we talk.</p>";
const TEXT = htmlToPlainText(CONTENT);

let visitors = 0;
const visitor = (): Participant => ({ visitorHash: `responding-visitor-${++visitors}` });

function responseTo(prismId: number, quote: string, extra: Partial<AnnotationCreate> = {}) {
  const start = TEXT.indexOf(quote);
  return {
    prismId,
    selectedText: quote,
    selectionStart: start,
    selectionEnd: start + quote.length,
    annotationText: "This resonates.",
    ...extra,
  };
}

async function scene(
  ownerFields: Partial<typeof users.$inferInsert> = {},
  responders: Responders = "anyone",
) {
  const owner = await buildUser(t.database, ownerFields);
  const prism = await buildPrism(t.database, {
    userId: owner.id,
    title: "Feedback",
    content: CONTENT,
    responders,
  });
  return { owner, prism };
}

/**
 * Responds as the route does: a visitor's response with the person check the dialog sends (a
 * challenge solved as the browser solves it); the response and its status link, and the events.
 */
async function respond(input: AnnotationCreate, participant: Participant) {
  const checked =
    "user" in participant
      ? input
      : { ...(await personCheck(await issueChallenge(TEST_SECRET))), ...input };
  const { result, events } = await run(t.database, participant, (write) =>
    respondToPassage(write, checked, TEST_SECRET),
  );
  return { ...result, events };
}

async function storedFor(prismId: number) {
  const { db } = t.database;
  return {
    annotations: await db.select().from(annotations).where(eq(annotations.prismId, prismId)),
    notifications: await db.select().from(notifications).where(eq(notifications.prismId, prismId)),
  };
}

describe("respondToPassage", () => {
  it("records a visitor's response, pending, with the quote's context, and tells the owner", async () => {
    const { owner, prism } = await scene();
    const participant = visitor();
    const { view, events } = await respond(
      responseTo(prism.id, "in writing", { annotatorName: "Sam", annotatorEmail: "" }),
      participant,
    );
    expect(view.row).toMatchObject({
      prismId: prism.id,
      status: "pending",
      userId: null,
      annotatorName: "Sam",
      annotatorEmail: null,
      visitorHash: "visitorHash" in participant ? participant.visitorHash : "",
      selectedText: "in writing",
      prefix: "I give feedback ",
      suffix: " first.\nThen we talk.",
      prismTitle: "Feedback",
      orphaned: false,
      signals: { typingMs: TYPING_MS, proofAgeMs: expect.any(Number) },
    });
    expect(view.row.signals?.proofAgeMs).toBeGreaterThanOrEqual(0);
    expect(view.row.signals?.proofAgeMs).toBeLessThan(60_000);
    expect(view.prismOwnerId).toBe(owner.id);
    const stored = await storedFor(prism.id);
    expect(stored.annotations).toEqual([view.row]);
    expect(stored.notifications).toEqual([
      expect.objectContaining({
        userId: owner.id,
        type: "annotation",
        annotationId: view.row.id,
        actorName: "Sam (visitor)",
        read: false,
      }),
    ]);
    // Pending: only the owner may see it (a visitor has no member id to add).
    expect(events).toEqual([
      {
        type: "annotation.changed",
        prismId: prism.id,
        username: owner.username,
        audience: [owner.id],
      },
      { type: "notification.created", userId: owner.id, mail: true },
    ]);
  });

  it("sets a response that scores as spam aside: no notification, and no event for the owner", async () => {
    const { prism } = await scene();
    const { view, events } = await respond(
      responseTo(prism.id, "in writing", {
        annotationText: "Deals: https://a.example/1 https://b.example/2 https://c.example/3",
      }),
      visitor(),
    );
    expect(view.row.status).toBe("spam");
    expect(view.row.signals).toMatchObject({ score: 3, reasons: ["Has 3 links"] });
    expect((await storedFor(prism.id)).notifications).toEqual([]);
    // Only admins (who hear everything) and a member author would hear of it.
    expect(events).toEqual([
      {
        type: "annotation.changed",
        prismId: prism.id,
        username: expect.any(String),
        audience: [],
      },
    ]);
  });

  it("records a member's response under their account, never a typed name or e-mail", async () => {
    const { owner, prism } = await scene();
    const member = await buildUser(t.database, { displayName: "Dee" });
    const { view, events } = await respond(
      responseTo(prism.id, "Then we talk", {
        annotatorName: "Someone Else",
        annotatorEmail: "else@example.com",
      }),
      { user: member },
    );
    expect(view.row).toMatchObject({
      userId: member.id,
      annotatorName: null,
      annotatorEmail: null,
      visitorHash: null,
      status: "pending",
      signals: null,
    });
    expect(view.author?.id).toBe(member.id);
    const [note] = (await storedFor(prism.id)).notifications;
    expect(note?.actorName).toBe("Dee");
    expect(events[0]).toMatchObject({ audience: [owner.id, member.id] });
  });

  it("approves a member's response at once when the owner pre-approves members; a visitor's still waits", async () => {
    const { owner, prism } = await scene({ preapproveMembers: true });
    const member = await buildUser(t.database);
    const byMember = await respond(responseTo(prism.id, "in writing"), { user: member });
    expect(byMember.view.row.status).toBe("approved");
    // Approved: everyone may see it, so the event names no audience.
    expect(byMember.events[0]).toEqual({
      type: "annotation.changed",
      prismId: prism.id,
      username: owner.username,
    });
    const byVisitor = await respond(responseTo(prism.id, "in writing"), visitor());
    expect(byVisitor.view.row.status).toBe("pending");
    expect((await storedFor(prism.id)).notifications).toHaveLength(2);
  });

  it("does not notify the owner of their own response, which waits like any other", async () => {
    const { owner, prism } = await scene();
    const { view, events } = await respond(responseTo(prism.id, "first"), { user: owner });
    expect(view.row.status).toBe("pending");
    expect((await storedFor(prism.id)).notifications).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(["annotation.changed"]);
  });

  it("refuses a quote that is not the prism's text at its offsets, and stores nothing", async () => {
    const { prism } = await scene();
    const cases: AnnotationCreate[] = [
      { ...responseTo(prism.id, "in writing"), selectedText: "in Writing" },
      { ...responseTo(prism.id, "in writing"), selectionStart: 0, selectionEnd: 10 },
      // The offsets count the plain text, not the HTML.
      { ...responseTo(prism.id, "in writing"), selectionStart: CONTENT.indexOf("in writing") },
      { ...responseTo(prism.id, "in writing"), selectionStart: 20, selectionEnd: 20 },
      { ...responseTo(prism.id, "in writing"), selectionStart: TEXT.length, selectionEnd: 99_999 },
    ];
    for (const input of cases) {
      await expect(respond(input, visitor())).rejects.toMatchObject({
        statusCode: 400,
        message: annotationMessages.selectionMismatch,
        errors: { selectedText: annotationMessages.selectionMismatch },
      });
    }
    expect(await storedFor(prism.id)).toEqual({ annotations: [], notifications: [] });
  });

  it("answers 404 for a missing prism and for one whose owner is deactivated", async () => {
    const { prism } = await scene({ deactivatedAt: new Date() });
    for (const prismId of [prism.id, 2 ** 31 - 1]) {
      await expect(respond(responseTo(prismId, "in writing"), visitor())).rejects.toMatchObject({
        statusCode: 404,
        message: "Prism not found",
      });
    }
    expect(await storedFor(prism.id)).toEqual({ annotations: [], notifications: [] });
  });

  it("admits members only, or no one, as the owner chose", async () => {
    const membersOnly = await scene({}, "members");
    const member = await buildUser(t.database);
    await expect(
      respond(responseTo(membersOnly.prism.id, "in writing"), visitor()),
    ).rejects.toMatchObject({ statusCode: 403, message: annotationMessages.membersOnly });
    await respond(responseTo(membersOnly.prism.id, "in writing"), { user: member });
    expect((await storedFor(membersOnly.prism.id)).annotations).toHaveLength(1);

    const closed = await scene({}, "no-one");
    for (const participant of [visitor(), { user: member }, { user: closed.owner }]) {
      await expect(
        respond(responseTo(closed.prism.id, "in writing"), participant),
      ).rejects.toMatchObject({ statusCode: 403, message: annotationMessages.closed });
    }
    expect(await storedFor(closed.prism.id)).toEqual({ annotations: [], notifications: [] });
  });

  it("stores no response, and spends no proof, when the owner's notification cannot be written", async () => {
    const { prism } = await scene();
    const spent = await t.database.db.select().from(spentProofs);
    await refuseWrites(t.database, "notifications", "insert");
    await expectRefused(respond(responseTo(prism.id, "in writing"), visitor()));
    expect(await storedFor(prism.id)).toEqual({ annotations: [], notifications: [] });
    expect(await t.database.db.select().from(spentProofs)).toEqual(spent);
  });

  it("spends a visitor's proof with the response, once: a second response with it is refused", async () => {
    const { prism } = await scene();
    const check = await personCheck(await issueChallenge(TEST_SECRET));
    const input = { ...responseTo(prism.id, "in writing"), ...check };
    const first = visitor();
    await run(t.database, first, (write) => respondToPassage(write, input, TEST_SECRET));
    const nonce = JSON.parse(Buffer.from(check.altcha, "base64").toString()).challenge.parameters
      .nonce;
    expect(
      await t.database.db.select().from(spentProofs).where(eq(spentProofs.nonce, nonce)),
    ).toHaveLength(1);
    await expect(
      run(t.database, visitor(), (write) => respondToPassage(write, input, TEST_SECRET)),
    ).rejects.toMatchObject({
      statusCode: 400,
      errors: { altcha: personCheckMessages.reused },
    });
    expect((await storedFor(prism.id)).annotations).toHaveLength(1);
  });

  it("asks a member for no person check", async () => {
    const { prism } = await scene();
    const member = await buildUser(t.database);
    const { result } = await run(t.database, { user: member }, (write) =>
      respondToPassage(write, responseTo(prism.id, "in writing"), TEST_SECRET),
    );
    expect(result.view.row).toMatchObject({ userId: member.id, signals: null });
  });
});
