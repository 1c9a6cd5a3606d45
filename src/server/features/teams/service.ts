// Teams: creating and finding them by slug (whatever its case), who belongs and as what, invite
// links (only their SHA-256 is kept), joining by one, and leaving or being removed. A team always
// has an owner; a deactivated member counts as no member while deactivated.
import {
  aliasedTable,
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  lt,
  ne,
  sql,
} from "drizzle-orm";
import { limits } from "../../../contract/limits.ts";
import { type TeamRole, teamMessages, teamSlugBase } from "../../../contract/teams.ts";
import type { Executor } from "../../db/client.ts";
import { sameIgnoringCase } from "../../db/ignoring-case.ts";
import {
  annotations,
  prisms,
  type TeamInviteRow,
  type TeamRow,
  teamInvites,
  teamMembers,
  teams,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { conflict, forbidden, HttpError, notFound } from "../../http-error.ts";
import { canRemoveTeamMember, canRunTeam, prismsVisibleTo } from "../../policy.ts";
import { hashToken, newToken } from "../../security/tokens.ts";

/** A team and the part in it of the member asking. */
export interface Membership {
  team: TeamRow;
  role: TeamRole;
}

/** Team members who count: their accounts are not deactivated. */
const activeMember = sql`${users.id} = ${teamMembers.userId} and ${users.deactivatedAt} is null`;

/** How many members a team has, for lists of teams. */
const memberCount = sql<number>`(
  select count(*)::int from ${teamMembers} inner join ${users} on ${activeMember}
  where ${teamMembers.teamId} = ${teams.id})`;

/** How many times a new team looks again for a free slug that teams made meanwhile took. */
const SLUG_TRIES = 5;

/** Slugs taken by other teams that `base` or `base-N` would collide with. */
async function takenSlugs(tx: Executor, base: string): Promise<Set<string>> {
  const rows = await tx
    .select({ slug: teams.slug })
    .from(teams)
    .where(sql`lower(${teams.slug}) = ${base} or lower(${teams.slug}) like ${`${base}-%`}`);
  return new Set(rows.map((row) => row.slug.toLowerCase()));
}

/** The first of `base`, `base-2`, `base-3`, … that no team has. */
function freeSlug(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * A new team named `name`, with its creator as its owner. Its slug is made from the name, with
 * the first free suffix when another team has it; a team made at the same moment with the same
 * slug makes this one take the next.
 */
export async function createTeam(tx: Executor, ownerId: number, name: string): Promise<TeamRow> {
  const base = teamSlugBase(name);
  for (let tries = 0; tries < SLUG_TRIES; tries += 1) {
    const slug = freeSlug(base, await takenSlugs(tx, base));
    const [team] = await tx.insert(teams).values({ name, slug }).onConflictDoNothing().returning();
    if (team) {
      await tx.insert(teamMembers).values({ teamId: team.id, userId: ownerId, role: "owner" });
      return team;
    }
  }
  throw conflict(teamMessages.busy);
}

/** The team of this slug (any case) with the member's role in it; null when they are not in it. */
export async function findMembership(
  db: Executor,
  slug: string,
  userId: number,
): Promise<Membership | null> {
  const [row] = await db
    .select({ team: teams, role: teamMembers.role })
    .from(teams)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)))
    .where(sql`lower(${teams.slug}) = ${slug.toLowerCase()}`);
  return row ?? null;
}

/** The member's membership of the team of this slug: 404 to anyone else, as for no team. */
export async function requireMembership(
  db: Executor,
  slug: string,
  userId: number,
): Promise<Membership> {
  const membership = await findMembership(db, slug, userId);
  if (!membership) throw notFound(teamMessages.notFound);
  return membership;
}

/** As `requireMembership`, and a 403 for a member who is not one of its owners. */
export async function requireOwner(db: Executor, slug: string, userId: number) {
  const membership = await requireMembership(db, slug, userId);
  if (!canRunTeam(membership.role)) throw forbidden(teamMessages.ownersOnly);
  return membership;
}

