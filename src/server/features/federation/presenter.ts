// A follower as their owner sees them.
import type { Follower } from "../../../contract/federation.ts";
import type { FollowerRow } from "./service.ts";

export function presentFollower(row: FollowerRow): Follower {
  return {
    id: row.id,
    actor: row.actorId,
    handle: row.handle,
    server: new URL(row.actorId).host,
    pending: row.pending,
    followedAt: row.createdAt.toISOString(),
  };
}
