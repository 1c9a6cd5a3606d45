// Teams: creating, renaming and deleting one, its invite links, joining by one, and leaving or
// being removed. Each is one transaction that writes its line of the audit log. Who shares a team
// decides who sees a team's prisms: joining, leaving and deleting a team tell the members
// concerned that their teammates' pages changed for them.
import type { TeamInput } from "../../contract/teams.ts";
import { type AuditRecord, recordAudit } from "../audit.ts";
import type { Executor } from "../db/client.ts";
import type { TeamInviteRow, TeamRow } from "../db/schema.ts";
import {
  createInvite as addInvite,
  createTeam as addTeam,
  countMembers,
  joinByInvite,
  type Membership,
  type MyTeamRow,
  markTeamSeen,
  removeMember,
  deleteTeam as removeTeam,
  requireMembership,
  requireOwner,
  revokeInvite as revoke,
  renameTeam as setTeamName,
  type TeamMemberRow,
  teamById,
  teamMembersOf,
  teamPrismAuthors,
} from "../features/teams/service.ts";
import { commit, type Recorder, type WriteContext } from "./write.ts";

/** Writes the audit log's line of a change to a team, the team named as it reads now. */
function auditTeam(
  tx: Executor,
  actor: WriteContext["actor"],
  action: AuditRecord["action"],
  team: Pick<TeamRow, "id" | "name">,
  change: Pick<AuditRecord, "before" | "after">,
): Promise<void> {
  return recordAudit(tx, actor, {
    action,
    targetType: "team",
    targetId: team.id,
    target: team.name,
    ...change,
  });
}

/**
 * `changed` came into or left a team with `others`: each page among them with prisms for its
 * teams now shows the other side more or less, and those who see it hear so (no one else).
 */
async function teamPagesChanged(
  tx: Executor,
  record: Recorder,
  changed: number[],
  others: number[],
): Promise<void> {
  const everyone = [...new Set([...changed, ...others])];
  for (const author of await teamPrismAuthors(tx, everyone)) {
    const audience = (changed.includes(author.id) ? everyone : changed).filter(
      (id) => id !== author.id,
    );
    if (audience.length > 0)
      record({ type: "prisms.changed", username: author.username, audience });
  }
}

/** The ids of the team's members. */
const memberIds = async (tx: Executor, teamId: number) =>
  (await teamMembersOf(tx, teamId)).map((member) => member.userId);

/** A team with its members, as its members see it. */
interface TeamView {
  membership: Membership;
  members: TeamMemberRow[];
}

/** The member creates a team and is its owner. */
export function createTeam(write: WriteContext, input: TeamInput): Promise<TeamView> {
  const { actor } = write;
  return commit(write, async (tx) => {
    const team = await addTeam(tx, actor.id, input.name);
    await auditTeam(tx, actor, "team.create", team, {
      after: { name: team.name, slug: team.slug },
    });
    return { membership: { team, role: "owner" }, members: await teamMembersOf(tx, team.id) };
  });
}

/** An owner renames their team; its slug stays, so that links to it keep working. */
export function renameTeam(write: WriteContext, slug: string, input: TeamInput): Promise<TeamView> {
  const { actor } = write;
  return commit(write, async (tx) => {
    const { team, role } = await requireOwner(tx, slug, actor.id);
    const renamed = await setTeamName(tx, team.id, input.name);
    if (renamed.name !== team.name) {
      await auditTeam(tx, actor, "team.rename", renamed, {
        before: { name: team.name },
        after: { name: renamed.name },
      });
    }
    return { membership: { team: renamed, role }, members: await teamMembersOf(tx, team.id) };
  });
}

