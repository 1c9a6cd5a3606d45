// Hearts: one per member or anonymous visitor per prism, counted exactly.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { HeartStatus } from "../../../contract/prisms.ts";
import type { Db, Executor } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import {
  notifications,
  type PrismRow,
  prismHearts,
  prisms,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";

/** Who is hearting: a signed-in member, or an anonymous visitor known by their visitor hash. */
export type HeartActor = { user: UserRow } | { visitorHash: string };

export const memberActorKey = (userId: number) => `user:${userId}`;

/** How a heart notification remembers its actor, so that a re-heart does not notify twice. */
export const actorKey = (actor: HeartActor) =>
  "user" in actor ? memberActorKey(actor.user.id) : `visitor:${actor.visitorHash}`;

export const displayName = (user: Pick<UserRow, "displayName" | "firstName" | "lastName">) =>
  user.displayName?.trim() || `${user.firstName} ${user.lastName}`.trim();

function byActor(actor: HeartActor): SQL | undefined {
  return "user" in actor
    ? eq(prismHearts.userId, actor.user.id)
    : eq(prismHearts.visitorHash, actor.visitorHash);
}

async function loadPrism(db: Executor, prismId: number): Promise<PrismRow> {
  const [prism] = await db.select().from(prisms).where(eq(prisms.id, prismId)).limit(1);
  if (!prism) throw notFound("Prism not found");
  return prism;
}

export async function heartStatus(
  db: Db,
  prismId: number,
  actor: HeartActor,
): Promise<HeartStatus> {
  const statements = prepared(db, "heart_status", () => ({
    count: db
      .select({ heartsCount: prisms.heartsCount })
      .from(prisms)
      .where(eq(prisms.id, sql.placeholder("prismId")))
      .prepare("heart_count"),
    byMember: db
      .select({ id: prismHearts.id })
      .from(prismHearts)
      .where(
        and(
          eq(prismHearts.prismId, sql.placeholder("prismId")),
          eq(prismHearts.userId, sql.placeholder("userId")),
        ),
      )
      .limit(1)
      .prepare("heart_by_member"),
    byVisitor: db
      .select({ id: prismHearts.id })
      .from(prismHearts)
      .where(
        and(
          eq(prismHearts.prismId, sql.placeholder("prismId")),
          eq(prismHearts.visitorHash, sql.placeholder("visitorHash")),
        ),
      )
      .limit(1)
      .prepare("heart_by_visitor"),
  }));
  const [prism] = await statements.count.execute({ prismId });
  if (!prism) throw notFound("Prism not found");
  const [mine] =
    "user" in actor
      ? await statements.byMember.execute({ prismId, userId: actor.user.id })
      : await statements.byVisitor.execute({ prismId, visitorHash: actor.visitorHash });
  return { hearted: mine !== undefined, heartsCount: prism.heartsCount };
}

export interface HeartToggle extends HeartStatus {
  ownerId: number;
  ownerUsername: string;
  /** True when this heart created the owner's first notification about this actor and prism. */
  notified: boolean;
}

/**
 * Flips the actor's heart on a prism and moves the count by one in the same transaction (the
 * unique indexes make a double heart impossible). A heart from anyone but the owner notifies the
 * owner once per actor and prism.
 */
export async function toggleHeart(
  db: Db,
  prismId: number,
  actor: HeartActor,
): Promise<HeartToggle> {
  return db.transaction(async (tx) => {
    const prism = await loadPrism(tx, prismId);
    const inserted = await tx
      .insert(prismHearts)
      .values({
        prismId,
        userId: "user" in actor ? actor.user.id : null,
        visitorHash: "user" in actor ? null : actor.visitorHash,
      })
      .onConflictDoNothing()
      .returning({ id: prismHearts.id });
    const hearted = inserted.length > 0;
    if (!hearted) {
      await tx.delete(prismHearts).where(and(eq(prismHearts.prismId, prismId), byActor(actor)));
    }
    const [updated] = await tx
      .update(prisms)
      .set({ heartsCount: sql`${prisms.heartsCount} + ${hearted ? 1 : -1}` })
      .where(eq(prisms.id, prismId))
      .returning({ heartsCount: prisms.heartsCount });
    const [owner] = await tx
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(eq(users.id, prism.userId));
    if (!updated || !owner) throw notFound("Prism not found");

    let notified = false;
    const isOwner = "user" in actor && actor.user.id === prism.userId;
    if (hearted && !isOwner) {
      const created = await tx
        .insert(notifications)
        .values({
          userId: prism.userId,
          prismId,
          type: "heart",
          actorName: "user" in actor ? displayName(actor.user) : null,
          actorKey: actorKey(actor),
        })
        .onConflictDoNothing()
        .returning({ id: notifications.id });
      notified = created.length > 0;
    }
    return {
      hearted,
      heartsCount: updated.heartsCount,
      ownerId: owner.id,
      ownerUsername: owner.username,
      notified,
    };
  });
}
