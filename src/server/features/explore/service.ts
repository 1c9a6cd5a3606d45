// The explore page's two lists. Each page is one query (a join, never a query per row).
import { eq, sql } from "drizzle-orm";
import type { ExploreMember } from "../../../contract/explore.ts";
import type { PageQuery } from "../../../contract/paging.ts";
import { photoLimits } from "../../../contract/photos.ts";
import type { Executor } from "../../db/client.ts";
import { type PrismRow, prisms, users } from "../../db/schema.ts";

export interface ExploreUserRow {
  user: ExploreMember;
  firstPrism: Pick<PrismRow, "title" | "content">;
  /** The row's place in the order: a later page may start from it. */
  key: MemberKey;
}

export interface ExplorePrismRow {
  user: ExploreMember;
  prism: Pick<PrismRow, "id" | "title" | "content" | "heartsCount">;
  key: PrismKey;
}

/**
 * The values a list is ordered by, of one row; times as the database writes them, to the
 * microsecond (a JavaScript Date would round them). A member never active has no time.
 */
export interface MemberKey {
  at: string | null;
  id: number;
}
export interface PrismKey {
  hearts: number;
  at: string;
  id: number;
}

/** A row known to be at `position` in the list as it stands: a page past it may start there. */
export interface Anchor<Key> {
  position: number;
  key: Key;
}

/** The columns of a member that explore shows, and no others. */
const member = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  displayName: users.displayName,
  profileImageUrl: sql<string | null>`case when length(${users.profileImageUrl}) <= ${sql.raw(
    String(photoLimits.listedAddressMax),
  )} then ${users.profileImageUrl} end`.as("profile_image_url"),
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
const bounds = (page: PageQuery, from: Anchor<unknown> | undefined) =>
  sql`limit ${sql.raw(String(Math.trunc(page.limit)))} offset ${page.offset - (from?.position ?? 0)}`;

/**
 * Rows at or after the anchor in the members' order. The row comparison is a range of
 * users_explore_idx; it leaves out the never-active members (null) that follow an active anchor,
 * so a page that comes back short from it is read again without the anchor.
 */
function membersFrom(from: Anchor<MemberKey> | undefined) {
  if (!from) return sql`true`;
  const { at, id } = from.key;
  return at === null
    ? sql`${users.lastActiveAt} is null and ${users.id} <= ${id}`
    : sql`(${users.lastActiveAt}, ${users.id}) <= (${at}::timestamptz, ${id})`;
}

function prismsFrom(from: Anchor<PrismKey> | undefined) {
  if (!from) return sql`true`;
  const { hearts, at, id } = from.key;
  return sql`(${prisms.heartsCount}, ${prisms.createdAt}, ${prisms.id}) <= (${hearts}, ${at}::timestamptz, ${id})`;
}

/** The public prism highest on the member's page. */
const firstPublicPrism = sql`(select first.id from ${prisms} first
  where first.user_id = ${users.id} and first.audience = 'public'
  order by first.index limit 1)`;

/**
 * Active, listed members with at least one public prism, most recently active first (never-active last), each
 * with the public prism highest on their page. The page's ids are found first, by an index-only scan
 * of users_explore_idx, so that skipping to a deep page reads index entries and nothing else; only
 * the page's ten rows are then joined. Prism indexes are a dense 0..n-1, so a member with prisms
 * has the one at index 0. From an anchor, the skip starts at the anchor's row, found in the index
 * by its key.
 */
export function exploreUsersQuery(db: Executor, page: PageQuery, from?: Anchor<MemberKey>) {
  const ids = sql`(select ${users.id} from ${users}
    where ${users.deactivatedAt} is null and ${users.hasPrisms} and ${users.listed} and ${membersFrom(from)}
    order by ${memberOrder} ${bounds(page, from)}) as page`;
  return db
    .select({
      user: member,
      firstPrism: { title: prisms.title, content: prisms.content },
      key: { at: sql<string | null>`${users.lastActiveAt}::text`, id: users.id },
    })
    .from(ids)
    .innerJoin(users, sql`${users.id} = page.id`)
    .innerJoin(prisms, eq(prisms.id, firstPublicPrism))
    .orderBy(memberOrder);
}

export async function listExploreUsers(
  db: Executor,
  page: PageQuery,
  from?: Anchor<MemberKey>,
): Promise<ExploreUserRow[]> {
  const rows = await exploreUsersQuery(db, page, from);
  return from && rows.length < page.limit ? exploreUsersQuery(db, page) : rows;
}

/**
 * Public prisms of active, listed members, most hearts first, then newest, each with its author: the page's ids
 * by an index-only scan of prisms_explore_idx (from an anchor, from the anchor's row), then the
 * page's rows.
 */
export function explorePrismsQuery(db: Executor, page: PageQuery, from?: Anchor<PrismKey>) {
  const ids = sql`(select ${prisms.id} from ${prisms}
    where ${prisms.authorActive} and ${prisms.authorListed} and ${prisms.audience} = 'public'
      and ${prismsFrom(from)}
    order by ${prismOrder} ${bounds(page, from)}) as page`;
  const { id, title, content, heartsCount } = prisms;
  return db
    .select({
      user: member,
      prism: { id, title, content, heartsCount },
      key: { hearts: heartsCount, at: sql<string>`${prisms.createdAt}::text`, id },
    })
    .from(ids)
    .innerJoin(prisms, sql`${prisms.id} = page.id`)
    .innerJoin(users, eq(users.id, prisms.userId))
    .orderBy(prismOrder);
}

export async function listExplorePrisms(
  db: Executor,
  page: PageQuery,
  from?: Anchor<PrismKey>,
): Promise<ExplorePrismRow[]> {
  return explorePrismsQuery(db, page, from);
}
