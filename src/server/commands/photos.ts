// A member's profile photo: choosing one and removing it. Each changes what their page, explore
// and their own header show, so each announces the profile's change once committed.
import type { UserRow } from "../db/schema.ts";
import { makePhoto } from "../features/photos/image.ts";
import { removePhoto as forgetPhoto, savePhoto } from "../features/photos/service.ts";
import { commit, type WriteContext } from "./write.ts";

/**
 * The member's upload becomes their photo: made into its images first (outside the transaction:
 * it is the slow part), then kept. 400 when the bytes are not an image.
 */
export async function uploadPhoto(write: WriteContext, upload: Buffer): Promise<UserRow> {
  const photo = await makePhoto(upload);
  return commit(write, async (tx, record) => {
    const user = await savePhoto(tx, write.actor.id, photo);
    record({ type: "profile.changed", username: user.username });
    return user;
  });
}

/** The member removes their photo (or Google's picture): their initials show instead. */
export function removePhoto(write: WriteContext): Promise<UserRow> {
  return commit(write, async (tx, record) => {
    const user = await forgetPhoto(tx, write.actor.id);
    record({ type: "profile.changed", username: user.username });
    return user;
  });
}
