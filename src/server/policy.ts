// Who may do what: the one place the server decides, mirrored in what responses tell the page.
import { eq, or, type SQL, sql } from "drizzle-orm";
import type { AnnotationStatus, AuthorStatus } from "../contract/annotations.ts";
import { respondersAdmit } from "../contract/responders.ts";
import type { TeamRole } from "../contract/teams.ts";
import type { Viewer } from "./actors.ts";
import { annotations, type PrismRow, prisms, type UserRow, users } from "./db/schema.ts";

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
