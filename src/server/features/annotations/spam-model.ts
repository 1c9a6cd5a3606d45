// Each owner's content classifier as Prism keeps it (`spam_models`), taught inside the
// transaction of each decision the owner takes on responses to their prisms: approving, putting
// back from spam or keeping a flagged response teaches "ham"; setting aside as spam or taking
// down teaches "spam"; rejecting teaches nothing (a rejected response may be genuine). Only the
// owner's own decisions teach it: an admin's never do. Each response teaches once; a decision
// taken back (spam, then not spam) unteaches what it taught.
import { eq, inArray, sql } from "drizzle-orm";
import type { ReviewAction } from "../../../contract/annotations.ts";
import type { Executor } from "../../db/client.ts";
import { annotations, type SpamModel, spamModels } from "../../db/schema.ts";
import {
  emptyModel,
  hasLearntEnough,
  type Lesson,
  learn,
  looksLikeSpam,
  SPAM_LEANING,
  spamLeaning,
} from "./classifier.ts";

/** What each review action teaches; a rejection, nothing. */
export const lessonOfAction: Record<ReviewAction, Lesson | null> = {
  approve: "ham",
  "not-spam": "ham",
  keep: "ham",
  spam: "spam",
  "take-down": "spam",
  reject: null,
};

/** The owner's model as it stands (an empty one before their first lesson). */
export async function ownerModel(db: Executor, ownerId: number): Promise<SpamModel> {
  const [row] = await db
    .select({ model: spamModels.model })
    .from(spamModels)
    .where(eq(spamModels.ownerId, ownerId));
  return row?.model ?? emptyModel();
}

/** The owner's model, locked until the transaction ends (made, empty, on their first lesson). */
async function lockedModel(tx: Executor, ownerId: number): Promise<SpamModel> {
  await tx
    .insert(spamModels)
    .values({ ownerId, model: emptyModel() })
    .onConflictDoNothing({ target: spamModels.ownerId });
  const [row] = await tx
    .select({ model: spamModels.model })
    .from(spamModels)
    .where(eq(spamModels.ownerId, ownerId))
    .for("update");
  return row?.model ?? emptyModel();
}

/**
 * Teaches each owner's model `lesson` from the responses `decider` decided on their own prisms,
 * inside the decision's transaction. Responses on others' prisms (an admin's decisions) teach
 * nothing, nor do those that taught this lesson already.
 */
export async function teachOwners(
  tx: Executor,
  deciderId: number,
  lesson: Lesson | null,
  decided: { row: typeof annotations.$inferSelect; prismOwnerId: number }[],
): Promise<void> {
  if (lesson === null) return;
  const taught = decided.filter(
    ({ row, prismOwnerId }) => prismOwnerId === deciderId && row.spamLesson !== lesson,
  );
  if (taught.length === 0) return;
  const model = await lockedModel(tx, deciderId);
  for (const { row } of taught) {
    if (row.spamLesson) learn(model, row.annotationText, row.spamLesson, -1);
    learn(model, row.annotationText, lesson);
  }
  await tx
    .update(spamModels)
    .set({ model, updatedAt: sql`now()` })
    .where(eq(spamModels.ownerId, deciderId));
  await tx
    .update(annotations)
    .set({ spamLesson: lesson })
    .where(
      inArray(
        annotations.id,
        taught.map(({ row }) => row.id),
      ),
    );
}

/**
 * What the owner's model makes of a new response's text: "spam" or "ham" when it leans that way
 * as far as it takes to call it spam, null when it leans neither way or has not learnt enough of
 * each kind to be listened to.
 */
export async function ownerVerdict(
  db: Executor,
  ownerId: number,
  text: string,
): Promise<Lesson | null> {
  const model = await ownerModel(db, ownerId);
  if (!hasLearntEnough(model)) return null;
  if (looksLikeSpam(model, text)) return "spam";
  return spamLeaning(model, text) <= -SPAM_LEANING ? "ham" : null;
}
