// A member's account, called as the routes call it. A profile saved, its new e-mail address told
// to the old one. An account deleted: the member and everything of theirs go, others' counts are
// corrected, the notifications they caused are forgotten, every page that changed hears of it, and
// a failure partway changes nothing.
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PrismEvent } from "../../contract/events.ts";
import { profileUpdateSchema } from "../../contract/user.ts";
import { annotations, notifications, prismHearts, prisms, sessions, users } from "../db/schema.ts";
import {
  buildAnnotation,
  buildHeart,
  buildNotification,
  buildPrism,
  buildUser,
} from "../test/builders.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { profileBody, setupTestDatabase, signIn } from "../test/helpers.ts";
import { outbox, run } from "../test/write.ts";
import * as commands from "./users.ts";

const t = setupTestDatabase();

describe("updateProfile", () => {
  /** Saves `user`'s profile with `changes` as its route does; what was announced and mailed. */
  async function save(user: typeof users.$inferSelect, changes: Record<string, unknown>) {
    const box = outbox();
    const input = profileUpdateSchema.parse(profileBody(user, changes));
    const { result, events } = await run(t.database, user, (write) =>
      commands.updateProfile({ ...write, mail: box.mail }, input, {
        production: true,
        userAgent: "Prism",
      }),
    );
    await result.mailed;
    return { user: result.user, events, sent: box.sent };
  }

  it("saves the profile and tells the member's page, mailing nothing while the address stays", async () => {
    const user = await buildUser(t.database);
    const saved = await save(user, { displayName: "Octavia" });
    expect(saved.user).toMatchObject({ id: user.id, displayName: "Octavia", email: user.email });
    expect(saved.events).toEqual([{ type: "profile.changed", username: user.username }]);
    expect(saved.sent).toEqual([]);
  });

  it("tells the old address of a new one, masked, once the change has committed", async () => {
    const user = await buildUser(t.database, { firstName: "Octavia" });
    const saved = await save(user, { email: "thief.new@evil.example" });
    expect(saved.user.email).toBe("thief.new@evil.example");
    expect(saved.sent.map((message) => [message.to, message.subject])).toEqual([
      [user.email, "The e-mail address of your Prism account was changed"],
    ]);
    expect(saved.sent[0]?.text).toContain("Hello Octavia,");
    expect(saved.sent[0]?.text).toContain("was changed to t***@evil.example.");
    expect(saved.sent[0]?.text).not.toContain("thief.new");
  });
});

/** Deletes the account as its route does, with the events announced. */
const deleteAccount = (userId: number) =>
  run(t.database, { id: userId }, (write) => commands.deleteAccount(write));

/**
 * A leaving member with a prism, hearts and a response elsewhere, and the notifications these
 * made; two other members, one of whom hearted and answered the leaving member's prism.
 */
async function scene() {
  const leaving = await buildUser(t.database);
  const hearted = await buildUser(t.database);
  const answered = await buildUser(t.database);
  const own = await buildPrism(t.database, { userId: leaving.id, heartsCount: 2 });
  const heartedPrism = await buildPrism(t.database, { userId: hearted.id, heartsCount: 2 });
  const answeredPrism = await buildPrism(t.database, { userId: answered.id, heartsCount: 1 });
  const untouched = await buildPrism(t.database, { userId: answered.id, index: 1, heartsCount: 1 });
  // On the leaving member's prism: their own heart and another member's, and a response.
  await buildHeart(t.database, { prismId: own.id, userId: leaving.id });
  await buildHeart(t.database, { prismId: own.id, userId: hearted.id });
  await buildAnnotation(t.database, { prismId: own.id, userId: hearted.id });
  await buildNotification(t.database, {
    userId: leaving.id,
    prismId: own.id,
    actorKey: `user:${hearted.id}`,
  });
  // Elsewhere: a heart (and a visitor's beside it), a response, and the owners' notifications.
  await buildHeart(t.database, { prismId: heartedPrism.id, userId: leaving.id });
  const visitorHeart = await buildHeart(t.database, { prismId: heartedPrism.id });
  await buildNotification(t.database, {
    userId: hearted.id,
    prismId: heartedPrism.id,
    actorKey: `user:${leaving.id}`,
  });
  const response = await buildAnnotation(t.database, {
    prismId: answeredPrism.id,
    userId: leaving.id,
  });
  await buildNotification(t.database, {
    userId: answered.id,
    prismId: answeredPrism.id,
    type: "annotation",
    annotationId: response.id,
    actorKey: null,
  });
  await buildHeart(t.database, { prismId: untouched.id });
  const kept = await buildNotification(t.database, { userId: answered.id, prismId: untouched.id });
  await signIn(t.database, leaving);
  return {
    leaving,
    hearted,
    answered,
    own,
    heartedPrism,
    answeredPrism,
    untouched,
    visitorHeart,
    kept,
  };
}

