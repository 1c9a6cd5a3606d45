// Hearts: one per member or anonymous visitor per prism, counted exactly.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db, Executor } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import { prismHearts, prisms, users } from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import type { Participant } from "../../plugins/visitor.ts";

function byParticipant(participant: Participant): SQL {
  return "user" in participant
    ? eq(prismHearts.userId, participant.user.id)
    : eq(prismHearts.visitorHash, participant.visitorHash);
}

/** Statements for the participant's own heart on a prism, by member id or by visitor hash. */
function ownHeart(db: Db, column: typeof prismHearts.userId | typeof prismHearts.visitorHash) {
  return db
    .select({ id: prismHearts.id })
    .from(prismHearts)
    .where(
      and(
        eq(prismHearts.prismId, sql.placeholder("prismId")),
        eq(column, sql.placeholder("participant")),
      ),
    )
    .limit(1)
    .prepare(`heart_by_${column.name}`);
}

function statements(db: Db) {
  return prepared(db, "heart_status", () => ({
    count: db
      .select({ heartsCount: prisms.heartsCount, owner: users.username })
      .from(prisms)
      .innerJoin(users, eq(users.id, prisms.userId))
      .where(eq(prisms.id, sql.placeholder("prismId")))
      .prepare("heart_count"),
    byMember: ownHeart(db, prismHearts.userId),
    byVisitor: ownHeart(db, prismHearts.visitorHash),
  }));
}

/** A prism's heart count, with its owner's username. */
export async function heartCount(
  db: Db,
  prismId: number,
): Promise<{ heartsCount: number; owner: string }> {
  const [prism] = await statements(db).count.execute({ prismId });
  if (!prism) throw notFound("Prism not found");
  return prism;
}

/** Whether the participant hearted the prism. */
export async function hasHearted(
  db: Db,
  prismId: number,
  participant: Participant,
): Promise<boolean> {
  const { byMember, byVisitor } = statements(db);
  const [mine] =
    "user" in participant
      ? await byMember.execute({ prismId, participant: participant.user.id })
      : await byVisitor.execute({ prismId, participant: participant.visitorHash });
  return mine !== undefined;
}

interface HeartFlip {
  hearted: boolean;
  ownerId: number;
  ownerUsername: string;
}

/**
 * Flips the participant's heart on a prism, inside the caller's transaction (the unique indexes
 * make a double heart impossible); the count moves with `countHeart`.
 */
export async function flipHeart(
  tx: Executor,
  prismId: number,
  participant: Participant,
): Promise<HeartFlip> {
  const [prism] = await tx
    .select({ ownerId: prisms.userId, ownerUsername: users.username })
    .from(prisms)
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(eq(prisms.id, prismId));
  if (!prism) throw notFound("Prism not found");
  // Gives the heart, or takes it away if it is there. Neither happens when another toggle of
  // the same heart took it away in between (it was there for the insert, gone for the delete):
  // then this one flips it again, as it would have one after the other. Each round follows a
  // committed change of that heart, so it ends; the count moves once per row changed.
  for (;;) {
    const inserted = await tx
      .insert(prismHearts)
      .values({
        prismId,
        userId: "user" in participant ? participant.user.id : null,
        visitorHash: "user" in participant ? null : participant.visitorHash,
      })
      .onConflictDoNothing()
      .returning({ id: prismHearts.id });
    if (inserted.length > 0) return { hearted: true, ...prism };
    const removed = await tx
      .delete(prismHearts)
      .where(and(eq(prismHearts.prismId, prismId), byParticipant(participant)))
      .returning({ id: prismHearts.id });
    if (removed.length > 0) return { hearted: false, ...prism };
  }
}

/**
 * Moves the prism's count by the flip, inside the caller's transaction. The prism's row stays
 * locked from here to the commit, and every heart on the prism waits for that lock: a caller does
 * this last.
 */
export async function countHeart(tx: Executor, prismId: number, hearted: boolean) {
  const [updated] = await tx
    .update(prisms)
    .set({ heartsCount: sql`${prisms.heartsCount} + ${hearted ? 1 : -1}` })
    .where(eq(prisms.id, prismId))
    .returning({ heartsCount: prisms.heartsCount });
  if (!updated) throw notFound("Prism not found");
  return updated.heartsCount;
}

/**
 * Takes a member's hearts out of the counts of the prisms they hearted (the heart rows go with
 * the member, by cascade). Returns those prisms with their new counts and owners.
 */
export async function uncountHeartsOf(
  tx: Executor,
  userId: number,
): Promise<{ prismId: number; heartsCount: number; ownerId: number }[]> {
  const given = tx
    .select({ prismId: prismHearts.prismId, n: sql<number>`count(*)::int`.as("n") })
    .from(prismHearts)
    .where(eq(prismHearts.userId, userId))
    .groupBy(prismHearts.prismId)
    .as("given");
  return tx
    .update(prisms)
    .set({ heartsCount: sql`greatest(${prisms.heartsCount} - ${given.n}, 0)` })
    .from(given)
    .where(eq(prisms.id, given.prismId))
    .returning({ prismId: prisms.id, heartsCount: prisms.heartsCount, ownerId: prisms.userId });
}
