// HTTP for the Catalyst admin dashboard: /api/analytics/*, admins only. The admin password-reset
// call lives with password reset, and the admin annotation status call with annotations.
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  activityDaySchema,
  adminFlagSchema,
  auditEntrySchema,
  catalystAnnotationSchema,
  catalystAnnotationsQuerySchema,
  catalystContactMessageSchema,
  catalystFederationSchema,
  catalystListQuerySchema,
  catalystPrismSchema,
  catalystReportSchema,
  catalystStatsSchema,
  catalystTeamSchema,
  catalystUserSchema,
  domainParam,
  domainPolicies,
  domainPolicySchema,
  silenceSchema,
} from "../../../contract/catalyst.ts";
import { idParam, mapPage, pageOf, pageQuerySchema } from "../../../contract/paging.ts";
import { deleteAnnotationAsAdmin } from "../../commands/annotations.ts";
import { setDomainPolicy } from "../../commands/domains.ts";
import { dismissFederationReport } from "../../commands/federation.ts";
import { deletePrismAsAdmin } from "../../commands/prisms.ts";
import { deleteTeamAsAdmin } from "../../commands/teams.ts";
import { deactivateUser, reactivateUser, setAdminFlag, silenceUser } from "../../commands/users.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { requireAdmin } from "../../plugins/session.ts";
import { loadFederation } from "./federation.ts";
import {
  presentAuditEntry,
  presentCatalystAnnotation,
  presentCatalystPrism,
  presentCatalystTeam,
  presentCatalystUser,
  presentContactMessage,
  presentReport,
} from "./presenter.ts";
import {
  listAnnotations,
  listAudit,
  listContactMessages,
  listPrisms,
  listReports,
  listTeams,
  listUsers,
  loadActivity,
  loadStats,
} from "./service.ts";

const tags = ["admin"];

/** Every call here is an admin's: a visitor gets 401 and a member 403 before any input is read. */
const adminsOnly = async (request: FastifyRequest) => {
  requireAdmin(request);
};

