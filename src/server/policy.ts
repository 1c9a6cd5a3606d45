// Who may do what: the one place the server decides, mirrored in what responses tell the page.
import { eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { AnnotationStatus, AuthorStatus } from "../contract/annotations.ts";
import type { Audience } from "../contract/audiences.ts";
import { respondersAdmit } from "../contract/responders.ts";
import type { TeamRole } from "../contract/teams.ts";
import type { Viewer } from "./actors.ts";
import { type Executor, rowsOf } from "./db/client.ts";
import {
  annotations,
  type PrismRow,
  prisms,
  teamMembers,
  type UserRow,
  users,
} from "./db/schema.ts";

type Actor = Pick<UserRow, "id" | "isAdmin"> | null;

type AnnotationFacts = Pick<
  typeof annotations.$inferSelect,
  "status" | "userId" | "visitorHash" | "silenced"
>;

/**
 * Admin-only calls: the Catalyst dashboard's lists and actions, setting any annotation's status,
 * sending a member a reset link, diagnostics in production.
 */
export function canAdminister(actor: Actor): boolean {
  return actor?.isAdmin === true;
}

/**
 * A prism's owner, joined only while their account is active: every read of a prism by its id
 * joins its owner on this, so a deactivated member's prisms answer 404 to reads, hearts and
 * responses, as their page does. Catalyst's moderation reaches them through its own queries.
 */
export const liveOwner: SQL = sql`${users.id} = ${prisms.userId} and ${users.deactivatedAt} is null`;

/**
 * Whether `userId` shares a team with the owner whose id is the SQL `ownerId` (a column or a
 * value). Deactivated members cannot sign in, and a deactivated owner's prisms are read by no one.
 */
function sharesTeamWith(userId: SQL | number, ownerId: SQL | number): SQL {
  return sql`exists (
    select 1 from ${teamMembers} mine
    join ${teamMembers} theirs on theirs.team_id = mine.team_id
    where mine.user_id = ${userId} and theirs.user_id = ${ownerId}
  )`;
}

/**
 * Who may see a prism, as its owner chose: a public prism anyone; a team prism its owner and the
 * signed-in members who share a team with them; a private prism (a draft) its owner alone.
 * Admins see all. Undefined when teams decide it (a team prism, another member).
 */
export function seesPrismAtOnce(
  viewer: Actor,
  prism: { userId: number; audience: Audience },
): boolean | undefined {
  if (prism.audience === "public") return true;
  if (viewer === null) return false;
  if (viewer.id === prism.userId || canAdminister(viewer)) return true;
  return prism.audience === "private" ? false : undefined;
}

/** `canSeePrism`, asking the database whether the viewer and the owner share a team. */
export async function maySeePrism(
  db: Executor,
  viewer: Actor,
  prism: { userId: number; audience: Audience },
): Promise<boolean> {
  const atOnce = seesPrismAtOnce(viewer, prism);
  if (atOnce !== undefined || viewer === null) return atOnce === true;
  const [row] = rowsOf<{ shares: boolean }>(
    await db.execute(sql`select ${sharesTeamWith(viewer.id, prism.userId)} as shares`),
  );
  return row?.shares === true;
}

/**
 * `canSeePrism` as a condition on prisms: every list, count and lookup of prisms by id.
 * `viewerId` is the member's id as the statement writes it: a prepared statement, written once
 * for every viewer of the kind (visitor, member, admin), takes it as one of its values.
 */
export function prismsVisibleTo(viewer: Actor, viewerId?: SQL): SQL {
  if (viewer === null) return sql`${prisms.audience} = 'public'`;
  if (canAdminister(viewer)) return sql`true`;
  const id = viewerId ?? viewer.id;
  return sql`(${prisms.audience} = 'public' or ${prisms.userId} = ${id} or (${prisms.audience} = 'team' and ${sharesTeamWith(id, sql`${prisms.userId}`)}))`;
}

/** The kind of viewer a statement is written for (`prismsVisibleTo`): visitor, member or admin. */
export function viewerKind(viewer: Actor): "visitor" | "member" | "admin" {
  if (viewer === null) return "visitor";
  return canAdminister(viewer) ? "admin" : "member";
}

/**
 * `canSeePrism` of the member whose id is the SQL `userId` (a column) for the prism `prismId` (a
 * column): what may be mailed to a member follows what they may see.
 */
export function memberSeesPrism(userId: SQL, prismId: SQL): SQL {
  return sql`exists (select 1 from ${prisms} seen join ${users} member on member.id = ${userId}
    where seen.id = ${prismId} and (seen.audience = 'public' or seen.user_id = member.id
      or member.is_admin
      or (seen.audience = 'team' and ${sharesTeamWith(sql`member.id`, sql`seen.user_id`)})))`;
}

/**
 * The members (besides admins) who may hear of a change to a prism of `audience` owned by
 * `ownerId` (SQL of a column or value), as an SQL array; null when anyone may (a public prism).
 * The database function `prism_hearers` (migration 0027) holds the rule, planned once per
 * connection rather than with every statement that names it.
 */
export function prismHearersSql(ownerId: SQL, audience: SQL): SQL {
  return sql`prism_hearers(${ownerId}, (${audience})::prism_audience)`;
}

/** Who may hear of a change to each of these prisms (`prismHearersSql`), by id; gone ones absent. */
export async function hearersOfPrisms(
  db: Executor,
  prismIds: readonly number[],
): Promise<Map<number, number[] | null>> {
  if (prismIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: prisms.id,
      hearers: sql<
        number[] | null
      >`${prismHearersSql(sql`${prisms.userId}`, sql`${prisms.audience}`)}`,
    })
    .from(prisms)
    .where(inArray(prisms.id, [...prismIds]));
  return new Map(rows.map((row) => [row.id, row.hearers]));
}

