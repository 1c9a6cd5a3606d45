// Members' profile photos in the database: keeping one (and pointing the member's
// `profileImageUrl` at its address), removing it, and reading the bytes an address names.
import { and, eq, isNull } from "drizzle-orm";
import { photoPath } from "../../../contract/photos.ts";
import type { Executor } from "../../db/client.ts";
import { sameIgnoringCase } from "../../db/ignoring-case.ts";
import { type UserRow, userPhotos, users } from "../../db/schema.ts";
import type { MadePhoto } from "./image.ts";

async function pointAt(db: Executor, userId: number, url: string | null): Promise<UserRow> {
  const [user] = await db
    .update(users)
    .set({ profileImageUrl: url })
    .where(eq(users.id, userId))
    .returning();
  if (!user) throw new Error("the member is gone");
  return user;
}

/** Keeps `photo` as the member's, in place of any before it (or of Google's picture). */
export async function savePhoto(db: Executor, userId: number, photo: MadePhoto): Promise<UserRow> {
  const kept = { version: photo.version, large: photo.large, small: photo.small };
  await db
    .insert(userPhotos)
    .values({ userId, ...kept })
    .onConflictDoUpdate({ target: userPhotos.userId, set: { ...kept, createdAt: new Date() } });
  const [owner] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  if (!owner) throw new Error("the member is gone");
  return pointAt(db, userId, photoPath(owner.username, photo.version));
}

/** The member has no photo any more: neither Prism's nor Google's picture; initials stand. */
export async function removePhoto(db: Executor, userId: number): Promise<UserRow> {
  await db.delete(userPhotos).where(eq(userPhotos.userId, userId));
  return pointAt(db, userId, null);
}

/** An active member's photo: its version and one of its images; null when they have none. */
export async function readPhoto(
  db: Executor,
  username: string,
  small: boolean,
): Promise<{ username: string; version: string; image: Buffer } | null> {
  const [found] = await db
    .select({
      username: users.username,
      version: userPhotos.version,
      image: small ? userPhotos.small : userPhotos.large,
    })
    .from(userPhotos)
    .innerJoin(users, eq(users.id, userPhotos.userId))
    .where(and(sameIgnoringCase(users.username, username), isNull(users.deactivatedAt)))
    .limit(1);
  return found ?? null;
}
