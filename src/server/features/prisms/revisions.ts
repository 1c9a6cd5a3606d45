// A prism's history: the versions before the current one, kept by each save that changes its
// title or content, bounded per prism; read by its owner and admins.
import { and, asc, count, desc, eq, inArray, notExists } from "drizzle-orm";
import { limits } from "../../../contract/limits.ts";
import type { Revision, RevisionSummary } from "../../../contract/revisions.ts";
import type { Executor } from "../../db/client.ts";
import {
  annotations,
  type PrismRow,
  prismRevisions,
  prisms,
  type UserRow,
} from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import { canSeeHistory } from "../../policy.ts";

/**
 * Keeps the prism's current version before a save replaces it, inside the saving transaction
 * (which holds the prism's row). Past the bound, the oldest versions that no response was made
 * on go.
 */
export async function keepRevision(tx: Executor, current: PrismRow): Promise<void> {
  await tx.insert(prismRevisions).values({
    prismId: current.id,
    number: current.revision,
    title: current.title,
    content: current.content,
    createdAt: current.updatedAt,
  });
  // Fewer saves than the bound cannot have kept more versions than it.
  if (current.revision < limits.revisionsKept) return;
  const [{ kept = 0 } = {}] = await tx
    .select({ kept: count() })
    .from(prismRevisions)
    .where(eq(prismRevisions.prismId, current.id));
  // The current version, about to be saved, is one of those kept.
  const excess = kept + 1 - limits.revisionsKept;
  if (excess <= 0) return;
  const unanswered = tx
    .select({ id: prismRevisions.id })
    .from(prismRevisions)
    .where(
      and(
        eq(prismRevisions.prismId, current.id),
        notExists(
          tx
            .select({ id: annotations.id })
            .from(annotations)
            .where(
              and(
                eq(annotations.prismId, current.id),
                eq(annotations.revision, prismRevisions.number),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(prismRevisions.number))
    .limit(excess);
  await tx.delete(prismRevisions).where(inArray(prismRevisions.id, unanswered));
}

/** The prism, if the actor may read its history; else 404, as if it did not exist. */
async function prismWithHistory(db: Executor, actor: UserRow | null, prismId: number) {
  const [prism] = await db.select().from(prisms).where(eq(prisms.id, prismId));
  if (!prism || !canSeeHistory(actor, prism)) throw notFound("Prism not found");
  return prism;
}

/** The prism's versions, newest first: the current one, then those kept. */
export async function listRevisions(
  db: Executor,
  actor: UserRow | null,
  prismId: number,
): Promise<RevisionSummary[]> {
  const prism = await prismWithHistory(db, actor, prismId);
  const kept = await db
    .select({
      number: prismRevisions.number,
      title: prismRevisions.title,
      createdAt: prismRevisions.createdAt,
    })
    .from(prismRevisions)
    .where(eq(prismRevisions.prismId, prismId))
    .orderBy(desc(prismRevisions.number));
  return [
    {
      number: prism.revision,
      title: prism.title,
      createdAt: prism.updatedAt.toISOString(),
      current: true,
    },
    ...kept.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), current: false })),
  ];
}

/** One version of the prism, the current one or a kept one; 404 when it is not kept. */
export async function getRevision(
  db: Executor,
  actor: UserRow | null,
  prismId: number,
  number: number,
): Promise<Revision> {
  const prism = await prismWithHistory(db, actor, prismId);
  if (number === prism.revision) {
    const { title, content, updatedAt } = prism;
    return { number, title, content, createdAt: updatedAt.toISOString() };
  }
  const [row] = await db
    .select()
    .from(prismRevisions)
    .where(and(eq(prismRevisions.prismId, prismId), eq(prismRevisions.number, number)));
  if (!row) throw notFound("Revision not found");
  return { number, title: row.title, content: row.content, createdAt: row.createdAt.toISOString() };
}
