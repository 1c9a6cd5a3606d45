// Who acts and who looks: the actors policy.ts rules on, whichever way a request names them.
import type { UserRow } from "./db/schema.ts";

/** Who is acting: a signed-in member, or an anonymous visitor known by their visitor hash. */
export type Participant = { user: UserRow } | { visitorHash: string };

/** Who is looking: a member, or an anonymous browser known by its visitor hash (if it has one). */
export interface Viewer {
  user: UserRow | null;
  visitorHash: string | null;
}

/** A member's key as a participant (see `participantKey`). */
export const userKey = (userId: number) => `user:${userId}`;

/**
 * Who a participant is, as one string: a heart notification stores it (so that a re-heart does
 * not notify twice), and memory keeps their own hearts under it.
 */
export function participantKey(participant: Participant): string {
  return "user" in participant
    ? userKey(participant.user.id)
    : `visitor:${participant.visitorHash}`;
}
