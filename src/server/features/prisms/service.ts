// A member's prisms: listing, writing, ordering, inside the caller's transaction (commands/prisms.ts).
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Audience } from "../../../contract/audiences.ts";
import { limits } from "../../../contract/limits.ts";
import {
  fitsContentLimit,
  type MoveDirection,
  type PrismInput,
  prismMessages,
} from "../../../contract/prisms.ts";
import type { Responders } from "../../../contract/responders.ts";
import type { Db, Executor } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import { type PrismRow, prismHearts, prisms, type UserRow, users } from "../../db/schema.ts";
import { badRequest, conflict, forbidden, notFound } from "../../http-error.ts";
import { canEditPrism, maySeePrism } from "../../policy.ts";
import { keepRevision } from "./revisions.ts";
import { sanitizeContent, sanitizeTitle } from "./sanitize.ts";

export async function listPrisms(db: Db, userId: number): Promise<PrismRow[]> {
  const list = prepared(db, "prism_list", () =>
    db
      .select()
      .from(prisms)
      .where(eq(prisms.userId, sql.placeholder("userId")))
      .orderBy(asc(prisms.index))
      .prepare("prism_list"),
  );
  return list.execute({ userId });
}

/**
 * The prism, if the actor may write it, locked until the transaction ends: 404 when missing, 403
 * when it is someone else's.
 */
/** The member whose prism it is. */
export async function prismOwner(db: Executor, prismId: number): Promise<UserRow> {
  const [row] = await db
    .select({ owner: users })
    .from(prisms)
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(eq(prisms.id, prismId));
  if (!row) throw notFound("Prism not found");
  return row.owner;
}

async function loadOwnPrism(db: Executor, actor: UserRow, prismId: number): Promise<PrismRow> {
  const [prism] = await db
    .select()
    .from(prisms)
    .where(eq(prisms.id, prismId))
    .limit(1)
    .for("update");
  if (!prism || !(await maySeePrism(db, actor, prism))) throw notFound("Prism not found");
  if (!canEditPrism(actor, prism)) throw forbidden("Only the owner can change this prism");
  return prism;
}

/**
 * The title and content as stored. Sanitizing may lengthen content (`<` is stored as `&lt;`, a
 * link gains its rel and target), so the stored form is held to the content limit too.
 */
function clean(input: PrismInput) {
  const title = sanitizeTitle(input.title);
  if (!title) throw badRequest("Title is required", { title: "Title is required" });
  const content = sanitizeContent(input.content);
  if (!fitsContentLimit(content)) {
    throw badRequest(prismMessages.contentTooLong, { content: prismMessages.contentTooLong });
  }
  return { title, content };
}

/** Serialises writes to one member's prisms, so that indexes stay a dense 0..n-1. */
async function lockOwner(tx: Executor, userId: number) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
}

/** Adds a prism at the end of the owner's page. */
export async function createPrism(
  tx: Executor,
  owner: UserRow,
  input: PrismInput,
): Promise<PrismRow> {
  const values = clean(input);
  await lockOwner(tx, owner.id);
  const [{ next = 0 } = {}] = await tx
    .select({ next: sql<number>`coalesce(max(${prisms.index}) + 1, 0)::int` })
    .from(prisms)
    .where(eq(prisms.userId, owner.id));
  // Indexes are a dense 0..n-1, so the next one is the number of prisms the member has.
  if (next >= limits.prismsPerMember) throw conflict(prismMessages.tooMany);
  const [created] = await tx
    .insert(prisms)
    .values({ userId: owner.id, ...values, audience: input.audience ?? "public", index: next })
    .returning();
  if (!created) throw new Error("insert returned no row");
  return created;
}

interface PrismUpdate {
  prism: PrismRow;
  /** False when the title and content were already those: no version was kept. */
  changed: boolean;
  /** The audience it had when it was a new one: who could see it before. */
  audienceBefore?: Audience;
  /** True when a title change cleared the prism's hearts. */
  heartsReset: boolean;
  /** True when the text changed, so that its annotations need anchoring again. */
  contentChanged: boolean;
}

/**
 * Saves a prism, inside the caller's transaction. A save that changes the title or content keeps
 * the version it replaces (see revisions.ts); one that changes neither writes nothing. A new
 * title while it has hearts removes them (a new title may change what was hearted); new content
 * while it has hearts marks it edited after hearts.
 */