type Scene = Awaited<ReturnType<typeof scene>>;

/** Everything the scene touches, to compare before and after. */
async function stateOf(s: Scene) {
  const { db } = t.database;
  const prismIds = [s.own.id, s.heartedPrism.id, s.answeredPrism.id, s.untouched.id];
  return {
    users: await db.select().from(users).where(eq(users.id, s.leaving.id)),
    prisms: await db.select().from(prisms).where(inArray(prisms.id, prismIds)).orderBy(prisms.id),
    hearts: await db
      .select()
      .from(prismHearts)
      .where(inArray(prismHearts.prismId, prismIds))
      .orderBy(prismHearts.id),
    annotations: await db
      .select()
      .from(annotations)
      .where(inArray(annotations.prismId, prismIds))
      .orderBy(annotations.id),
    notifications: await db
      .select()
      .from(notifications)
      .where(inArray(notifications.prismId, prismIds))
      .orderBy(notifications.id),
    sessions: await db.select().from(sessions).where(eq(sessions.userId, s.leaving.id)),
  };
}

describe("deleteAccount", () => {
  it("removes the member, their prisms with what hangs on them, their hearts, responses, notifications and sessions", async () => {
    const s = await scene();
    await deleteAccount(s.leaving.id);
    const after = await stateOf(s);
    expect(after.users).toEqual([]);
    expect(after.sessions).toEqual([]);
    expect(after.prisms.map((p) => [p.id, p.heartsCount])).toEqual([
      [s.heartedPrism.id, 1],
      [s.answeredPrism.id, 1],
      [s.untouched.id, 1],
    ]);
    // What stays: the visitor's heart beside the member's, and the untouched prism's.
    expect(after.hearts.map((h) => h.prismId)).toEqual([s.heartedPrism.id, s.untouched.id]);
    expect(after.hearts[0]?.id).toBe(s.visitorHeart.id);
    expect(after.annotations).toEqual([]);
    expect(after.notifications.map((n) => n.id)).toEqual([s.kept.id]);
  });

  it("tells every page that changed: the member's, each other prism they touched, each member who lost a notification", async () => {
    const s = await scene();
    const { events } = await deleteAccount(s.leaving.id);
    const expected: PrismEvent[] = [
      { type: "sessions.ended", userId: s.leaving.id },
      { type: "prisms.changed", username: s.leaving.username },
      { type: "profile.changed", username: s.leaving.username },
      {
        type: "heart.changed",
        prismId: s.heartedPrism.id,
        heartsCount: 1,
        username: s.hearted.username,
      },
      { type: "annotation.changed", prismId: s.heartedPrism.id, username: s.hearted.username },
      {
        type: "heart.changed",
        prismId: s.answeredPrism.id,
        heartsCount: 1,
        username: s.answered.username,
      },
      { type: "annotation.changed", prismId: s.answeredPrism.id, username: s.answered.username },
      { type: "notifications.changed", userId: s.hearted.id },
      { type: "notifications.changed", userId: s.answered.id },
    ];
    const inOrder = (list: PrismEvent[]) => list.map((e) => JSON.stringify(e)).sort();
    expect(inOrder(events)).toEqual(inOrder(expected));
  });

  it("corrects a count the member both hearted and answered once, to what remains", async () => {
    const owner = await buildUser(t.database);
    const leaving = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, heartsCount: 2 });
    await buildHeart(t.database, { prismId: prism.id, userId: leaving.id });
    await buildHeart(t.database, { prismId: prism.id });
    await buildAnnotation(t.database, { prismId: prism.id, userId: leaving.id });
    const { events } = await deleteAccount(leaving.id);
    const [after] = await t.database.db.select().from(prisms).where(eq(prisms.id, prism.id));
    expect(after?.heartsCount).toBe(1);
    expect(events.filter((e) => "prismId" in e && e.prismId === prism.id)).toEqual([
      { type: "heart.changed", prismId: prism.id, heartsCount: 1, username: owner.username },
      { type: "annotation.changed", prismId: prism.id, username: owner.username },
    ]);
  });

  it("answers 404 for a missing account", async () => {
    await expect(deleteAccount(2 ** 31 - 1)).rejects.toMatchObject({
      statusCode: 404,
      message: "Account not found",
    });
  });

  it("changes nothing when the member cannot be deleted: counts and notifications stay as they were", async () => {
    const s = await scene();
    const before = await stateOf(s);
    await refuseWrites(t.database, "users", "delete");
    await expectRefused(deleteAccount(s.leaving.id));
    expect(await stateOf(s)).toEqual(before);
  });
});