/** The team of this id; 404 when there is none. */
export async function teamById(db: Executor, teamId: number): Promise<TeamRow> {
  const [team] = await db.select().from(teams).where(eq(teams.id, teamId));
  if (!team) throw notFound(teamMessages.notFound);
  return team;
}

/** The team's members, owners first, then in the order they joined. */
export function teamMembersOf(db: Executor, teamId: number) {
  return db
    .select({
      userId: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      displayName: users.displayName,
      role: teamMembers.role,
      joinedAt: teamMembers.joinedAt,
      lastSeenAt: teamMembers.lastSeenAt,
    })
    .from(teamMembers)
    .innerJoin(users, activeMember)
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(sql`${teamMembers.role} = 'owner' desc`, asc(teamMembers.joinedAt), asc(users.id));
}
export type TeamMemberRow = Awaited<ReturnType<typeof teamMembersOf>>[number];

/**
 * The prisms of these members that the viewer may read (as a member, whatever their role on the
 * site), each member's in their page's order.
 */
export function prismsReadableBy(db: Executor, viewerId: number, authorIds: number[]) {
  if (authorIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: prisms.id,
      title: prisms.title,
      userId: prisms.userId,
      updatedAt: prisms.updatedAt,
    })
    .from(prisms)
    .where(
      and(
        inArray(prisms.userId, authorIds),
        eq(prisms.authorActive, true),
        prismsVisibleTo({ id: viewerId, isAdmin: false }),
      ),
    )
    .orderBy(asc(prisms.userId), asc(prisms.index));
}
export type ReadablePrismRow = Awaited<ReturnType<typeof prismsReadableBy>>[number];

/** How many responses to the member's prisms wait for their review (as their queue shows). */
export async function waitingCountOf(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .where(
      and(
        eq(prisms.userId, userId),
        eq(annotations.status, "pending"),
        eq(annotations.silenced, false),
      ),
    );
  return row?.n ?? 0;
}

/**
 * The team of this slug as the member sees it: its members, each with the prisms the member may
 * read, those a teammate changed since the member last looked (or, before they first looked,
 * since they joined) marked new; and the member's own count of responses waiting for them,
 * shown to nobody else. 404 to anyone else.
 */
export async function teamAsSeenBy(db: Executor, slug: string, userId: number) {
  const membership = await requireMembership(db, slug, userId);
  const members = await teamMembersOf(db, membership.team.id);
  const readable = await prismsReadableBy(
    db,
    userId,
    members.map((member) => member.userId),
  );
  const me = members.find((member) => member.userId === userId);
  const since = me?.lastSeenAt ?? me?.joinedAt ?? new Date(0);
  const waiting = await waitingCountOf(db, userId);
  return {
    membership,
    members: members.map((member) => ({
      ...member,
      waitingCount: member.userId === userId ? waiting : null,
      prisms: readable
        .filter((prism) => prism.userId === member.userId)
        .map((prism) => ({ ...prism, isNew: prism.userId !== userId && prism.updatedAt > since })),
    })),
  };
}

/** The member opened the team's page: what changed before now is no longer new to them. */
export async function markTeamSeen(tx: Executor, teamId: number, userId: number): Promise<void> {
  await tx
    .update(teamMembers)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
}

/** Of these members, those who have a prism for their teams (`team`), by id with their usernames. */
export async function teamPrismAuthors(
  db: Executor,
  userIds: number[],
): Promise<{ id: number; username: string }[]> {
  if (userIds.length === 0) return [];
  return db
    .selectDistinct({ id: users.id, username: users.username })
    .from(prisms)
    .innerJoin(users, eq(users.id, prisms.userId))
    .where(and(inArray(prisms.userId, userIds), eq(prisms.audience, "team")));
}

/** The member's teams, by name, with their role and each team's number of members. */
export function listMyTeams(db: Executor, userId: number) {
  return db
    .select({ team: teams, role: teamMembers.role, memberCount })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
}
export type MyTeamRow = Membership & { memberCount: number };