/** The Teams table: teams with their number of members, newest first. */
const teamsTable: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    "/analytics/teams",
    {
      schema: {
        tags,
        summary: "Teams with their number of members, newest first; q searches name and slug",
        querystring: catalystListQuerySchema,
        response: { 200: pageOf(catalystTeamSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => mapPage(await listTeams(db, request.query), presentCatalystTeam),
  );
};

/** Reports other servers sent (inbound `Flag`s), and an admin dismissing one. */
const reportsTable: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const as = writer(deps);
  app.get(
    "/analytics/reports",
    {
      schema: {
        tags,
        summary: "Reports from other servers of the fediverse, open ones first, newest first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(catalystReportSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => mapPage(await listReports(deps.db, request.query), presentReport),
  );
  app.put(
    "/analytics/reports/:id/dismiss",
    {
      schema: {
        tags,
        summary: "Dismiss a report from another server; audited",
        params: z.object({ id: idParam }),
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await dismissFederationReport(as(requireAdmin(request)), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

/** What the dashboard shows: its numbers and its tables. */
export const catalystReads: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const readErrors = errorResponses(400, 401, 403);
  app.addHook("onRequest", adminsOnly);
  await app.register(teamsTable, deps);
  await app.register(reportsTable, deps);

  app.get(
    "/analytics/stats",
    {
      schema: {
        tags,
        summary: "The Overview's numbers (last 24 hours, 7 days, 30 days), in one statement",
        response: { 200: catalystStatsSchema, ...readErrors },
      },
    },
    async () => loadStats(db),
  );

  app.get(
    "/analytics/activity",
    {
      schema: {
        tags,
        summary: "Sign-ups, prisms, hearts and annotations per day (UTC) for the last 30 days",
        response: { 200: z.array(activityDaySchema), ...readErrors },
      },
    },
    async () => loadActivity(db),
  );

  app.get(
    "/analytics/users",
    {
      schema: {
        tags,
        summary: "Members, newest first; q searches username, name and e-mail",
        querystring: catalystListQuerySchema,
        response: { 200: pageOf(catalystUserSchema), ...readErrors },
      },
    },
    async (request) => mapPage(await listUsers(db, request.query), presentCatalystUser),
  );

  app.get(
    "/analytics/prisms",
    {
      schema: {
        tags,
        summary:
          "Prisms with author and annotation count, newest first; q searches title and author",
        querystring: catalystListQuerySchema,
        response: { 200: pageOf(catalystPrismSchema), ...readErrors },
      },
    },
    async (request) => mapPage(await listPrisms(db, request.query), presentCatalystPrism),
  );

  app.get(
    "/analytics/annotations",
    {
      schema: {
        tags,
        summary:
          "Annotations with prism, author and readers' flags, newest first; q searches text and annotator, flagged=true keeps those 3 or more people flagged",
        querystring: catalystAnnotationsQuerySchema,
        response: { 200: pageOf(catalystAnnotationSchema), ...readErrors },
      },
    },
    async (request) => mapPage(await listAnnotations(db, request.query), presentCatalystAnnotation),
  );

  app.get(
    "/analytics/audit",
    {
      schema: {
        tags,
        summary: "The audit log: who did what to whom, when, with before and after; newest first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(auditEntrySchema), ...readErrors },
      },
    },
    async (request) => mapPage(await listAudit(db, request.query), presentAuditEntry),
  );

  app.get(
    "/analytics/contact-messages",
    {
      schema: {
        tags,
        summary: "The messages sent through the contact form, newest first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(catalystContactMessageSchema), ...readErrors },
      },
    },
    async (request) => mapPage(await listContactMessages(db, request.query), presentContactMessage),
  );
};

/** What an admin changes: a member's flag and state, and deletions; each one audited. */
export const catalystWrites: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const as = writer(deps);
  const writeErrors = errorResponses(400, 401, 403, 404);
  const idParams = z.object({ id: idParam });
  app.addHook("onRequest", adminsOnly);

  app.put(
    "/analytics/users/:id/admin",
    {
      schema: {
        tags,
        summary: "Grant or revoke a member's admin flag (not one's own revoke); audited",
        params: idParams,
        body: adminFlagSchema,
        response: { 200: catalystUserSchema, ...writeErrors },
      },
    },
    async (request) =>
      presentCatalystUser(
        await setAdminFlag(as(requireAdmin(request)), request.params.id, request.body.isAdmin),
      ),
  );

  app.put(
    "/analytics/users/:id/deactivate",
    {
      schema: {
        tags,
        summary:
          "Deactivate a member (not oneself): no sign-in, profile 404, sessions and live streams end; audited",
        params: idParams,
        response: { 200: catalystUserSchema, ...writeErrors },
      },
    },
    async (request) =>
      presentCatalystUser(await deactivateUser(as(requireAdmin(request)), request.params.id)),
  );

  app.put(
    "/analytics/users/:id/reactivate",
    {
      schema: {
        tags,
        summary: "Reactivate a member: sign-in and profile restored as they were; audited",
        params: idParams,
        response: { 200: catalystUserSchema, ...writeErrors },
      },
    },
    async (request) =>
      presentCatalystUser(await reactivateUser(as(requireAdmin(request)), request.params.id)),
  );

  app.delete(
    "/analytics/prisms/:id",
    {
      schema: {
        tags,
        summary: "Delete any prism with its hearts, annotations and notifications; audited",
        params: idParams,
        response: { 204: z.null(), ...writeErrors },
      },
    },
    async (request, reply) => {
      await deletePrismAsAdmin(as(requireAdmin(request)), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/analytics/teams/:id",
    {
      schema: {
        tags,
        summary: "Delete any team with its memberships and invite links; audited",
        params: idParams,
        response: { 204: z.null(), ...writeErrors },
      },
    },
    async (request, reply) => {
      await deleteTeamAsAdmin(as(requireAdmin(request)), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/analytics/annotations/:id",
    {
      schema: {
        tags,
        summary: "Delete any annotation with its notifications; audited",
        params: idParams,
        response: { 204: z.null(), ...writeErrors },
      },
    },
    async (request, reply) => {
      await deleteAnnotationAsAdmin(as(requireAdmin(request)), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

/** An admin silences a member or lets them be heard again (Hypothesis' NIPSA); audited. */
export const catalystSilence: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const as = writer(deps);
  app.addHook("onRequest", adminsOnly);

  app.put(
    "/analytics/users/:id/silence",
    {
      schema: {
        tags,
        summary:
          "Silence a member (not oneself) or let them be heard again: their responses are shown to them and admins alone, and notify nobody; audited",
        params: z.object({ id: idParam }),
        body: silenceSchema,
        response: { 200: catalystUserSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      presentCatalystUser(
        await silenceUser(as(requireAdmin(request)), request.params.id, request.body.silenced),
      ),
  );
};

/** The Federation tab: the delivery queue and other servers' domains; limiting or blocking one. */
export const catalystFederation: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const as = writer(deps);
  app.addHook("onRequest", adminsOnly);

  app.get(
    "/analytics/federation",
    {
      schema: {
        tags,
        summary:
          "The delivery queue's depth, retries and failures, and each other server's domain Prism knows of",
        response: { 200: catalystFederationSchema, ...errorResponses(401, 403) },
      },
    },
    async () => loadFederation(deps.db),
  );

  app.put(
    "/analytics/federation/domains/:domain",
    {
      schema: {
        tags,
        summary:
          "Limit or block another server's domain and its subdomains (blocked: its activities refused, nothing delivered), or open it again; audited",
        params: z.object({ domain: domainParam }),
        body: domainPolicySchema,
        response: {
          200: z.object({ domain: z.string(), policy: z.enum(domainPolicies) }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) =>
      setDomainPolicy(as(requireAdmin(request)), request.params.domain, request.body.policy),
  );
};
