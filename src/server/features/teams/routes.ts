// HTTP for teams: a member's teams, one team as its members see it, its owners' changes, invite
// links, joining by one, and leaving or being removed. A team answers 404 to anyone not in it,
// exactly as a team that does not exist.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { limits } from "../../../contract/limits.ts";
import { idParam } from "../../../contract/paging.ts";
import {
  inviteTokenParam,
  joinedTeamSchema,
  newInviteSchema,
  openInviteSchema,
  teamInputSchema,
  teamMessages,
  teamPageSchema,
  teamSchema,
  teamSlugParam,
  teamSummarySchema,
} from "../../../contract/teams.ts";
import { usernameParam } from "../../../contract/user.ts";
import {
  createInvite,
  createTeam,
  deleteTeam,
  joinTeam,
  markTeamPageSeen,
  removeTeamMember,
  renameTeam,
  revokeInvite,
} from "../../commands/teams.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { requireUser } from "../../plugins/session.ts";
import {
  presentJoinedTeam,
  presentNewInvite,
  presentOpenInvite,
  presentTeam,
  presentTeamPage,
  presentTeamSummary,
} from "./presenter.ts";
import { listMyTeams, openInvites, teamAsSeenBy } from "./service.ts";

const slugParams = z.object({ slug: teamSlugParam });

const tags = ["teams"];

const schemas = {
  create: {
    tags,
    summary: "Create a team; the signed-in member is its owner",
    description: "Its slug is made from its name, with a suffix when another team has it.",
    body: teamInputSchema,
    response: { 201: teamSchema, ...errorResponses(400, 401, 409, 429) },
  },
  list: {
    tags,
    summary: "The signed-in member's teams, by name, with their role in each",
    response: { 200: z.array(teamSummarySchema), ...errorResponses(401) },
  },
  get: {
    tags,
    summary: "A team's page: its members, owners first, each with their prisms (members only)",
    description: "404 to anyone not in the team, exactly as for a team that does not exist.",
    params: slugParams,
    response: { 200: teamPageSchema, ...errorResponses(400, 401, 404) },
  },
  seen: {
    tags,
    summary: "The member opened the team's page: what their teammates changed is no longer new",
    description: "Answers 204; the next GET of the page marks only what changes after now.",
    params: slugParams,
    response: { 204: z.null(), ...errorResponses(400, 401, 404) },
  },
  rename: {
    tags,
    summary: "Rename a team; its slug stays (owners only; 403 to members, 404 to others)",
    params: slugParams,
    body: teamInputSchema,
    response: { 200: teamSchema, ...errorResponses(400, 401, 403, 404, 429) },
  },
  remove: {
    tags,
    summary: "Delete a team, its memberships and invite links (owners only)",
    params: slugParams,
    response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 429) },
  },
  invites: {
    tags,
    summary: "A team's invite links that still let people join, newest first (owners only)",
    params: slugParams,
    response: { 200: z.array(openInviteSchema), ...errorResponses(400, 401, 403, 404) },
  },
  invite: {
    tags,
    summary: "Make an invite link: 50 people may join by it within 7 days (owners only)",
    description: "Its token is in `url`, shown this once: only its hash is kept.",
    params: slugParams,
    response: { 201: newInviteSchema, ...errorResponses(400, 401, 403, 404, 429) },
  },
  revoke: {
    tags,
    summary: "Revoke an invite link: nobody joins by it any more (owners only)",
    params: slugParams.extend({ id: idParam }),
    response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 429) },
  },
  removeMember: {
    tags,
    summary: "Remove a member (owners), or leave (a member naming themselves)",
    description: "409 for the team's last owner: a team always has one.",
    params: slugParams.extend({ username: usernameParam }),
    response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409, 429) },
  },
  join: {
    tags,
    summary: "Join a team by its invite link's token (already a member: 200, nothing changes)",
    description:
      "404 for a token no link has; 410 for a link that expired, was revoked or is used up.",
    params: z.object({ token: inviteTokenParam }),
    response: { 200: joinedTeamSchema, ...errorResponses(400, 401, 404, 410, 429) },
  },
};

export const teamsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, config } = deps;
  const as = writer(deps);
  const writes = {
    rateLimit: {
      message: teamMessages.tooManyWrites,
      limits: [new Limit(deps.limitStore, "team-writes", limits.teamWritesPerMinute, 1, by.member)],
    },
  };

  // Every call is a signed-in member's: authenticate before validating anything.
  app.addHook("onRequest", async (request) => {
    requireUser(request);
  });

  app.post("/teams", { schema: schemas.create, config: writes }, async (request, reply) =>
    reply.status(201).send(presentTeam(await createTeam(as(requireUser(request)), request.body))),
  );

  app.get("/teams", { schema: schemas.list }, async (request) =>
    (await listMyTeams(db, requireUser(request).id)).map(presentTeamSummary),
  );

  app.get("/teams/:slug", { schema: schemas.get }, async (request) =>
    presentTeamPage(await teamAsSeenBy(db, request.params.slug, requireUser(request).id)),
  );

  app.post("/teams/:slug/seen", { schema: schemas.seen }, async (request, reply) => {
    await markTeamPageSeen(as(requireUser(request)), request.params.slug);
    return reply.status(204).send(null);
  });

  app.put("/teams/:slug", { schema: schemas.rename, config: writes }, async (request) =>
    presentTeam(await renameTeam(as(requireUser(request)), request.params.slug, request.body)),
  );

  app.delete("/teams/:slug", { schema: schemas.remove, config: writes }, async (request, reply) => {
    await deleteTeam(as(requireUser(request)), request.params.slug);
    return reply.status(204).send(null);
  });

  app.get("/teams/:slug/invites", { schema: schemas.invites }, async (request) =>
    (await openInvites(db, request.params.slug, requireUser(request).id)).map(presentOpenInvite),
  );

  app.post(
    "/teams/:slug/invites",
    { schema: schemas.invite, config: writes },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          presentNewInvite(
            config.appOrigin,
            await createInvite(as(requireUser(request)), request.params.slug),
          ),
        ),
  );

  app.delete(
    "/teams/:slug/invites/:id",
    { schema: schemas.revoke, config: writes },
    async (request, reply) => {
      await revokeInvite(as(requireUser(request)), request.params.slug, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/teams/:slug/members/:username",
    { schema: schemas.removeMember, config: writes },
    async (request, reply) => {
      const { slug, username } = request.params;
      await removeTeamMember(as(requireUser(request)), slug, username);
      return reply.status(204).send(null);
    },
  );

  app.post("/invites/:token", { schema: schemas.join, config: writes }, async (request) =>
    presentJoinedTeam(await joinTeam(as(requireUser(request)), request.params.token)),
  );
};
