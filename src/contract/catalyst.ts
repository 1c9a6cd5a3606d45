// The Catalyst admin dashboard on the wire: the overview's numbers, the admin tables, the admins'
// actions and the audit log of what they did.
import { z } from "zod";
import { annotationStatusSchema, flagSummarySchema } from "./annotations.ts";
import { pageQuerySchema } from "./paging.ts";
import { audienceSchema } from "./prisms.ts";
import { text } from "./text.ts";

/** The Overview cards (spec §3 "Analytics stats"): today, week and month are the last 24 hours, 7 and 30 days. */
export const catalystStatsSchema = z.object({
  totalUsers: z.number().int(),
  newUsersMonth: z.number().int(),
  totalPrisms: z.number().int(),
  totalHearts: z.number().int(),
  totalAnnotations: z.number().int(),
  activeUsersToday: z.number().int(),
  activeUsersWeek: z.number().int(),
  newUsersToday: z.number().int(),
  newUsersWeek: z.number().int(),
});
export type CatalystStats = z.infer<typeof catalystStatsSchema>;

/** Days the Overview chart covers, today included. */
export const ACTIVITY_DAYS = 30;

/** What happened on one day (UTC), for the Overview chart. */
export const activityDaySchema = z.object({
  day: z.string(),
  users: z.number().int(),
  prisms: z.number().int(),
  hearts: z.number().int(),
  annotations: z.number().int(),
});
export type ActivityDay = z.infer<typeof activityDaySchema>;

/** The longest search the admin tables accept. */
const SEARCH_MAX = 100;

/** A page of an admin table, optionally narrowed by a case-insensitive search. */
export const catalystListQuerySchema = pageQuerySchema.extend({
  q: text().trim().max(SEARCH_MAX, `Search must be at most ${SEARCH_MAX} characters`).optional(),
});
export type CatalystListQuery = z.infer<typeof catalystListQuerySchema>;

const personSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string().nullable(),
});

/** A row of the Users table: what an admin needs to know of a member. */
export const catalystUserSchema = personSchema.extend({
  email: z.string(),
  isAdmin: z.boolean(),
  lastActiveAt: z.string().nullable(),
  createdAt: z.string(),
  /** When an admin deactivated the account; null while it is active. */
  deactivatedAt: z.string().nullable(),
  /** When an admin silenced the member (their responses shown to them alone); null if not. */
  silencedAt: z.string().nullable(),
});
export type CatalystUser = z.infer<typeof catalystUserSchema>;

/** A row of the Prisms table (spec §3: prism, author, annotationsCount). */
export const catalystPrismSchema = z.object({
  prism: z.object({
    id: z.number().int(),
    title: z.string(),
    heartsCount: z.number().int(),
    editedAfterHearts: z.boolean(),
    /** Who may see it: admins see every prism, with its audience shown. */
    audience: audienceSchema,
    createdAt: z.string(),
  }),
  author: personSchema,
  annotationsCount: z.number().int(),
});
export type CatalystPrism = z.infer<typeof catalystPrismSchema>;

/** A row of the Teams table: a team, how many members it has, and when it was made. */
export const catalystTeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type CatalystTeam = z.infer<typeof catalystTeamSchema>;

/** A row of the Annotations table (spec §3: annotation, prism, author, which may be absent). */
export const catalystAnnotationSchema = z.object({
  annotation: z.object({
    id: z.number().int(),
    annotationText: z.string(),
    selectedText: z.string(),
    annotatorName: z.string().nullable(),
    status: annotationStatusSchema,
    /** Its author is silenced: it is shown to them and to admins alone. */
    silenced: z.boolean(),
    createdAt: z.string(),
  }),
  prism: z.object({ id: z.number().int(), title: z.string(), ownerUsername: z.string() }),
  author: personSchema.nullable(),
  /** Readers' flags, every one (those the owner kept the response over too). */
  flags: flagSummarySchema,
});
export type CatalystAnnotation = z.infer<typeof catalystAnnotationSchema>;

/** The Annotations tab's page: `flagged` narrows it to responses FLAGS_FOR_ADMINS people flagged. */
export const catalystAnnotationsQuerySchema = catalystListQuerySchema.extend({
  flagged: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
});
export type CatalystAnnotationsQuery = z.infer<typeof catalystAnnotationsQuerySchema>;

/** PUT /api/analytics/users/{id}/silence. */
export const silenceSchema = z.strictObject({ silenced: z.boolean() });