export async function updatePrism(
  tx: Executor,
  actor: UserRow,
  prismId: number,
  input: PrismInput,
): Promise<PrismUpdate> {
  if (input.id !== undefined && input.id !== prismId) {
    throw badRequest("The id in the body does not match the path", {
      id: "Does not match the path",
    });
  }
  const values = clean(input);
  const loaded = await loadOwnPrism(tx, actor, prismId);
  const { current, audienceBefore } = await chooseAudience(tx, loaded, input.audience);
  const titleChanged = values.title !== current.title;
  const contentChanged = values.content !== current.content;
  if (!titleChanged && !contentChanged) {
    return {
      prism: current,
      changed: false,
      audienceBefore,
      heartsReset: false,
      contentChanged: false,
    };
  }
  await keepRevision(tx, current);
  const heartsReset = titleChanged && current.heartsCount > 0;
  if (heartsReset) await tx.delete(prismHearts).where(eq(prismHearts.prismId, prismId));
  const [prism] = await tx
    .update(prisms)
    .set({
      ...values,
      revision: current.revision + 1,
      updatedAt: new Date(),
      ...(heartsReset
        ? { heartsCount: 0, editedAfterHearts: false }
        : contentChanged && current.heartsCount > 0
          ? { editedAfterHearts: true }
          : {}),
    })
    .where(eq(prisms.id, prismId))
    .returning();
  if (!prism) throw notFound("Prism not found");
  return { prism, changed: true, audienceBefore, heartsReset, contentChanged };
}

/**
 * Sets who may see the prism, when that changes: no new version (its text stays), and its hearts
 * and responses stay with it, seen by whoever may now see it.
 */
async function chooseAudience(
  tx: Executor,
  current: PrismRow,
  audience: Audience | undefined,
): Promise<{ current: PrismRow; audienceBefore?: Audience }> {
  if (audience === undefined || audience === current.audience) return { current };
  const [changed] = await tx
    .update(prisms)
    .set({ audience })
    .where(eq(prisms.id, current.id))
    .returning();
  if (!changed) throw notFound("Prism not found");
  return { current: changed, audienceBefore: current.audience };
}

/**
 * Deletes a prism whose owner the caller has locked: its hearts, annotations and notifications go
 * with it (cascade) and the prisms below it move up.
 */
async function removePrism(tx: Executor, prism: PrismRow): Promise<void> {
  await tx.delete(prisms).where(eq(prisms.id, prism.id));
  await tx
    .update(prisms)
    .set({ index: sql`${prisms.index} - 1` })
    .where(and(eq(prisms.userId, prism.userId), gt(prisms.index, prism.index)));
}

/** Deletes one of the actor's own prisms. */
export async function deletePrism(tx: Executor, actor: UserRow, prismId: number): Promise<void> {
  await lockOwner(tx, actor.id);
  await removePrism(tx, await loadOwnPrism(tx, actor, prismId));
}

/**
 * Deletes anyone's prism (an admin's call; the route admits admins only), inside the caller's
 * transaction. Returns the prism as it was and its owner.
 */
export async function deleteAnyPrism(
  tx: Executor,
  prismId: number,
): Promise<{ prism: PrismRow; owner: Pick<UserRow, "id" | "username"> }> {
  const [owner] = await tx
    .select({ id: users.id, username: users.username })
    .from(prisms)
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(eq(prisms.id, prismId));
  if (!owner) throw notFound("Prism not found");
  await lockOwner(tx, owner.id);
  // Read again under the lock: the prism may have moved, or gone, meanwhile.
  const [prism] = await tx.select().from(prisms).where(eq(prisms.id, prismId));
  if (!prism) throw notFound("Prism not found");
  await removePrism(tx, prism);
  return { prism, owner };
}

/** The owner chooses who may respond to a prism; annotations already made stay. */
export async function setResponders(
  tx: Executor,
  actor: UserRow,
  prismId: number,
  responders: Responders,
): Promise<PrismRow> {
  await loadOwnPrism(tx, actor, prismId);
  const [changed] = await tx
    .update(prisms)
    .set({ responders })
    .where(eq(prisms.id, prismId))
    .returning();
  if (!changed) throw notFound("Prism not found");
  return changed;
}

/** Swaps a prism with its neighbour above or below; answers both. */
export async function movePrism(
  tx: Executor,
  actor: UserRow,
  prismId: number,
  direction: MoveDirection,
): Promise<{ moved: PrismRow; neighbour: PrismRow }> {
  await lockOwner(tx, actor.id);
  const current = await loadOwnPrism(tx, actor, prismId);
  const target = current.index + (direction === "up" ? -1 : 1);
  const [neighbour] = await tx
    .select()
    .from(prisms)
    .where(and(eq(prisms.userId, current.userId), eq(prisms.index, target)))
    .limit(1);
  if (!neighbour) {
    throw badRequest(
      direction === "up" ? "This prism is already first" : "This prism is already last",
    );
  }
  await tx.update(prisms).set({ index: current.index }).where(eq(prisms.id, neighbour.id));
  const [moved] = await tx
    .update(prisms)
    .set({ index: target })
    .where(eq(prisms.id, current.id))
    .returning();
  if (!moved) throw notFound("Prism not found");
  return { moved, neighbour };
}
