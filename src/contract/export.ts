// "Download my data": the shape of the member's export, with their annotations also as a W3C
// Web Annotation collection (JSON-LD) that other annotation tools can re-anchor.
import { z } from "zod";
import { annotationReplySchema, annotationStatusSchema } from "./annotations.ts";
import { notificationTypeSchema } from "./notifications.ts";
import { prismSchema } from "./prisms.ts";
import { currentUserSchema } from "./user.ts";

export const exportMessages = {
  tooMany: "You've downloaded your data recently. Please try again in an hour.",
} as const;

export const WEB_ANNOTATION_CONTEXT = "http://www.w3.org/ns/anno.jsonld";

/**
 * A prism as exported: a prism on the wire without its owner's id, its content as `html`, with
 * the plain text that annotation offsets count in and the address of its section.
 */
export const exportedPrismSchema = prismSchema
  .omit({ userId: true, content: true })
  .extend({ url: z.string(), html: z.string(), text: z.string() });

/** An earlier version of one of the member's prisms, as its history keeps it. */
export const exportedRevisionSchema = z.object({
  prismId: z.number().int(),
  number: z.number().int(),
  title: z.string(),
  html: z.string(),
  text: z.string(),
  createdAt: z.string(),
});

/** An annotation as exported; never anyone's e-mail or visitor hash. */
export const exportedAnnotationSchema = z.object({
  id: z.number().int(),
  prismId: z.number().int(),
  prismTitle: z.string(),
  prismUrl: z.string(),
  /** The writer as the page names them: a member's name, an anonymous name, or null. */
  authorName: z.string().nullable(),
  authorUsername: z.string().nullable(),
  selectedText: z.string(),
  annotationText: z.string(),
  selectionStart: z.number().int(),
  selectionEnd: z.number().int(),
  status: annotationStatusSchema,
  orphaned: z.boolean(),
  /** The version of the prism the passage was selected in. */
  revision: z.number().int(),
  createdAt: z.string(),
  /** The prism owner's reply, if any. */
  reply: annotationReplySchema.nullable(),
});

export const exportedNotificationSchema = z.object({
  id: z.number().int(),
  type: notificationTypeSchema,
  prismId: z.number().int(),
  prismTitle: z.string(),
  actorName: z.string().nullable(),
  annotationId: z.number().int().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});

/** One W3C Web Annotation: a comment on a passage of a prism's public page. */
export const webAnnotationSchema = z.object({
  id: z.string(),
  type: z.literal("Annotation"),
  motivation: z.literal("commenting"),
  created: z.string(),
  creator: z.object({ type: z.literal("Person"), name: z.string() }).optional(),
  body: z.object({
    type: z.literal("TextualBody"),
    value: z.string(),
    format: z.literal("text/plain"),
    purpose: z.literal("commenting"),
  }),
  target: z.object({
    source: z.string(),
    selector: z.tuple([
      z.object({
        type: z.literal("TextQuoteSelector"),
        exact: z.string(),
        prefix: z.string(),
        suffix: z.string(),
      }),
      z.object({
        type: z.literal("TextPositionSelector"),
        start: z.number().int(),
        end: z.number().int(),
      }),
    ]),
  }),
});
export type WebAnnotation = z.infer<typeof webAnnotationSchema>;

export const webAnnotationCollectionSchema = z.object({
  "@context": z.literal(WEB_ANNOTATION_CONTEXT),
  id: z.string(),
  type: z.literal("AnnotationCollection"),
  label: z.string(),
  total: z.number().int(),
  first: z.object({
    type: z.literal("AnnotationPage"),
    startIndex: z.literal(0),
    items: z.array(webAnnotationSchema),
  }),
});

/** The whole download. The server streams it; this schema is what it adds up to. */
export const memberExportSchema = z.object({
  format: z.literal("prism-export"),
  version: z.literal(1),
  exportedAt: z.string(),
  account: currentUserSchema,
  prisms: z.array(exportedPrismSchema),
  /** The earlier versions of those prisms that their histories keep, by prism and number. */
  revisions: z.array(exportedRevisionSchema),
  /** Responses on the member's prisms, from anyone (including themselves). */
  annotationsReceived: z.array(exportedAnnotationSchema),
  /** The member's responses on other members' prisms. */
  annotationsWritten: z.array(exportedAnnotationSchema),
  notifications: z.array(exportedNotificationSchema),
  /** Both lists of annotations again, as a W3C Web Annotation collection. */
  webAnnotations: webAnnotationCollectionSchema,
});
export type MemberExport = z.infer<typeof memberExportSchema>;