/** Deletes the team, telling its members, and writes the audit log's line for it. */
async function removeTeamOf(
  tx: Executor,
  record: Recorder,
  actor: WriteContext["actor"],
  team: TeamRow,
): Promise<void> {
  const members = await countMembers(tx, team.id);
  const ids = await memberIds(tx, team.id);
  await teamPagesChanged(tx, record, ids, ids);
  await removeTeam(tx, team.id);
  await auditTeam(tx, actor, "team.delete", team, {
    before: { name: team.name, slug: team.slug, members },
  });
}

/** An owner deletes their team, its memberships and its invite links. */
export function deleteTeam(write: WriteContext, slug: string): Promise<void> {
  const { actor } = write;
  return commit(write, async (tx, record) => {
    const { team } = await requireOwner(tx, slug, actor.id);
    await removeTeamOf(tx, record, actor, team);
  });
}

/** An admin deletes any team (Catalyst): the owners' own deletion, audited as theirs. */
export function deleteTeamAsAdmin(write: WriteContext, teamId: number): Promise<void> {
  return commit(write, async (tx, record) => {
    await removeTeamOf(tx, record, write.actor, await teamById(tx, teamId));
  });
}

/** An owner makes a new invite link to their team; its token is answered once, here. */
export function createInvite(
  write: WriteContext,
  slug: string,
): Promise<{ invite: TeamInviteRow; token: string }> {
  const { actor } = write;
  return commit(write, async (tx) => {
    const { team } = await requireOwner(tx, slug, actor.id);
    const created = await addInvite(tx, team.id, actor.id);
    await auditTeam(tx, actor, "team.invite", team, {
      after: { invite: created.invite.id, expiresAt: created.invite.expiresAt.toISOString() },
    });
    return created;
  });
}

/** An owner revokes one of their team's invite links: nobody joins by it any more. */
export function revokeInvite(write: WriteContext, slug: string, inviteId: number): Promise<void> {
  const { actor } = write;
  return commit(write, async (tx) => {
    const { team } = await requireOwner(tx, slug, actor.id);
    const invite = await revoke(tx, team.id, inviteId);
    await auditTeam(tx, actor, "team.revoke-invite", team, {
      after: { invite: invite.id, uses: invite.uses },
    });
  });
}

/**
 * The member opens an invite link: they join its team as a member, or, already in it, stay as
 * they are. Answers the team as their list shows it, and whether they joined just now.
 */
export function joinTeam(
  write: WriteContext,
  token: string,
): Promise<{ team: MyTeamRow; joined: boolean }> {
  const { actor } = write;
  return commit(write, async (tx, record) => {
    const { membership, joined } = await joinByInvite(tx, token, actor.id);
    if (joined) {
      await teamPagesChanged(tx, record, [actor.id], await memberIds(tx, membership.team.id));
      await auditTeam(tx, actor, "team.join", membership.team, {
        after: { member: actor.username },
      });
    }
    return {
      team: { ...membership, memberCount: await countMembers(tx, membership.team.id) },
      joined,
    };
  });
}

/**
 * An owner removes a member (another owner included) from their team, or a member leaves it; the
 * team's last owner can do neither.
 */
export function removeTeamMember(write: WriteContext, slug: string, username: string) {
  const { actor } = write;
  return commit(write, async (tx, record) => {
    const { team, role } = await requireMembership(tx, slug, actor.id);
    const before = await memberIds(tx, team.id);
    const removed = await removeMember(tx, { id: actor.id, role }, team.id, username);
    await teamPagesChanged(tx, record, [removed.id], before);
    const leaving = removed.id === actor.id;
    await auditTeam(tx, actor, leaving ? "team.leave" : "team.remove-member", team, {
      before: { member: removed.username },
    });
  });
}

/**
 * The member opened their team's page: the prisms their teammates changed before now are no
 * longer marked new to them. Nobody else hears of it.
 */
export function markTeamPageSeen(write: WriteContext, slug: string): Promise<void> {
  const { actor } = write;
  return commit(write, async (tx) => {
    const { team } = await requireMembership(tx, slug, actor.id);
    await markTeamSeen(tx, team.id, actor.id);
  });
}
