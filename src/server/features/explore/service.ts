// The explore page's two lists. Each page is one query (a join, never a query per row).
import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import type { PageQuery } from "../../../contract/paging.ts";
import type { Executor } from "../../db/client.ts";
import { type PrismRow, prisms, type UserRow, users } from "../../db/schema.ts";

interface ExploreUserRow {
  user: UserRow;
  firstPrism: Pick<PrismRow, "title" | "content">;
}

interface ExplorePrismRow {
  user: UserRow;
  prism: Pick<PrismRow, "id" | "title" | "content" | "heartsCount">;
}

/** One page of a list of active members' rows, in the given order. */
function activeMembersPage<T extends PgSelect>(query: T, order: SQL[], page: PageQuery) {
  return query
    .where(isNull(users.deactivatedAt))
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * Active members with at least one prism, most recently active first (never-active last), each
 * with the prism at the top of their page. Prism indexes are a dense 0..n-1, so index 0 exists
 * exactly when the member has a prism.
 */
export async function listExploreUsers(db: Executor, page: PageQuery): Promise<ExploreUserRow[]> {
  const query = db
    .select({ user: users, firstPrism: { title: prisms.title, content: prisms.content } })
    .from(users)
    .innerJoin(prisms, and(eq(prisms.userId, users.id), eq(prisms.index, 0)))
    .$dynamic();
  return activeMembersPage(
    query,
    [sql`${users.lastActiveAt} desc nulls last`, desc(users.id)],
    page,
  );
}

/** Prisms of active members, most hearts first, then newest, each with its author. */
export async function listExplorePrisms(db: Executor, page: PageQuery): Promise<ExplorePrismRow[]> {
  const { id, title, content, heartsCount } = prisms;
  const query = db
    .select({ user: users, prism: { id, title, content, heartsCount } })
    .from(prisms)
    .innerJoin(users, eq(users.id, prisms.userId))
    .$dynamic();
  return activeMembersPage(
    query,
    [desc(prisms.heartsCount), desc(prisms.createdAt), desc(prisms.id)],
    page,
  );
}
