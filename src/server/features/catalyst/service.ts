// The Catalyst admin dashboard: the overview's numbers and chart, the admin tables (one query a
// page, newest first, with the total), the admins' actions on members, and the audit log.
import { and, desc, eq, gte, ilike, lt, or, type SQL, sql } from "drizzle-orm";
import { alias, type PgColumn, type PgSelect } from "drizzle-orm/pg-core";
import {
  ACTIVITY_DAYS,
  type ActivityDay,
  type CatalystAnnotationsQuery,
  type CatalystListQuery,
  type CatalystStats,
  catalystMessages,
} from "../../../contract/catalyst.ts";
import { FLAGS_FOR_ADMINS } from "../../../contract/flag-messages.ts";
import { mapPage, type Page, type PageQuery } from "../../../contract/paging.ts";
import { type AuditDetails, recordAudit } from "../../audit.ts";
import type { Executor } from "../../db/client.ts";
import { flagCountOf, flagSummaryOf } from "../../db/flag-summary.ts";
import {
  annotations,
  auditLog,
  type ContactMessageRow,
  contactMessages,
  federationReports,
  prismHearts,
  prisms,
  teamMembers,
  teams,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { badRequest, notFound } from "../../http-error.ts";
import { locksOutSelf } from "../../policy.ts";
import { deleteSessionsOf } from "../../security/session-store.ts";

/** The column's time is within the last `days` days (a day being 24 hours). */
const within = (column: PgColumn, days: number) =>
  sql`${column} > now() - make_interval(days => ${days})`;
const countWhere = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
const countAll = (table: typeof prisms | typeof prismHearts | typeof annotations) =>
  sql<number>`(select count(*) from ${table})::int`;

/** The Overview cards, in one statement: one pass over members, and a count of each other table. */
export async function loadStats(db: Executor): Promise<CatalystStats> {
  const [stats] = await db
    .select({
      totalUsers: sql<number>`count(*)::int`,
      newUsersMonth: countWhere(within(users.createdAt, 30)),
      totalPrisms: countAll(prisms),
      totalHearts: countAll(prismHearts),
      totalAnnotations: countAll(annotations),
      activeUsersToday: countWhere(within(users.lastActiveAt, 1)),
      activeUsersWeek: countWhere(within(users.lastActiveAt, 7)),
      newUsersToday: countWhere(within(users.createdAt, 1)),
      newUsersWeek: countWhere(within(users.createdAt, 7)),
    })
    .from(users);
  if (!stats) throw new Error("an aggregate returned no row");
  return stats;
}

/** Rows of `table` made on the day starting at `d.start` (the generated series below). */
const madeThatDay = (
  table: typeof users | typeof prisms | typeof prismHearts | typeof annotations,
) =>
  sql<number>`(select count(*) from ${table} where ${and(
    gte(table.createdAt, sql`d.start`),
    lt(table.createdAt, sql`d.start + interval '1 day'`),
  )})::int`;

/** Sign-ups, prisms, hearts and annotations on each of the last 30 days (UTC), oldest first; one statement. */
export async function loadActivity(db: Executor): Promise<ActivityDay[]> {
  const today = sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;
  const days = sql`generate_series(${today} - make_interval(days => ${ACTIVITY_DAYS - 1}), ${today}, interval '1 day') as d(start)`;
  return db
    .select({
      day: sql<string>`to_char(d.start at time zone 'UTC', 'YYYY-MM-DD')`,
      users: madeThatDay(users),
      prisms: madeThatDay(prisms),
      hearts: madeThatDay(prismHearts),
      annotations: madeThatDay(annotations),
    })
    .from(days)
    .orderBy(sql`d.start`);
}

/** `%text%` for ILIKE, with the pattern characters in the text taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** The search: any of the columns contains the text, ignoring case; no condition when empty. */
function search(q: string | undefined, columns: (PgColumn | SQL)[]): SQL | undefined {
  if (!q) return undefined;
  const pattern = containing(q);
  return or(...columns.map((column) => ilike(column, pattern)));
}

/** The window total each row of a page carries. */
const totalRows = sql<number>`(count(*) over ())::int`;
const countRows = sql<number>`count(*)::int`;

/** The page of the statement's rows, newest first (among rows of one time, the highest id first). */
function newestFirst<S extends PgSelect>(
  statement: S,
  table: { createdAt: PgColumn; id: PgColumn },
  page: PageQuery,
) {
  return statement
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * A page from rows that carry the list's total. A page past the end has no row to carry it, so
 * only then is the total counted separately.
 */
async function pageFrom<T extends { total: number }>(
  rows: T[],
  page: PageQuery,
  count: () => Promise<number>,
): Promise<Page<Omit<T, "total">>> {
  const total = rows[0]?.total ?? (page.offset > 0 ? await count() : 0);
  return { items: rows.map(({ total: _total, ...item }) => item), total };
}

const author = alias(users, "author");
const owner = alias(users, "owner");
type Members = typeof users | typeof author;

const fullNameOf = (table: Members) => sql`${table.firstName} || ' ' || ${table.lastName}`;

/** Members, newest first; `q` searches username, name (full or display) and e-mail. */
export async function listUsers(db: Executor, page: CatalystListQuery): Promise<Page<UserRow>> {
  const where = search(page.q, [users.username, fullNameOf(users), users.displayName, users.email]);
  const statement = db
    .select({ user: users, total: totalRows })
    .from(users)
    .where(where)
    .$dynamic();
  const rows = await newestFirst(statement, users, page);
  return mapPage(await pageFrom(rows, page, () => db.$count(users, where)), (row) => row.user);
}

const personColumns = (table: typeof users) => ({
  id: table.id,
  username: table.username,
  firstName: table.firstName,
  lastName: table.lastName,
  displayName: table.displayName,
});

/** Prisms, newest first, with their authors and how many annotations each has; `q` searches title and author. */
export async function listPrisms(db: Executor, page: CatalystListQuery) {
  const where = search(page.q, [
    prisms.title,
    users.username,
    fullNameOf(users),
    users.displayName,
  ]);
  const statement = db
    .select({
      prism: {
        id: prisms.id,
        title: prisms.title,
        heartsCount: prisms.heartsCount,
        editedAfterHearts: prisms.editedAfterHearts,
        audience: prisms.audience,
        createdAt: prisms.createdAt,
      },
      author: personColumns(users),
      annotationsCount: sql<number>`(select count(*) from ${annotations} where ${annotations.prismId} = ${prisms.id})::int`,
      total: totalRows,
    })
    .from(prisms)
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(where)
    .$dynamic();
  const rows = await newestFirst(statement, prisms, page);
  return pageFrom(rows, page, async () => {
    const [counted] = await db
      .select({ n: countRows })
      .from(prisms)
      .innerJoin(users, eq(users.id, prisms.userId))
      .where(where);
    return counted?.n ?? 0;
  });
}

/** Teams, newest first, with how many members each has; `q` searches name and slug. */
export async function listTeams(db: Executor, page: CatalystListQuery) {
  const where = search(page.q, [teams.name, teams.slug]);
  const statement = db
    .select({
      id: teams.id,
      name: teams.name,
      slug: teams.slug,
      createdAt: teams.createdAt,
      memberCount: sql<number>`(select count(*) from ${teamMembers} member
        where member.team_id = ${teams}.id)::int`,
      total: totalRows,
    })
    .from(teams)
    .where(where)
    .$dynamic();
  const rows = await newestFirst(statement, teams, page);
  return pageFrom(rows, page, () => db.$count(teams, where));
}

/**
 * Annotations, newest first, with their prisms, authors and readers' flags; `q` searches the text
 * and the annotator, `flagged` keeps those FLAGS_FOR_ADMINS different people flagged.
 */
export async function listAnnotations(db: Executor, page: CatalystAnnotationsQuery) {
  const where = and(
    search(page.q, [
      annotations.annotationText,
      annotations.annotatorName,
      author.username,
      fullNameOf(author),
      author.displayName,
    ]),
    page.flagged ? sql`${flagCountOf(annotations.id)} >= ${FLAGS_FOR_ADMINS}` : undefined,
  );
  const statement = db
    .select({
      annotation: {
        id: annotations.id,
        annotationText: annotations.annotationText,
        selectedText: annotations.selectedText,
        annotatorName: annotations.annotatorName,
        status: annotations.status,
        silenced: annotations.silenced,
        createdAt: annotations.createdAt,
      },
      prism: { id: prisms.id, title: prisms.title, ownerUsername: owner.username },
      author,
      flags: flagSummaryOf(annotations.id),
      total: totalRows,
    })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .innerJoin(owner, eq(owner.id, prisms.userId))
    .leftJoin(author, eq(author.id, annotations.userId))
    .where(where)
    .$dynamic();
  const rows = await newestFirst(statement, annotations, page);
  return pageFrom(rows, page, async () => {
    const [counted] = await db
      .select({ n: countRows })
      .from(annotations)
      .leftJoin(author, eq(author.id, annotations.userId))
      .where(where);
    return counted?.n ?? 0;
  });
}

/** The audit log, newest first, with each acting admin's username. */
export async function listAudit(db: Executor, page: PageQuery) {
  const statement = db
    .select({
      entry: auditLog,
      actor: { id: users.id, username: users.username },
      total: totalRows,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .$dynamic();
  const rows = await newestFirst(statement, auditLog, page);
  return mapPage(await pageFrom(rows, page, () => db.$count(auditLog)), ({ entry, actor }) => ({
    entry: { ...entry, details: entry.details as AuditDetails | null },
    actor,
  }));
}

/**
 * Reports from other servers (inbound `Flag`s), open ones first, newest first: who sent each, the
 * member it is about, the prism and response it names (while they are there) and its comment.
 */
export async function listReports(db: Executor, page: PageQuery) {
  const rows = await db
    .select({
      report: federationReports,
      member: { id: users.id, username: users.username },
      prism: { id: prisms.id, title: prisms.title },
      response: { id: annotations.id, text: annotations.annotationText },
      total: totalRows,
    })
    .from(federationReports)
    .innerJoin(users, eq(users.id, federationReports.userId))
    .leftJoin(prisms, eq(prisms.id, federationReports.prismId))
    .leftJoin(annotations, eq(annotations.id, federationReports.annotationId))
    .orderBy(
      sql`${federationReports.dismissedAt} is not null`,
      desc(federationReports.createdAt),
      desc(federationReports.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  return pageFrom(rows, page, () => db.$count(federationReports));
}

/** The messages sent through the contact form, newest first. */
export async function listContactMessages(
  db: Executor,
  page: PageQuery,
): Promise<Page<ContactMessageRow>> {
  const statement = db
    .select({ message: contactMessages, total: totalRows })
    .from(contactMessages)
    .$dynamic();
  const rows = await newestFirst(statement, contactMessages, page);
  return mapPage(
    await pageFrom(rows, page, () => db.$count(contactMessages)),
    (row) => row.message,
  );
}

/** The member, locked for an admin's change; 404 when there is none. */
async function lockUser(tx: Executor, userId: number): Promise<UserRow> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  if (!user) throw notFound(catalystMessages.userNotFound);
  return user;
}

async function updateUser(tx: Executor, userId: number, values: Partial<UserRow>) {
  const [user] = await tx.update(users).set(values).where(eq(users.id, userId)).returning();
  if (!user) throw notFound(catalystMessages.userNotFound);
  return user;
}

const accountState = (user: Pick<UserRow, "deactivatedAt">) => ({
  status: user.deactivatedAt ? "deactivated" : "active",
});

/**
 * Deactivates a member (keeping the time of a first deactivation) or reactivates them, and the
 * audit log records it.
 */
async function setAccountState(
  tx: Executor,
  actor: UserRow,
  userId: number,
  action: "user.deactivate" | "user.reactivate",
): Promise<UserRow> {
  const before = await lockUser(tx, userId);
  const user = await updateUser(tx, userId, {
    deactivatedAt: action === "user.deactivate" ? (before.deactivatedAt ?? new Date()) : null,
  });
  await recordAudit(tx, actor, {
    action,
    targetType: "user",
    targetId: userId,
    target: `@${user.username}`,
    before: accountState(before),
    after: accountState(user),
  });
  return user;
}

/**
 * Grants or revokes a member's admin flag; an admin cannot revoke their own (400). Answers tagged
 * for what an admin may see move on.
 */
export async function setAdminFlag(
  tx: Executor,
  actor: UserRow,
  userId: number,
  isAdmin: boolean,
): Promise<UserRow> {
  if (!isAdmin && locksOutSelf(actor, userId)) throw badRequest(catalystMessages.selfRevoke);
  const before = await lockUser(tx, userId);
  const user = await updateUser(tx, userId, { isAdmin });
  await recordAudit(tx, actor, {
    action: isAdmin ? "user.grant-admin" : "user.revoke-admin",
    targetType: "user",
    targetId: userId,
    target: `@${user.username}`,
    before: { isAdmin: before.isAdmin },
    after: { isAdmin },
  });
  return user;
}

/**
 * Deactivates a member: they cannot sign in, their profile answers 404, every session of theirs
 * ends. Nothing of theirs is deleted. An admin cannot deactivate themselves (400).
 */
export async function deactivateUser(
  tx: Executor,
  actor: UserRow,
  userId: number,
): Promise<UserRow> {
  if (locksOutSelf(actor, userId)) throw badRequest(catalystMessages.selfDeactivate);
  const user = await setAccountState(tx, actor, userId, "user.deactivate");
  await deleteSessionsOf(tx, userId);
  return user;
}

/** Reactivates a member: they may sign in again and their page is back, as it was. */
export async function reactivateUser(
  tx: Executor,
  actor: UserRow,
  userId: number,
): Promise<UserRow> {
  return setAccountState(tx, actor, userId, "user.reactivate");
}

const silenceState = (user: Pick<UserRow, "silencedAt">) => ({
  silenced: user.silencedAt !== null,
});

/**
 * Silences a member (keeping the time of a first silencing) or lets them be heard again: their
 * responses, every one of them, are shown to them and to admins alone while silenced. An admin
 * cannot silence themselves (400). Audited. Answers the member, and each prism whose responses
 * changed with its owner and whether an approved one was among them.
 */
export async function setSilenced(tx: Executor, actor: UserRow, userId: number, silenced: boolean) {
  if (silenced && locksOutSelf(actor, userId)) throw badRequest(catalystMessages.selfSilence);
  const before = await lockUser(tx, userId);
  const user = await updateUser(tx, userId, {
    silencedAt: silenced ? (before.silencedAt ?? new Date()) : null,
  });
  const changed = tx.$with("changed").as(
    tx
      .update(annotations)
      .set({ silenced })
      .where(and(eq(annotations.userId, userId), sql`${annotations.silenced} <> ${silenced}`))
      .returning({ prismId: annotations.prismId, status: annotations.status }),
  );
  const prismsChanged = await tx
    .with(changed)
    .select({
      prismId: changed.prismId,
      ownerId: prisms.userId,
      ownerUsername: users.username,
      approved: sql<boolean>`bool_or(${changed.status} = 'approved')`,
    })
    .from(changed)
    .innerJoin(prisms, eq(prisms.id, changed.prismId))
    .innerJoin(users, eq(users.id, prisms.userId))
    .groupBy(changed.prismId, prisms.userId, users.username);
  await recordAudit(tx, actor, {
    action: silenced ? "user.silence" : "user.unsilence",
    targetType: "user",
    targetId: userId,
    target: `@${user.username}`,
    before: silenceState(before),
    after: silenceState(user),
  });
  return { user, prisms: prismsChanged };
}
