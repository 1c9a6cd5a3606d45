// Resonance on the wire: what moved a prism's readers, told to its owner as counts only.
import { z } from "zod";
import { limits } from "./limits.ts";

/** Days the resonance map's hearts and views cover, today included. */
export const RESONANCE_DAYS = 30;

/** Different people whose approved responses must overlap one passage to mark it "Top passage". */
export const TOP_PASSAGE_PEOPLE = 3;

/**
 * A stretch of a prism's plain text (offsets as annotations use them) and how many responses, or
 * for a top passage how many different people, cover all of it.
 */
export const passageCountSchema = z.object({
  start: z.number().int(),
  end: z.number().int(),
  count: z.number().int(),
});
export type PassageCount = z.infer<typeof passageCountSchema>;

/** The stretch most people's approved responses cover, once at least 3 do; its words included. */
export const topPassageSchema = passageCountSchema.extend({ text: z.string() });
export type TopPassage = z.infer<typeof topPassageSchema>;

export const dayCountSchema = z.object({
  /** A UTC date, `YYYY-MM-DD`. */
  day: z.string(),
  count: z.number().int(),
});
export type DayCount = z.infer<typeof dayCountSchema>;

/**
 * `GET /api/prisms/{id}/resonance`, for the owner and admins: how many responses (approved and
 * pending, anchored) cover each stretch of the text, as disjoint segments in order with a count of
 * at least 1; and hearts and views per day over the last 30 days, oldest first, every day listed.
 */
export const resonanceSchema = z.object({
  segments: z.array(passageCountSchema),
  hearts: z.array(dayCountSchema),
  views: z.array(dayCountSchema),
});
export type Resonance = z.infer<typeof resonanceSchema>;

/** `POST /api/prisms/views`: the prisms a page has just shown. */
export const viewsInputSchema = z.strictObject({
  prismIds: z
    .array(z.number().int().positive().max(limits.idMax))
    .min(1)
    .max(limits.prismsPerMember),
});
export type ViewsInput = z.infer<typeof viewsInputSchema>;

/** A week's numbers: `readers` of the page (distinct visitors a day), `views` (reads) of its prisms. */
export const weekCountsSchema = z.object({
  readers: z.number().int(),
  views: z.number().int(),
  hearts: z.number().int(),
  responses: z.number().int(),
});
export type WeekCounts = z.infer<typeof weekCountsSchema>;

/**
 * `GET /api/user/this-week`, the signed-in member's "This week": the last 7 days (today and the 6
 * before, UTC) against the 7 before them, and for each of their prisms, in page order, the stretch
 * the most responses cover (approved and pending), or null when none does.
 */
export const thisWeekSchema = z.object({
  thisWeek: weekCountsSchema,
  lastWeek: weekCountsSchema,
  prisms: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      mostResponded: topPassageSchema.nullable(),
    }),
  ),
});
export type ThisWeek = z.infer<typeof thisWeekSchema>;

export const resonanceMessages = {
  ownerOnly: "Only the prism's owner can see its resonance",
  tooManyViews: "Too many views from here. Please try again later.",
} as const;
