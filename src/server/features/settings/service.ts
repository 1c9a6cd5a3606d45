// A member's own profile settings and the deletion of their account.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { ProfileUpdate } from "../../../contract/user.ts";
import type { Db } from "../../db/client.ts";
import { notifications, prismHearts, prisms, type UserRow, users } from "../../db/schema.ts";
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

/**
 * Removes a member and everything that is theirs in one transaction: their prisms (with those
 * prisms' hearts, annotations and notifications, by cascade), their hearts on other prisms (the
 * counts corrected first), their annotations elsewhere, their notifications and sessions.
 */
export async function deleteAccount(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const given = tx
      .select({ prismId: prismHearts.prismId, n: sql<number>`count(*)::int`.as("n") })
      .from(prismHearts)
      .where(eq(prismHearts.userId, userId))
      .groupBy(prismHearts.prismId)
      .as("given");
    await tx
      .update(prisms)
      .set({ heartsCount: sql`greatest(${prisms.heartsCount} - ${given.n}, 0)` })
      .from(given)
      .where(eq(prisms.id, given.prismId));
    await tx
      .delete(notifications)
      .where(
        and(
          eq(notifications.type, "heart"),
          inArray(notifications.actorKey, [memberActorKey(userId)]),
        ),
      );
    const [deleted] = await tx
      .delete(users)
      .where(eq(users.id, userId))
      .returning({ id: users.id });
    if (!deleted) throw notFound("Account not found");
  });
}
