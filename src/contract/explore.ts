// The explore page on the wire: members with their first prism, and popular prisms, paged.
import { z } from "zod";
import { limits } from "./limits.ts";
import { publicUserSchema } from "./user.ts";

/** `?limit=10&offset=N`, as every paged list. */
export const exploreQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(limits.pageSizeMax).default(limits.pageSize),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(0),
});
export type ExploreQuery = z.infer<typeof exploreQuerySchema>;

/** People tab: a member and the prism at the top of their page. */
export const exploreUserSchema = z.object({
  user: publicUserSchema,
  firstPrism: z.object({ title: z.string(), content: z.string() }).nullable(),
});
export type ExploreUser = z.infer<typeof exploreUserSchema>;

/** Prisms tab: a prism and its author. */
export const explorePrismSchema = z.object({
  user: publicUserSchema,
  prism: z.object({
    id: z.number().int(),
    title: z.string(),
    content: z.string(),
    heartsCount: z.number().int(),
  }),
});
export type ExplorePrism = z.infer<typeof explorePrismSchema>;

/** Excerpt lengths of the two tabs (spec §9). */
export const exploreExcerpt = { people: 100, prisms: 150 } as const;
