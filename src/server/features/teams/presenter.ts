// The only ways a team leaves the server: in a member's list, whole for its members, a new invite
// link, and what joining by one answers.
import type {
  JoinedTeam,
  NewInvite,
  OpenInvite,
  Team,
  TeamMember,
  TeamPage,
  TeamSummary,
} from "../../../contract/teams.ts";
import type { TeamInviteRow } from "../../db/schema.ts";
import type {
  Membership,
  MyTeamRow,
  OpenInviteRow,
  ReadablePrismRow,
  TeamMemberRow,
} from "./service.ts";

export function presentTeamSummary({ team, role, memberCount }: MyTeamRow): TeamSummary {
  return {
    slug: team.slug,
    name: team.name,
    role,
    memberCount,
    createdAt: team.createdAt.toISOString(),
  };
}

function presentMember(member: TeamMemberRow): TeamMember {
  return {
    username: member.username,
    firstName: member.firstName,
    lastName: member.lastName,
    displayName: member.displayName,
    role: member.role,
    joinedAt: member.joinedAt.toISOString(),
  };
}

export function presentTeam({
  membership: { team, role },
  members,
}: {
  membership: Membership;
  members: TeamMemberRow[];
}): Team {
  return {
    slug: team.slug,
    name: team.name,
    role,
    createdAt: team.createdAt.toISOString(),
    members: members.map(presentMember),
  };
}

/**
 * The team's page: the team, and each member with the prisms the viewer may read (marked when
 * new to them) and, on the viewer's own row alone, their waiting count.
 */
export function presentTeamPage(seen: {
  membership: Membership;
  members: (TeamMemberRow & {
    prisms: (ReadablePrismRow & { isNew: boolean })[];
    waitingCount: number | null;
  })[];
}): TeamPage {
  return {
    ...presentTeam(seen),
    members: seen.members.map((member) => ({
      ...presentMember(member),
      waitingCount: member.waitingCount,
      prisms: member.prisms.map(({ id, title, updatedAt, isNew }) => ({
        id,
        title,
        updatedAt: updatedAt.toISOString(),
        isNew,
      })),
    })),
  };
}

/** A new invite link: the app's address of the page that joins by its token. */
export function presentNewInvite(
  appOrigin: string,
  { invite, token }: { invite: TeamInviteRow; token: string },
): NewInvite {
  return {
    id: invite.id,
    url: `${appOrigin}/invites/${token}`,
    expiresAt: invite.expiresAt.toISOString(),
  };
}

export function presentOpenInvite({ invite, createdBy }: OpenInviteRow): OpenInvite {
  return {
    id: invite.id,
    createdAt: invite.createdAt.toISOString(),
    expiresAt: invite.expiresAt.toISOString(),
    uses: invite.uses,
    maxUses: invite.maxUses,
    createdBy,
  };
}

export function presentJoinedTeam(joined: { team: MyTeamRow; joined: boolean }): JoinedTeam {
  return { joined: joined.joined, team: presentTeamSummary(joined.team) };
}
