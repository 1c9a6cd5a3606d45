// Readers' flags on published responses: one per person (a member by id, anyone else by their
// browser's visitor hash), the latest reason and note kept.
import { and, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import type { FlagInput } from "../../../contract/annotations.ts";
import { flagMessages } from "../../../contract/flag-messages.ts";
import type { Participant } from "../../actors.ts";
import type { Executor } from "../../db/client.ts";
import { annotationFlags, annotations, prisms, users } from "../../db/schema.ts";
import { conflict, forbidden, notFound } from "../../http-error.ts";
import { canFlagAnnotation, canSeeAnnotation, liveOwner } from "../../policy.ts";

type FlagRow = typeof annotationFlags.$inferSelect;

/**
 * The participant flags a response they may see (404 otherwise), once it is published (409
 * before), never their own (403); a second flag of theirs replaces their reason and note.
 * `created`: this is their first flag of it; `owner`: the prism's (and the prism), whose Flagged folder it fills.
 */
export async function flagAnnotation(
  tx: Executor,
  participant: Participant,
  annotationId: number,
  input: FlagInput,
): Promise<{
  flag: FlagRow;
  created: boolean;
  owner: { id: number; username: string; prismId: number };
}> {
  const [found] = await tx
    .select({ row: annotations, ownerId: prisms.userId, ownerUsername: users.username })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .innerJoin(users, liveOwner)
    .where(eq(annotations.id, annotationId));
  const viewer = {
    user: "user" in participant ? participant.user : null,
    visitorHash: "visitorHash" in participant ? participant.visitorHash : null,
  };
  if (!found || !canSeeAnnotation(viewer, found.row, { userId: found.ownerId })) {
    throw notFound("Annotation not found");
  }
  if (!canFlagAnnotation(viewer, found.row)) throw forbidden(flagMessages.flagOwn);
  if (found.row.status !== "approved") throw conflict(flagMessages.flagUnpublished);
  const who = viewer.user
    ? { userId: viewer.user.id, target: [annotationFlags.annotationId, annotationFlags.userId] }
    : {
        visitorHash: viewer.visitorHash,
        target: [annotationFlags.annotationId, annotationFlags.visitorHash],
      };
  const { target, ...flagger } = who;
  const [saved] = await tx
    .insert(annotationFlags)
    .values({ annotationId, ...flagger, reason: input.reason, note: input.note || null })
    .onConflictDoUpdate({
      target,
      set: { reason: input.reason, note: input.note || null },
    })
    .returning({ ...getTableColumns(annotationFlags), created: sql<boolean>`xmax = 0` });
  if (!saved) throw new Error("the flag was not saved");
  const { created, ...flag } = saved;
  return {
    flag,
    created,
    owner: { id: found.ownerId, username: found.ownerUsername, prismId: found.row.prismId },
  };
}

/** The owner settles the flags of responses (kept, or taken down): they leave the Flagged folder. */
export async function settleFlags(tx: Executor, annotationIds: number[]): Promise<void> {
  await tx
    .update(annotationFlags)
    .set({ resolvedAt: new Date() })
    .where(
      and(inArray(annotationFlags.annotationId, annotationIds), isNull(annotationFlags.resolvedAt)),
    );
}

/** Those of the responses that have flags the owner has not settled. */
export async function withUnsettledFlags(tx: Executor, annotationIds: number[]) {
  const rows = await tx
    .selectDistinct({ id: annotationFlags.annotationId })
    .from(annotationFlags)
    .where(
      and(inArray(annotationFlags.annotationId, annotationIds), isNull(annotationFlags.resolvedAt)),
    );
  return new Set(rows.map(({ id }) => id));
}
