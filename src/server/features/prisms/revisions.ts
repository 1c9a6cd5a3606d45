// A prism's history: the versions before the current one, kept by each save that changes its
// title or content, bounded per prism and in bytes per member; read by its owner and admins.
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
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
 * Whether someone other than the prism's owner (`ownerId`: another member, or a visitor) made a
 * response on a kept version: such versions are counted apart, and kept longer.
 */
const answered = (tx: Executor, ownerId: number) =>
  sql<boolean>`exists (${tx
    .select({ id: annotations.id })
    .from(annotations)
    .where(
      and(
        eq(annotations.prismId, prismRevisions.prismId),
        eq(annotations.revision, prismRevisions.number),
        sql`${annotations.userId} is distinct from ${ownerId}`,
      ),
    )})`;

/** The bytes (UTF-8) of a kept version: its title and content. */
const bytes = sql<number>`octet_length(${prismRevisions.title}) + octet_length(${prismRevisions.content})`;

/**
 * Keeps the prism's current version before a save replaces it, inside the saving transaction
 * (which holds the prism's row). Past the prism's bounds its oldest versions go, those another
 * person responded to counted apart (the owner's own responses keep nothing); past the member's
 * bytes the oldest of all their versions go, whatever was made on them. A response whose version
 * went still shows the words it answered, which it keeps itself.
 */
export async function keepRevision(tx: Executor, current: PrismRow): Promise<void> {
  await tx.insert(prismRevisions).values({
    prismId: current.id,
    number: current.revision,
    title: current.title,
    content: current.content,
    createdAt: current.updatedAt,
  });
  await keepVersionsBound(tx, current);
  await keepBytesBound(tx, current.userId);
}

/**
 * At most `revisionsKept` versions of the prism that no other person responded to, its current
 * one included, and `answeredRevisionsKept` that someone did: past each, its oldest go.
 */
async function keepVersionsBound(tx: Executor, current: PrismRow): Promise<void> {
  // Fewer saves than the bound cannot have kept more versions than it.
  if (current.revision < limits.revisionsKept) return;
  // The current version, about to be saved, is one of those no one else responded to.
  await tx.execute(sql`
    delete from ${prismRevisions} where id in (
      select id from (
        select id, answered,
          row_number() over (partition by answered order by number desc) as rank
        from (
          select ${prismRevisions.id} as id, ${prismRevisions.number} as number,
            ${answered(tx, current.userId)} as answered
          from ${prismRevisions} where ${prismRevisions.prismId} = ${current.id}
        ) versions
      ) ranked
      where rank > case when answered then ${limits.answeredRevisionsKept}::int
                        else ${limits.revisionsKept - 1}::int end)`);
}

/** At most `revisionBytesPerMember` bytes of versions over all the member's prisms, oldest going first. */
async function keepBytesBound(tx: Executor, ownerId: number): Promise<void> {
  const ofOwner = eq(prisms.userId, ownerId);
  const [{ total = 0 } = {}] = await tx
    .select({ total: sql<number>`coalesce(sum(${bytes}), 0)::float8` })
    .from(prismRevisions)
    .innerJoin(prisms, eq(prisms.id, prismRevisions.prismId))
    .where(ofOwner);
  if (total <= limits.revisionBytesPerMember) return;
  // Each version with the bytes of those newer than it and its own.
  const ranked = tx
    .select({
      id: prismRevisions.id,
      upTo: sql<number>`sum(${bytes}) over (order by ${prismRevisions.id} desc)`.as("up_to"),
    })
    .from(prismRevisions)
    .innerJoin(prisms, eq(prisms.id, prismRevisions.prismId))
    .where(ofOwner)
    .as("ranked");
  const over = tx
    .select({ id: ranked.id })
    .from(ranked)
    .where(gt(ranked.upTo, limits.revisionBytesPerMember));
  await tx.delete(prismRevisions).where(inArray(prismRevisions.id, over));
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
