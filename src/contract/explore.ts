// The explore page on the wire: members with their first prism, and popular prisms, paged.
import { z } from "zod";
import { publicUserSchema } from "./user.ts";

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