/** A row of the Messages table: a message sent through the contact form, as it was kept. */
export const catalystContactMessageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type CatalystContactMessage = z.infer<typeof catalystContactMessageSchema>;

/** A report another server sent about a member, a prism of theirs or a response (a `Flag`). */
export const catalystReportSchema = z.object({
  id: z.number().int(),
  /** Who reported: their actor (often their server's own) and its domain. */
  reporter: z.string(),
  reporterDomain: z.string(),
  /** The member it is about. */
  member: z.object({ id: z.number().int(), username: z.string() }),
  /** The prism it names, while it is there. */
  prism: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  /** The response it names, while it is there: the start of its text. */
  response: z.object({ id: z.number().int(), text: z.string() }).nullable(),
  comment: z.string(),
  createdAt: z.string(),
  /** When an admin dismissed it; null while it is open. */
  dismissedAt: z.string().nullable(),
});
export type CatalystReport = z.infer<typeof catalystReportSchema>;

/** PUT /api/analytics/users/{id}/admin. */
export const adminFlagSchema = z.strictObject({ isAdmin: z.boolean() });

/** How Prism treats another server's domain (and its subdomains). */
export const domainPolicies = ["open", "limited", "blocked"] as const;
export type DomainPolicy = (typeof domainPolicies)[number];

/** A server's domain as an admin names it: a host name, in any case, without a scheme or port. */
export const domainParam = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, "A domain has at most 253 characters")
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/,
    "Enter a domain, like example.social",
  );

/** PUT /api/analytics/federation/domains/{domain}. */
export const domainPolicySchema = z.strictObject({ policy: z.enum(domainPolicies) });

/** A domain Prism knows of: an admin's decision, what waits for it and what failed. */
export const catalystDomainSchema = z.object({
  domain: z.string(),
  policy: z.enum(domainPolicies),
  /** Deliveries to it waiting in the queue, and of those, how many failed before. */
  queued: z.number().int(),
  retrying: z.number().int(),
  /** Deliveries to it that failed (each try counts), the last one's time and reason. */
  failures: z.number().int(),
  lastFailureAt: z.string().nullable(),
  lastFailure: z.string().nullable(),
});
export type CatalystDomain = z.infer<typeof catalystDomainSchema>;

/** The Federation tab: the delivery queue as a whole, and each domain. */
export const catalystFederationSchema = z.object({
  queue: z.object({
    /** Every message waiting (deliveries and inbound work), ready or delayed. */
    depth: z.number().int(),
    ready: z.number().int(),
    delayed: z.number().int(),
    /** Deliveries waiting to be tried again after a failure. */
    retrying: z.number().int(),
    /** Failed deliveries over every domain (each try counts). */
    failures: z.number().int(),
  }),
  domains: z.array(catalystDomainSchema),
});
export type CatalystFederation = z.infer<typeof catalystFederationSchema>;

export const catalystMessages = {
  selfRevoke: "You cannot remove your own admin access",
  selfDeactivate: "You cannot deactivate your own account",
  selfSilence: "You cannot silence yourself",
  userNotFound: "User not found",
} as const;

export const auditActions = [
  "user.grant-admin",
  "user.revoke-admin",
  "user.deactivate",
  "user.reactivate",
  "user.silence",
  "user.unsilence",
  "user.reset-password",
  "user.export",
  "prism.delete",
  "prism.restore",
  "annotation.status",
  "annotation.delete",
  "team.create",
  "team.rename",
  "team.delete",
  "team.invite",
  "team.revoke-invite",
  "team.join",
  "team.leave",
  "team.remove-member",
  "domain.policy",
  "report.dismiss",
] as const;
export type AuditAction = (typeof auditActions)[number];

const auditTargetTypes = ["user", "prism", "annotation", "team", "domain", "report"] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

/** The facts of a target before or after an action: flat, readable values. */
const auditValuesSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type AuditValues = z.infer<typeof auditValuesSchema>;

/** One line of the audit log: who did what to whom, when, with before and after. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  /** Who acted (an admin, or an owner deciding in their review queue); null once their account is gone. */
  actor: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  action: z.enum(auditActions),
  targetType: z.enum(auditTargetTypes),
  targetId: z.number().int().nullable(),
  /** How the target read when the action was taken (it may since be gone). */
  target: z.string(),
  before: auditValuesSchema.nullable(),
  after: auditValuesSchema.nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
