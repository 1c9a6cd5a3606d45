// The explore page's two lists. Each page is one query (a join, never a query per row).
import { and, eq, sql } from "drizzle-orm";
import type { ExploreMember } from "../../../contract/explore.ts";
import type { PageQuery } from "../../../contract/paging.ts";
import type { Executor } from "../../db/client.ts";
import { type PrismRow, prisms, users } from "../../db/schema.ts";

interface ExploreUserRow {
  user: ExploreMember;
  firstPrism: Pick<PrismRow, "title" | "content">;
}

interface ExplorePrismRow {
  user: ExploreMember;
  prism: Pick<PrismRow, "id" | "title" | "content" | "heartsCount">;
}

/** The columns of a member that explore shows, and no others. */
const member = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  displayName: users.displayName,
};

// The orders spelled as the explore indexes are (users_explore_idx, prisms_explore_idx), so that
// PostgreSQL reads a page straight off the index.
const memberOrder = sql`${users.lastActiveAt} desc nulls last, ${users.id} desc nulls last`;
const prismOrder = sql`${prisms.heartsCount} desc nulls last, ${prisms.createdAt} desc nulls last, ${prisms.id} desc nulls last`;

/**
 * A page's bounds. The size is written as a literal (a validated integer up to the page-size
 * limit, so a few statements in all): as a parameter, PostgreSQL's generic plan of a prepared
 * statement takes it for a tenth of the table and joins and sorts everything. The offset stays a
 * parameter.
 */
const bounds = (page: PageQuery) =>
  sql`limit ${sql.raw(String(Math.trunc(page.limit)))} offset ${page.offset}`;

/**
 * Active members with at least one prism, most recently active first (never-active last), each
 * with the prism at the top of their page. The page's ids are found first, by an index-only scan
 * of users_explore_idx, so that skipping to a deep page reads index entries and nothing else; only
 * the page's ten rows are then joined. Prism indexes are a dense 0..n-1, so a member with prisms
 * has the one at index 0.
 */
export function exploreUsersQuery(db: Executor, page: PageQuery) {
  const ids = sql`(select ${users.id} from ${users}
    where ${users.deactivatedAt} is null and ${users.hasPrisms}
    order by ${memberOrder} ${bounds(page)}) as page`;
  return db
    .select({ user: member, firstPrism: { title: prisms.title, content: prisms.content } })
    .from(ids)
    .innerJoin(users, sql`${users.id} = page.id`)
    .innerJoin(prisms, and(eq(prisms.userId, users.id), eq(prisms.index, 0)))
    .orderBy(memberOrder);
}

export async function listExploreUsers(db: Executor, page: PageQuery): Promise<ExploreUserRow[]> {
  return exploreUsersQuery(db, page);
}

/**
 * Prisms of active members, most hearts first, then newest, each with its author: the page's ids
 * by an index-only scan of prisms_explore_idx, then the page's rows.
 */
export function explorePrismsQuery(db: Executor, page: PageQuery) {
  const ids = sql`(select ${prisms.id} from ${prisms} where ${prisms.authorActive}
    order by ${prismOrder} ${bounds(page)}) as page`;
  const { id, title, content, heartsCount } = prisms;
  return db
    .select({ user: member, prism: { id, title, content, heartsCount } })
    .from(ids)
    .innerJoin(prisms, sql`${prisms.id} = page.id`)
    .innerJoin(users, eq(users.id, prisms.userId))
    .orderBy(prismOrder);
}

export async function listExplorePrisms(db: Executor, page: PageQuery): Promise<ExplorePrismRow[]> {
  return explorePrismsQuery(db, page);
}
