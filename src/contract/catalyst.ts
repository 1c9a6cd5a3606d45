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

/** PUT /api/analytics/users/{id}/admin. */
export const adminFlagSchema = z.strictObject({ isAdmin: z.boolean() });

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
] as const;
export type AuditAction = (typeof auditActions)[number];

const auditTargetTypes = ["user", "prism", "annotation", "team"] as const;
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
