// Teams: their names and slugs, who belongs and as what, invite links, and what the API answers.
import { z } from "zod";
import { limits } from "./limits.ts";
import { slugify } from "./slug.ts";
import { singleLine, text } from "./text.ts";

export const teamMessages = {
  nameRequired: "Team name is required",
  nameTooLong: `Team name must be at most ${limits.teamNameMax} characters`,
  notFound: "Team not found",
  ownersOnly: "Only the team's owners can do that",
  lastOwner: "A team always has an owner, and this is its last one. Delete the team instead.",
  memberNotFound: "This person is not a member of the team",
  inviteNotFound: "This invite link is not valid. Please check that you copied all of it.",
  inviteLinkNotFound: "Invite link not found",
  inviteGone:
    "This invite link has expired or can no longer be used. Ask a team owner for a new one.",
  busy: "Many teams are being created with this name right now. Please try again.",
  tooManyWrites: "You're changing teams quickly. Please wait a minute and try again.",
} as const;

export const teamRoleSchema = z.enum(["owner", "member"]);
export type TeamRole = z.infer<typeof teamRoleSchema>;

const teamName = singleLine()
  .trim()
  .min(1, teamMessages.nameRequired)
  .max(limits.teamNameMax, teamMessages.nameTooLong);

/** What POST /api/teams and PUT /api/teams/{slug} accept: the team's name. */
export const teamInputSchema = z.strictObject({ name: teamName });
export type TeamInput = z.infer<typeof teamInputSchema>;

/** A team's slug in a path (looked up, so any text without control characters). */
export const teamSlugParam = text().max(100);

/** An invite link's token in a path (looked up by its hash, so any text without control characters). */
export const inviteTokenParam = text().max(200);

/**
 * The slug a team's name gives, before any suffix that keeps it unique: the name as a prism's
 * title gives its slug, shortened, or "team" when the name gives none.
 */
export function teamSlugBase(name: string): string {
  // Lowercased again: a compatibility character (ℌ, say) may decompose to a capital.
  const slug = slugify(name).toLowerCase().slice(0, limits.teamSlugMax).replace(/-+$/, "");
  return slug === "" ? "team" : slug;
}

/** A team in the signed-in member's list: with their role and how many members it has. */
export const teamSummarySchema = z.object({
  slug: z.string(),
  name: z.string(),
  role: teamRoleSchema,
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type TeamSummary = z.infer<typeof teamSummarySchema>;

/** One member of a team, as its members see them. */
export const teamMemberSchema = z.object({
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string().nullable(),
  role: teamRoleSchema,
  joinedAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** A team as its members see it: the signed-in member's role, and every member, owners first. */
export const teamSchema = z.object({
  slug: z.string(),
  name: z.string(),
  role: teamRoleSchema,
  createdAt: z.string(),
  members: z.array(teamMemberSchema),
});
export type Team = z.infer<typeof teamSchema>;

/**
 * A prism of a member, as their teammates see it on the team's page: a link to it on their page,
 * when it last changed, and whether a teammate changed it since the viewer last looked.
 */
export const teamPrismSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  updatedAt: z.string(),
  isNew: z.boolean(),
});
export type TeamPrism = z.infer<typeof teamPrismSchema>;

/**
 * A team's page: the team as its members see it, each member with the prisms they may read; the
 * viewer's own row with how many responses wait for their review (null on everyone else's).
 */
export const teamPageSchema = teamSchema.extend({
  members: z.array(
    teamMemberSchema.extend({
      prisms: z.array(teamPrismSchema),
      waitingCount: z.number().int().nullable(),
    }),
  ),
});
export type TeamPage = z.infer<typeof teamPageSchema>;

/** A new invite link: the only time its token (in `url`) is shown. */
export const newInviteSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  expiresAt: z.string(),
});
export type NewInvite = z.infer<typeof newInviteSchema>;

/** An invite link still open, as its team's owners see it (never its token, which is kept nowhere). */
export const openInviteSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  expiresAt: z.string(),
  uses: z.number().int(),
  maxUses: z.number().int(),
  /** The owner who made it; null once their account is gone. */
  createdBy: z.string().nullable(),
});
export type OpenInvite = z.infer<typeof openInviteSchema>;

/** What opening an invite link answers: the team, and whether the member joined just now. */
export const joinedTeamSchema = z.object({ joined: z.boolean(), team: teamSummarySchema });
export type JoinedTeam = z.infer<typeof joinedTeamSchema>;
