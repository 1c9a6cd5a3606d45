// A member's own profile settings.
import { eq } from "drizzle-orm";
import { type ProfileUpdate, profileMessages } from "../../../contract/user.ts";
import type { Db } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema.ts";
import { badRequest, notFound } from "../../http-error.ts";
import { assertAvailable, writeMember } from "../users/service.ts";

const orNull = (value: string) => (value === "" ? null : value);

export async function updateProfile(
  db: Db,
  userId: number,
  input: ProfileUpdate,
): Promise<UserRow> {
  await assertAvailable(db, { email: input.email }, userId);
  const user = await writeMember(
    db
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        displayName: orNull(input.displayName),
        websiteUrl: orNull(input.websiteUrl),
        twitterUrl: orNull(input.twitterUrl),
        linkedinUrl: orNull(input.linkedinUrl),
        preapproveMembers: input.preapproveMembers,
      })
      .where(eq(users.id, userId))
      .returning(),
  );
  if (!user) throw notFound("Account not found");
  return user;
}

/** Disconnects Google; only a member who can still sign in with a password may. */
export async function disconnectGoogle(db: Db, user: UserRow): Promise<UserRow> {
  if (user.password === null) throw badRequest(profileMessages.googleOnly);
  const [updated] = await db
    .update(users)
    .set({ googleId: null })
    .where(eq(users.id, user.id))
    .returning();
  if (!updated) throw notFound("Account not found");
  return updated;
}
