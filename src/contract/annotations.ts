// Annotations on the wire: a reader's response to a passage of a prism.
import { z } from "zod";
import { annotationMessages } from "./annotation-messages.ts";
import { limits } from "./limits.ts";
import { idParam } from "./paging.ts";
import { personCheckFields } from "./person-check.ts";
import { singleLine, text } from "./text.ts";

/**
 * Where a response stands. `spam` is set aside (by its score, or by the prism's owner): its author
 * is shown `pending`, exactly as for a response waiting for review, and nobody else but the owner
 * (in their Spam folder) and admins sees it.
 */
export const annotationStatusSchema = z.enum(["pending", "approved", "rejected", "spam"]);
export type AnnotationStatus = z.infer<typeof annotationStatusSchema>;

/** What an author is shown of their response's status: spam is shown as pending. */
export const authorStatusSchema = annotationStatusSchema.exclude(["spam"]);
export type AuthorStatus = z.infer<typeof authorStatusSchema>;

export const annotationCreateSchema = z
  .strictObject({
    prismId: z.number().int().positive().max(limits.idMax),
    selectedText: text()
      .max(limits.selectionMax, annotationMessages.selectionTooLong)
      .refine((v) => v.trim().length > 0, annotationMessages.selectionEmpty),
    annotationText: text()
      .trim()
      .min(1, annotationMessages.textRequired)
      .max(limits.annotationMax, annotationMessages.textTooLong),
    selectionStart: z.number().int().min(0).max(limits.prismContentBytes),
    selectionEnd: z.number().int().min(1).max(limits.prismContentBytes),
    /** Anonymous readers may leave a name and an e-mail (never shown to others). */
    annotatorName: singleLine().trim().max(limits.nameMax).optional(),
    annotatorEmail: z
      .union([z.literal(""), z.email("Invalid email address").max(limits.emailMax)])
      .optional(),
    /** Anonymous readers prove they are people (see `person-check.ts`); members send none. */
    ...personCheckFields,
  })
  .refine((v) => v.selectionEnd > v.selectionStart, {
    message: annotationMessages.selectionRange,
    path: ["selectionEnd"],
  });
export type AnnotationCreate = z.infer<typeof annotationCreateSchema>;

