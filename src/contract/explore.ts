// The explore page on the wire: members with their first prism, and popular prisms, paged. Each
// entry carries what the page shows of it, so that a page of ten stays small whatever members
// write: the names the page shows a member by, and a prism's excerpt as plain text.
import { z } from "zod";
import { publicUserSchema } from "./user.ts";

/**
 * A member as explore shows them: their name (see `displayName`), and their photo or initials.
 * First and last name are empty when a display name stands instead of them.
 */
const exploreMemberSchema = publicUserSchema.pick({
  id: true,
  username: true,
  firstName: true,
  lastName: true,
  displayName: true,
  profileImageUrl: true,
});
export type ExploreMember = z.infer<typeof exploreMemberSchema>;

/** People tab: a member and the prism at the top of their page (its excerpt: `previewOf`). */
export const exploreUserSchema = z.object({
  user: exploreMemberSchema,
  firstPrism: z.object({ title: z.string(), content: z.string() }).nullable(),
});
export type ExploreUser = z.infer<typeof exploreUserSchema>;

/** Prisms tab: a prism (its excerpt: `previewOf`) and its author. */
export const explorePrismSchema = z.object({
  user: exploreMemberSchema,
  prism: z.object({
    id: z.number().int(),
    title: z.string(),
    content: z.string(),
    heartsCount: z.number().int(),
  }),
});
export type ExplorePrism = z.infer<typeof explorePrismSchema>;
