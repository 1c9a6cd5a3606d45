// A member's followers on the fediverse, as their owner sees them.
import { z } from "zod";
import { idParam } from "./paging.ts";

export const followerSchema = z.object({
  id: z.number(),
  /** The follower's actor: the address of their account on their server. */
  actor: z.string(),
  /** Their handle (`@name@server`), when their server gave one. */
  handle: z.string().nullable(),
  followedAt: z.string(),
});
export type Follower = z.infer<typeof followerSchema>;

export const followerParams = z.object({ id: idParam });