/**
 * Who may hear of a change to a prism of `ownerId` seen by any of these audiences: null when one
 * of them is public.
 */
export async function hearersOfAudiences(
  db: Executor,
  ownerId: number,
  audiences: Audience[],
): Promise<number[] | null> {
  if (audiences.includes("public")) return null;
  const widest = audiences.includes("team") ? "team" : "private";
  const [row] = rowsOf<{ hearers: number[] }>(
    await db.execute(
      sql`select ${prismHearersSql(sql`${ownerId}::int`, sql`${widest}`)} as hearers`,
    ),
  );
  return row?.hearers ?? [ownerId];
}

/** An admin never locks themselves out: no removing their own admin flag, no deactivating themselves. */
export function locksOutSelf(actor: Actor, targetUserId: number): boolean {
  return actor !== null && actor.id === targetUserId;
}

export function canEditPrism(actor: Actor, prism: Pick<PrismRow, "userId">): boolean {
  return actor !== null && actor.id === prism.userId;
}

/** A prism's history is its owner's, and admins'. */
export function canSeeHistory(actor: Actor, prism: Pick<PrismRow, "userId">): boolean {
  return actor !== null && (actor.id === prism.userId || canAdminister(actor));
}

/** Who may respond to a prism, as its owner chose: anyone, signed-in members only, or no one. */
export function canRespondTo(actor: Actor, prism: Pick<PrismRow, "responders">): boolean {
  return respondersAdmit(prism.responders, actor !== null);
}

/** Owners decide on annotations of their prisms; admins may set any status. */
export function canModerateAnnotations(actor: Actor, prism: Pick<PrismRow, "userId">): boolean {
  return actor !== null && (actor.id === prism.userId || canAdminister(actor));
}

/**
 * The review queue's decisions, many at once, are the prism's owner's alone: an admin decides one
 * response at a time, each audited.
 */
export function canReviewInBulk(actor: Actor, prism: Pick<PrismRow, "userId">): boolean {
  return actor !== null && actor.id === prism.userId;
}

