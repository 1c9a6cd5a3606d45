// The explore page's two lists. Each page is one query (a join, never a query per row).
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { PageQuery } from "../../../contract/paging.ts";
import type { Executor } from "../../db/client.ts";
import { type PrismRow, prisms, type UserRow, users } from "../../db/schema.ts";

export interface ExploreUserRow {
  user: UserRow;
  firstPrism: Pick<PrismRow, "title" | "content">;
}

export interface ExplorePrismRow {
  user: UserRow;
  prism: Pick<PrismRow, "id" | "title" | "content" | "heartsCount">;
}

/**
 * Active members with at least one prism, most recently active first (never-active last), each
 * with the prism at the top of their page. Prism indexes are a dense 0..n-1, so index 0 exists
 * exactly when the member has a prism.
 */
export async function listExploreUsers(
  db: Executor,
  { limit, offset }: PageQuery,
): Promise<ExploreUserRow[]> {
  return db
    .select({
      user: users,
      firstPrism: { title: prisms.title, content: prisms.content },
    })
    .from(users)
    .innerJoin(prisms, and(eq(prisms.userId, users.id), eq(prisms.index, 0)))
    .where(isNull(users.deactivatedAt))
    .orderBy(sql`${users.lastActiveAt} desc nulls last`, desc(users.id))
    .limit(limit)
    .offset(offset);
}

/** Prisms of active members, most hearts first, then newest, each with its author. */
export async function listExplorePrisms(
  db: Executor,
  { limit, offset }: PageQuery,
): Promise<ExplorePrismRow[]> {
  return db
    .select({
      user: users,
      prism: {
        id: prisms.id,
        title: prisms.title,
        content: prisms.content,
        heartsCount: prisms.heartsCount,
      },
    })
    .from(prisms)
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(isNull(users.deactivatedAt))
    .orderBy(desc(prisms.heartsCount), desc(prisms.createdAt), desc(prisms.id))
    .limit(limit)
    .offset(offset);
}
