// A member's own profile settings and the deletion of their account.
import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { ProfileUpdate } from "../../../contract/user.ts";
import type { Db } from "../../db/client.ts";
import {
  annotations,
  notifications,
  prismHearts,
  prisms,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import { assertAvailable, uniqueViolationToConflict } from "../auth/service.ts";
import { memberActorKey } from "../hearts/service.ts";

const orNull = (value: string) => (value === "" ? null : value);

export async function updateProfile(
  db: Db,
  userId: number,
  input: ProfileUpdate,
): Promise<UserRow> {
  await assertAvailable(db, { email: input.email }, userId);
  try {
    const [user] = await db
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        displayName: orNull(input.displayName),
        websiteUrl: orNull(input.websiteUrl),
        twitterUrl: orNull(input.twitterUrl),
        linkedinUrl: orNull(input.linkedinUrl),
      })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw notFound("Account not found");
    return user;
  } catch (error) {
    uniqueViolationToConflict(error);
  }
}

export interface AccountDeletion {
  username: string;
  /** Other members' prisms whose hearts or annotations changed, with their owners. */
  touchedPrisms: { prismId: number; heartsCount: number; username: string }[];
  /** Other members who lose notifications about the deleted member. */
  notifiedUserIds: number[];
}

/**
 * Removes a member and everything that is theirs in one transaction: their prisms (with those
 * prisms' hearts, annotations and notifications, by cascade), their hearts on other prisms (the
 * counts corrected first), their annotations elsewhere, their notifications and sessions.
 * Returns what others' pages need to hear about.
 */
export async function deleteAccount(db: Db, userId: number): Promise<AccountDeletion> {
  return db.transaction(async (tx) => {
    const given = tx
      .select({ prismId: prismHearts.prismId, n: sql<number>`count(*)::int`.as("n") })
      .from(prismHearts)
      .where(eq(prismHearts.userId, userId))
      .groupBy(prismHearts.prismId)
      .as("given");
    const recounted = await tx
      .update(prisms)
      .set({ heartsCount: sql`greatest(${prisms.heartsCount} - ${given.n}, 0)` })
      .from(given)
      .where(eq(prisms.id, given.prismId))
      .returning({ prismId: prisms.id, heartsCount: prisms.heartsCount, ownerId: prisms.userId });
    const annotated = await tx
      .selectDistinct({
        prismId: annotations.prismId,
        ownerId: prisms.userId,
        heartsCount: prisms.heartsCount,
      })
      .from(annotations)
      .innerJoin(prisms, eq(prisms.id, annotations.prismId))
      .where(and(eq(annotations.userId, userId), ne(prisms.userId, userId)));
    const lost = await tx
      .selectDistinct({ userId: notifications.userId })
      .from(notifications)
      .leftJoin(annotations, eq(annotations.id, notifications.annotationId))
      .where(
        and(
          ne(notifications.userId, userId),
          or(eq(notifications.actorKey, memberActorKey(userId)), eq(annotations.userId, userId)),
        ),
      );
    await tx.delete(notifications).where(eq(notifications.actorKey, memberActorKey(userId)));
    const [deleted] = await tx
      .delete(users)
      .where(eq(users.id, userId))
      .returning({ id: users.id, username: users.username });
    if (!deleted) throw notFound("Account not found");

    const touched = new Map<number, { heartsCount: number; ownerId: number }>();
    for (const row of [...annotated, ...recounted]) touched.set(row.prismId, row);
    const ownerIds = [...new Set([...touched.values()].map((row) => row.ownerId))];
    const owners = ownerIds.length
      ? await tx
          .select({ id: users.id, username: users.username })
          .from(users)
          .where(inArray(users.id, ownerIds))
      : [];
    const usernameOf = new Map(owners.map((owner) => [owner.id, owner.username]));
    return {
      username: deleted.username,
      touchedPrisms: [...touched].map(([prismId, row]) => ({
        prismId,
        heartsCount: row.heartsCount,
        username: usernameOf.get(row.ownerId) ?? "",
      })),
      notifiedUserIds: lost.map((row) => row.userId),
    };
  });
}