/** The member who wrote it, or the browser that wrote it anonymously. */
export function isAnnotationAuthor(
  viewer: Viewer,
  annotation: Pick<AnnotationFacts, "userId" | "visitorHash">,
): boolean {
  if (annotation.userId !== null) return viewer.user?.id === annotation.userId;
  return viewer.visitorHash !== null && annotation.visitorHash === viewer.visitorHash;
}

/**
 * Approved annotations are seen by all; pending and rejected ones by the prism's owner, their
 * author and admins; spam by its author and admins (the owner finds it in their Spam folder
 * alone: it never reaches their page). A silenced member's are seen by them and admins alone,
 * whatever their status (Hypothesis' NIPSA: the author notices nothing).
 */
export function canSeeAnnotation(
  viewer: Viewer,
  annotation: AnnotationFacts,
  prism: Pick<PrismRow, "userId">,
): boolean {
  if (canAdminister(viewer.user) || isAnnotationAuthor(viewer, annotation)) return true;
  if (annotation.silenced) return false;
  return (
    annotation.status === "approved" ||
    (annotation.status !== "spam" && canModerateAnnotations(viewer.user, prism))
  );
}

/**
 * Readers flag published responses they may see; never their own (they may delete or edit
 * nothing there, and a flag of one's own says nothing). The prism's owner may flag too: they
 * cannot take back an approval, and three flags bring a response to the admins.
 */
export function canFlagAnnotation(viewer: Viewer, annotation: AnnotationFacts): boolean {
  return !isAnnotationAuthor(viewer, annotation);
}

/**
 * The status a viewer is shown: spam is shown to its author (to anyone but the prism's owner and
 * admins) as pending, exactly as a response waiting for review, so a spammer learns nothing.
 */
export function shownStatus(
  viewer: Viewer,
  annotation: Pick<AnnotationFacts, "status">,
  prism: Pick<PrismRow, "userId">,
): AnnotationStatus {
  return canModerateAnnotations(viewer.user, prism)
    ? annotation.status
    : statusToAuthor(annotation);
}

/** The status a response's author is shown: spam as pending. */
export function statusToAuthor({ status }: Pick<AnnotationFacts, "status">): AuthorStatus {
  return status === "spam" ? "pending" : status;
}

/**
 * Who may hear that annotations changed: anyone (undefined) when one of them is or was approved,
 * else the prism's owner (unless all of it is spam, which never reaches them) and the members who
 * wrote them (admins hear everything).
 */
export function annotationAudience(
  ownerId: number,
  changed: { statuses: AnnotationFacts["status"][]; userId: number | null }[],
): number[] | undefined {
  if (changed.some((a) => a.statuses.includes("approved"))) return undefined;
  const authors = changed.flatMap((a) => (a.userId === null ? [] : [a.userId]));
  const spamOnly = changed.every((a) => a.statuses.every((status) => status === "spam"));
  return [...new Set([...(spamOnly ? [] : [ownerId]), ...authors])];
}

/** `canSeeAnnotation` as a condition on annotations joined with their prisms. */
export function annotationsVisibleTo(viewer: Viewer): SQL {
  if (canAdminister(viewer.user)) return sql`true`;
  const clauses: SQL[] = [sql`${annotations.status} = 'approved' and not ${annotations.silenced}`];
  if (viewer.user) {
    clauses.push(
      sql`${prisms.userId} = ${viewer.user.id} and ${annotations.status} <> 'spam' and not ${annotations.silenced}`,
      eq(annotations.userId, viewer.user.id),
    );
  }
  if (viewer.visitorHash) clauses.push(eq(annotations.visitorHash, viewer.visitorHash));
  return or(...clauses) ?? sql`false`;
}

/** A team's owners run it: rename it, invite people, remove members, delete it. */
export function canRunTeam(role: TeamRole): boolean {
  return role === "owner";
}

/** Owners remove anyone from their team; a member may remove themselves (leave). */
export function canRemoveTeamMember(
  actor: { id: number; role: TeamRole },
  userId: number,
): boolean {
  return canRunTeam(actor.role) || actor.id === userId;
}