/** How many members the team has. */
export async function countMembers(db: Executor, teamId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(teamMembers)
    .innerJoin(users, activeMember)
    .where(eq(teamMembers.teamId, teamId));
  return row?.n ?? 0;
}

/** Whether two members share a team, both of them active. */
export async function shareATeam(db: Executor, userId: number, otherId: number): Promise<boolean> {
  const theirs = aliasedTable(teamMembers, "theirs");
  const them = aliasedTable(users, "them");
  const [row] = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .innerJoin(users, activeMember)
    .innerJoin(theirs, and(eq(theirs.teamId, teamMembers.teamId), eq(theirs.userId, otherId)))
    .innerJoin(them, and(eq(them.id, theirs.userId), isNull(them.deactivatedAt)))
    .where(eq(teamMembers.userId, userId))
    .limit(1);
  return row !== undefined;
}

export async function renameTeam(tx: Executor, teamId: number, name: string): Promise<TeamRow> {
  const [team] = await tx.update(teams).set({ name }).where(eq(teams.id, teamId)).returning();
  if (!team) throw notFound(teamMessages.notFound);
  return team;
}

/** Deletes the team with its memberships and invite links. */
export async function deleteTeam(tx: Executor, teamId: number): Promise<void> {
  await tx.delete(teams).where(eq(teams.id, teamId));
}

/** A new invite link's row and its token, which is kept nowhere but in the link. */
export async function createInvite(
  tx: Executor,
  teamId: number,
  createdBy: number,
): Promise<{ invite: TeamInviteRow; token: string }> {
  const token = newToken();
  const [invite] = await tx
    .insert(teamInvites)
    .values({
      teamId,
      tokenHash: hashToken(token),
      createdBy,
      expiresAt: sql`now() + make_interval(days => ${limits.inviteDays})`,
      maxUses: limits.inviteUsesMax,
    })
    .returning();
  if (!invite) throw new Error("insert returned no row");
  return { invite, token };
}

/**
 * The team's invite links that still let people join, newest first, with who made each: its
 * owners' only (403 to members, 404 to anyone else).
 */
export async function openInvites(db: Executor, slug: string, userId: number) {
  const { team } = await requireOwner(db, slug, userId);
  return db
    .select({ invite: teamInvites, createdBy: users.username })
    .from(teamInvites)
    .leftJoin(users, eq(users.id, teamInvites.createdBy))
    .where(
      and(
        eq(teamInvites.teamId, team.id),
        isNull(teamInvites.revokedAt),
        gt(teamInvites.expiresAt, sql`now()`),
        lt(teamInvites.uses, teamInvites.maxUses),
      ),
    )
    .orderBy(desc(teamInvites.createdAt), desc(teamInvites.id));
}
export type OpenInviteRow = Awaited<ReturnType<typeof openInvites>>[number];

/** Revokes one of the team's invite links (again: no change); another team's is a 404. */
export async function revokeInvite(tx: Executor, teamId: number, inviteId: number) {
  const [invite] = await tx
    .update(teamInvites)
    .set({ revokedAt: sql`coalesce(${teamInvites.revokedAt}, now())` })
    .where(and(eq(teamInvites.id, inviteId), eq(teamInvites.teamId, teamId)))
    .returning();
  if (!invite) throw notFound(teamMessages.inviteLinkNotFound);
  return invite;
}

/**
 * Locks the team's row: changes to who belongs to a team, and as what, go one at a time, and none
 * outlives the team. 404 when it was deleted meanwhile.
 */
async function lockTeam(tx: Executor, teamId: number): Promise<void> {
  const [team] = await tx
    .select({ id: teams.id })
    .from(teams)
    .where(eq(teams.id, teamId))
    .for("update");
  if (!team) throw notFound(teamMessages.notFound);
}

/**
 * The member joins the team of the invite link `token` as a member, spending one of its uses; a
 * member already in it stays as they are and spends none. 404 for a token no link has; 410 for a
 * link expired, revoked or used up.
 */
