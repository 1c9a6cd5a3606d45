// Prisms and hearts on the wire.
import { z } from "zod";
import { audienceChoices } from "./audiences.ts";
import { limits } from "./limits.ts";
import { topPassageSchema } from "./resonance.ts";
import { responderChoices } from "./responders.ts";
import { singleLine, text } from "./text.ts";

export const respondersSchema = z.enum(responderChoices);

/** Who may read a prism: everyone (the default), its owner's teammates, or its owner alone. */
export const audienceSchema = z.enum(audienceChoices);

export const respondersInputSchema = z.strictObject({ responders: respondersSchema });

export const prismSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  title: z.string(),
  content: z.string(),
  index: z.number().int(),
  heartsCount: z.number().int(),
  editedAfterHearts: z.boolean(),
  responders: respondersSchema,
  audience: audienceSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When its title or content last changed, if they changed since it was first published. */
  editedAt: z.string().nullable(),
  /** The passage marked "Top passage" for readers, or null while fewer than 3 people overlap. */
  topPassage: topPassageSchema.nullable(),
});
export type Prism = z.infer<typeof prismSchema>;

export const prismMessages = {
  titleRequired: "Title is required",
  titleTooLong: `Title must be at most ${limits.prismTitleMax} characters`,
  contentTooLong: `Content must be at most ${limits.prismContentBytes / 1024} KB`,
  tooMany: `A page holds at most ${limits.prismsPerMember} prisms. Delete one to add another.`,
  tooManyWrites: "You're changing your prisms quickly. Please wait a minute and try again.",
} as const;

const byteLength = (value: string) => new TextEncoder().encode(value).length;

/** Content within the limit in UTF-8 bytes: as sent, and again as stored once sanitized. */
export const fitsContentLimit = (value: string) => byteLength(value) <= limits.prismContentBytes;

export const prismInputSchema = z.strictObject({
  /** The spec's client sends the id along on updates; it must match the path when present. */
  id: z.number().int().optional(),
  title: singleLine()
    .trim()
    .min(1, prismMessages.titleRequired)
    .max(limits.prismTitleMax, prismMessages.titleTooLong),
  content: text().refine(fitsContentLimit, prismMessages.contentTooLong),
  /** Left out: a new prism is public, a saved one keeps its audience. */
  audience: audienceSchema.optional(),
});
export type PrismInput = z.infer<typeof prismInputSchema>;

export const moveSchema = z.strictObject({ direction: z.enum(["up", "down"]) });
export type MoveDirection = z.infer<typeof moveSchema>["direction"];

export const heartMessages = {
  tooMany: "You're hearting quickly. Please wait a few minutes and try again.",
} as const;

export const heartStatusSchema = z.object({ hearted: z.boolean(), heartsCount: z.number().int() });
export type HeartStatus = z.infer<typeof heartStatusSchema>;