export const annotationReplySchema = z.object({
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AnnotationReply = z.infer<typeof annotationReplySchema>;

/** The owner writes or rewrites their reply; it approves a pending response. */
export const annotationReplyInputSchema = z.strictObject({
  text: text()
    .trim()
    .min(1, annotationMessages.replyRequired)
    .max(limits.replyMax, annotationMessages.replyTooLong),
});
export type AnnotationReplyInput = z.infer<typeof annotationReplyInputSchema>;

export const originalContextSchema = z.object({
  before: z.string(),
  passage: z.string(),
  after: z.string(),
});
export type OriginalContext = z.infer<typeof originalContextSchema>;

export const annotationSchema = z.object({
  id: z.number().int(),
  prismId: z.number().int(),
  userId: z.number().int().nullable(),
  annotatorName: z.string().nullable(),
  /** Who wrote it, as the page shows it: a member's name, the anonymous name, or null. */
  authorName: z.string().nullable(),
  /** A reply from the fediverse: its note, where its author wrote it (http or https). */
  authorUrl: z.string().optional(),
  annotationText: z.string(),
  selectedText: z.string(),
  selectionStart: z.number().int(),
  selectionEnd: z.number().int(),
  status: annotationStatusSchema,
  /** The passage is no longer in the prism's text. */
  orphaned: z.boolean(),
  /** The prism's version the passage was selected in. */
  revision: z.number().int(),
  /** When orphaned: the passage as it was selected, with the words either side of it then. */
  originalContext: originalContextSchema.optional(),
  createdAt: z.string(),
  /** The prism owner's answer, shown under the response to whoever may see the response. */
  reply: annotationReplySchema.nullable(),
  /** The viewer wrote it (as a member, or from this browser). */
  isOwn: z.boolean(),
  /** The viewer may approve or reject it now. */
  canModerate: z.boolean(),
});
export type Annotation = z.infer<typeof annotationSchema>;

export const annotationDecisionSchema = z.strictObject({
  status: z.enum(["approved", "rejected"]),
});

export const adminAnnotationStatusSchema = z.strictObject({ status: annotationStatusSchema });

/** Why a reader flags a published response. */
export const flagReasonSchema = z.enum(["spam", "abuse", "private", "other"]);
export type FlagReason = z.infer<typeof flagReasonSchema>;

/** The longest note a reader may add to a flag. */
export const FLAG_NOTE_MAX = 500;

/** A reader flags a published response: a reason, and a note if they wish. */
export const flagInputSchema = z.strictObject({
  reason: flagReasonSchema,
  note: text()
    .trim()
    .max(FLAG_NOTE_MAX, `Notes must be at most ${FLAG_NOTE_MAX} characters`)
    .optional(),
});
export type FlagInput = z.infer<typeof flagInputSchema>;

/** The reader's own flag, as recorded (the latest reason and note when they flagged before). */
export const flagSchema = z.object({
  annotationId: z.number().int(),
  reason: flagReasonSchema,
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type Flag = z.infer<typeof flagSchema>;

/** Flags on a response: how many different people flagged it, and how many gave each reason. */
export const flagSummarySchema = z.object({
  count: z.number().int(),
  reasons: z.array(z.object({ reason: flagReasonSchema, count: z.number().int() })),
});
export type FlagSummary = z.infer<typeof flagSummarySchema>;

/**
 * The folders of the owner's review queue: responses waiting for review, their Spam folder, and
 * published responses readers flagged that the owner has not yet kept or taken down.
 */
export const reviewStatusSchema = z.enum(["pending", "spam", "flagged"]);
export type ReviewStatus = z.infer<typeof reviewStatusSchema>;

/** The owner's review queue, oldest first: `cursor` is the last id of the page before. */
export const reviewQuerySchema = z.object({
  status: reviewStatusSchema.default("pending"),
  cursor: idParam.optional(),
  limit: z.coerce.number().int().min(1).max(limits.reviewPageSize).default(limits.reviewPageSize),
});
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;

/** A response in the queue: as the owner's panel shows it, with its prism and why it is there. */
export const reviewItemSchema = annotationSchema.extend({
  prismTitle: z.string(),
  /** What made the response look doubtful, as its score found it. */
  reasons: z.array(z.string()),
  /** Readers' flags not yet settled by the owner: how many people, and their reasons. */
  flags: flagSummarySchema,
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** One page of the queue; `nextCursor` asks for the page after it, null on the last. */
export const reviewPageSchema = z.object({
  items: z.array(reviewItemSchema),
  nextCursor: z.number().int().nullable(),
  /** How many responses each folder holds now (the page's folder and the others). */
  counts: z.object({
    pending: z.number().int(),
    spam: z.number().int(),
    flagged: z.number().int(),
  }),
});
export type ReviewPage = z.infer<typeof reviewPageSchema>;

/**
 * What the owner may do to responses in the queue, to many at once: approve, reject or set aside
 * as spam a pending one; put one back from the Spam folder (`not-spam`: pending again); keep a
 * flagged one published (`keep`: its flags are settled) or take it down (`take-down`: rejected).
 */
export const reviewActionSchema = z.enum([
  "approve",
  "reject",
  "spam",
  "not-spam",
  "keep",
  "take-down",
]);
export type ReviewAction = z.infer<typeof reviewActionSchema>;

export const bulkDecisionSchema = z.strictObject({
  ids: z
    .array(z.number().int().positive().max(limits.idMax))
    .min(1, annotationMessages.bulkNone)
    .max(limits.bulkDecisionsMax, annotationMessages.bulkTooMany)
    .refine((ids) => new Set(ids).size === ids.length, annotationMessages.bulkRepeated),
  action: reviewActionSchema,
});
export type BulkDecision = z.infer<typeof bulkDecisionSchema>;

/** How many responses a bulk decision changed: all it named, or (refused) none. */
export const bulkDecisionResultSchema = z.object({ changed: z.number().int() });

/** A response as just recorded: an anonymous author also gets the private link to follow it. */
export const annotationCreatedSchema = annotationSchema.extend({
  /** `/responses/{token}` for an anonymous author (the only time the token is told); else null. */
  statusUrl: z.string().nullable(),
});
export type AnnotationCreated = z.infer<typeof annotationCreatedSchema>;

/** What the private status link shows its anonymous author: their response and what became of it. */
export const responseStatusSchema = z.object({
  prismId: z.number().int(),
  prismTitle: z.string(),
  /** The prism's page, where the response can be read in place. */
  prismPath: z.string(),
  ownerName: z.string(),
  passage: z.string(),
  text: z.string(),
  authorName: z.string().nullable(),
  status: authorStatusSchema,
  orphaned: z.boolean(),
  createdAt: z.string(),
  reply: annotationReplySchema.nullable(),
});
export type ResponseStatus = z.infer<typeof responseStatusSchema>;

/** A status link's token: 128 random bits, base64url. Anything else is a link that never was. */
export const statusTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/);