export async function joinByInvite(
  tx: Executor,
  token: string,
  userId: number,
): Promise<{ membership: Membership; joined: boolean }> {
  const [found] = await tx
    .select({ invite: teamInvites, team: teams })
    .from(teamInvites)
    .innerJoin(teams, eq(teams.id, teamInvites.teamId))
    .where(eq(teamInvites.tokenHash, hashToken(token)));
  if (!found) throw notFound(teamMessages.inviteNotFound);
  const { invite, team } = found;
  await lockTeam(tx, team.id);
  const [added] = await tx
    .insert(teamMembers)
    .values({ teamId: team.id, userId, role: "member" })
    .onConflictDoNothing()
    .returning({ role: teamMembers.role });
  if (!added) {
    const membership = await requireMembership(tx, team.slug, userId);
    return { membership, joined: false };
  }
  // Spent only while it may be: two joins at once never take it past its uses.
  const [spent] = await tx
    .update(teamInvites)
    .set({ uses: sql`${teamInvites.uses} + 1` })
    .where(
      and(
        eq(teamInvites.id, invite.id),
        isNull(teamInvites.revokedAt),
        gt(teamInvites.expiresAt, sql`now()`),
        lt(teamInvites.uses, teamInvites.maxUses),
      ),
    )
    .returning({ id: teamInvites.id });
  if (!spent) throw new HttpError(410, teamMessages.inviteGone);
  return { membership: { team, role: added.role }, joined: true };
}

/** The active member of this username (any case) in the team, with their role; 404 when none. */
async function memberByUsername(tx: Executor, teamId: number, username: string) {
  const [row] = await tx
    .select({ user: users, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(users, activeMember)
    .where(and(eq(teamMembers.teamId, teamId), sameIgnoringCase(users.username, username)));
  if (!row) throw notFound(teamMessages.memberNotFound);
  return row;
}

/**
 * Removes the member of this username from the team: owners remove anyone, a member removes
 * themselves. The team's last active owner stays (409). Answers who was removed.
 */
export async function removeMember(
  tx: Executor,
  actor: { id: number; role: TeamRole },
  teamId: number,
  username: string,
): Promise<UserRow> {
  await lockTeam(tx, teamId);
  const { user, role } = await memberByUsername(tx, teamId, username);
  if (!canRemoveTeamMember(actor, user.id)) throw forbidden(teamMessages.ownersOnly);
  if (role === "owner") {
    const [others] = await tx
      .select({ n: count() })
      .from(teamMembers)
      .innerJoin(users, activeMember)
      .where(
        and(
          eq(teamMembers.teamId, teamId),
          eq(teamMembers.role, "owner"),
          ne(teamMembers.userId, user.id),
        ),
      );
    if ((others?.n ?? 0) === 0) throw conflict(teamMessages.lastOwner);
  }
  await tx
    .delete(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, user.id)));
  return user;
}

/**
 * Before a member's account is deleted: each team they are the last owner of passes to its
 * member who joined first (an active one before a deactivated one), and a team nobody else is in
 * goes with them, so that every team keeps an owner.
 */
export async function handOverTeamsOf(tx: Executor, userId: number): Promise<void> {
  const owned = await tx
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.userId, userId), eq(teamMembers.role, "owner")))
    .orderBy(asc(teamMembers.teamId));
  for (const { teamId } of owned) {
    await lockTeam(tx, teamId);
    const [next] = await tx
      .select({ userId: teamMembers.userId, role: teamMembers.role })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(and(eq(teamMembers.teamId, teamId), ne(teamMembers.userId, userId)))
      .orderBy(
        sql`${teamMembers.role} = 'owner' and ${users.deactivatedAt} is null desc`,
        sql`${users.deactivatedAt} is null desc`,
        asc(teamMembers.joinedAt),
        asc(teamMembers.userId),
      )
      .limit(1);
    if (!next) await deleteTeam(tx, teamId);
    else if (next.role !== "owner") {
      await tx
        .update(teamMembers)
        .set({ role: "owner" })
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, next.userId)));
    }
  }
}
