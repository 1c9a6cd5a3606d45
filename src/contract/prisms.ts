// Prisms and hearts on the wire.
import { z } from "zod";
import { limits } from "./limits.ts";
import { responderChoices } from "./responders.ts";
import { text } from "./text.ts";

export const respondersSchema = z.enum(responderChoices);

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
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Prism = z.infer<typeof prismSchema>;

const prismMessages = {
  titleRequired: "Title is required",
  titleTooLong: `Title must be at most ${limits.prismTitleMax} characters`,
  contentTooLong: `Content must be at most ${limits.prismContentBytes / 1024} KB`,
} as const;

const byteLength = (value: string) => new TextEncoder().encode(value).length;

export const prismInputSchema = z.strictObject({
  /** The spec's client sends the id along on updates; it must match the path when present. */
  id: z.number().int().optional(),
  title: text()
    .trim()
    .min(1, prismMessages.titleRequired)
    .max(limits.prismTitleMax, prismMessages.titleTooLong),
  content: text().refine(
    (value) => byteLength(value) <= limits.prismContentBytes,
    prismMessages.contentTooLong,
  ),
});
export type PrismInput = z.infer<typeof prismInputSchema>;

export const moveSchema = z.strictObject({ direction: z.enum(["up", "down"]) });
export type MoveDirection = z.infer<typeof moveSchema>["direction"];

export const heartMessages = {
  tooMany: "You're hearting quickly. Please wait a few minutes and try again.",
} as const;

export const heartStatusSchema = z.object({ hearted: z.boolean(), heartsCount: z.number().int() });
export type HeartStatus = z.infer<typeof heartStatusSchema>;
