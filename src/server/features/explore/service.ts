// The explore page's two lists. Each page is one query (a join, never a query per row).
import { eq, sql } from "drizzle-orm";
import type { ExploreMember } from "../../../contract/explore.ts";
import type { PageQuery } from "../../../contract/paging.ts";
import { photoLimits } from "../../../contract/photos.ts";
import type { Db } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
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
 * statement takes it for a tenth of the table and joins and sorts everything. The rows skipped
 * are a value (`skip`).
 */
const bounds = (limit: number) =>
  sql`limit ${sql.raw(String(Math.trunc(limit)))} offset ${sql.placeholder("skip")}`;

/**
 * Where a members page starts: at the top, or at a known row, an active member's or a
 * never-active one's (whose key has no time).
 */
type MemberStart = "top" | "active" | "never";

/**
 * Rows at or after the known row (`at`, `id`) in the members' order. The row comparison is a range
 * of users_explore_idx; it leaves out the never-active members (null) that follow an active one,
 * so a page that comes back short from it is read again from the top.
 */
function membersFrom(start: MemberStart) {
  const id = sql.placeholder("id");
  switch (start) {
    case "top":
      return sql`true`;
    case "never":
      return sql`${users.lastActiveAt} is null and ${users.id} <= ${id}`;
    case "active":
      return sql`(${users.lastActiveAt}, ${users.id}) <= (${sql.placeholder("at")}::timestamptz, ${id})`;
  }
}

/** Where a prisms page starts: at the top, or at a known row (`hearts`, `at`, `id`). */
type PrismStart = "top" | "known";

function prismsFrom(start: PrismStart) {
  if (start === "top") return sql`true`;
  return sql`(${prisms.heartsCount}, ${prisms.createdAt}, ${prisms.id}) <= (${sql.placeholder(
    "hearts",
  )}, ${sql.placeholder("at")}::timestamptz, ${sql.placeholder("id")})`;
}

/**
 * A page of a list as one prepared statement per start and size: building the query anew was
 * most of the work of an explore read that memory could not answer (after every change to the
 * list, and on every deep page). `values` are the rows to skip and the known row's key.
 */
export interface ExplorePage<Row> {
  name: string;
  /** The statement, built only when it is first prepared. */
  query(): {
    prepare(name: string): { execute(values: Record<string, unknown>): Promise<Row[]> };
    toSQL(): { sql: string; params: unknown[] };
  };
  values: Record<string, unknown>;
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
function exploreUsersQuery(db: Db, limit: number, start: MemberStart) {
  const ids = sql`(select ${users.id} from ${users}
    where ${users.deactivatedAt} is null and ${users.hasPrisms} and ${users.listed} and ${membersFrom(start)}
    order by ${memberOrder} ${bounds(limit)}) as page`;
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

/** The members page at `page`, from the known row `from` when there is one. */
export function exploreUsersPage(
  db: Db,
  page: PageQuery,
  from?: Anchor<MemberKey>,
): ExplorePage<ExploreUserRow> {
  const start: MemberStart = !from ? "top" : from.key.at === null ? "never" : "active";
  return {
    name: `explore_users_${start}_${page.limit}`,
    query: () => exploreUsersQuery(db, page.limit, start),
    values: { skip: page.offset - (from?.position ?? 0), ...from?.key },
  };
}

function readPage<Row>(db: Db, { name, query, values }: ExplorePage<Row>): Promise<Row[]> {
  return prepared(db, name, () => query().prepare(name)).execute(values);
}

export async function listExploreUsers(
  db: Db,
  page: PageQuery,
  from?: Anchor<MemberKey>,
): Promise<ExploreUserRow[]> {
  const rows = await readPage(db, exploreUsersPage(db, page, from));
  return from && rows.length < page.limit ? readPage(db, exploreUsersPage(db, page)) : rows;
}

/**
 * Public prisms of active, listed members, most hearts first, then newest, each with its author: the page's ids
 * by an index-only scan of prisms_explore_idx (from an anchor, from the anchor's row), then the
 * page's rows.
 */
function explorePrismsQuery(db: Db, limit: number, start: PrismStart) {
  const ids = sql`(select ${prisms.id} from ${prisms}
    where ${prisms.authorActive} and ${prisms.authorListed} and ${prisms.audience} = 'public'
      and ${prismsFrom(start)}
    order by ${prismOrder} ${bounds(limit)}) as page`;
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

/** The prisms page at `page`, from the known row `from` when there is one. */
export function explorePrismsPage(
  db: Db,
  page: PageQuery,
  from?: Anchor<PrismKey>,
): ExplorePage<ExplorePrismRow> {
  const start: PrismStart = from ? "known" : "top";
  return {
    name: `explore_prisms_${start}_${page.limit}`,
    query: () => explorePrismsQuery(db, page.limit, start),
    values: { skip: page.offset - (from?.position ?? 0), ...from?.key },
  };
}

export async function listExplorePrisms(
  db: Db,
  page: PageQuery,
  from?: Anchor<PrismKey>,
): Promise<ExplorePrismRow[]> {
  return readPage(db, explorePrismsPage(db, page, from));
}
