// A member's followers on the fediverse, as their owner sees them, and the reports other servers
// send about what Prism shows.
import { z } from "zod";
import { idParam } from "./paging.ts";

export const followerSchema = z.object({
  id: z.number(),
  /** The follower's actor: the address of their account on their server. */
  actor: z.string(),
  /** Their handle (`@name@server`), when their server gave one. */
  handle: z.string().nullable(),
  /** The server their account is on (its host). */
  server: z.string(),
  /** The follow waits for the owner to accept or decline it. */
  pending: z.boolean(),
  followedAt: z.string(),
});
export type Follower = z.infer<typeof followerSchema>;

export const followerParams = z.object({ id: idParam });

/** Which followers to list: those waiting, those accepted, or (left out) all, waiting ones first. */
export const followersQuerySchema = z.object({
  status: z.enum(["pending", "accepted"]).optional(),
});
export type FollowersQuery = z.infer<typeof followersQuerySchema>;
