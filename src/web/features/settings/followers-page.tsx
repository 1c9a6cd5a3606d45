// /profile/followers: who follows the member from the fediverse. Follows waiting for the member
// come first, each with Accept and Decline; then their followers, each with Remove (asked first).
import type { ReactNode } from "react";
import { Link } from "wouter";
import type { Follower } from "../../../contract/federation.ts";
import { ConfirmDialog } from "../../components/ui/alert-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { useCurrentUser } from "../auth/auth-queries.ts";
import {
  followerName,
  useAcceptFollower,
  useFollowers,
  useRemoveFollower,
} from "./settings-queries.ts";

export function FollowersPage() {
  const { user } = useCurrentUser();
  const followers = useFollowers();
  if (!user) return null;
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <p className="text-sm">
        <Link to="/profile" className="text-primary underline underline-offset-4">
          Profile Settings
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight">Followers on the fediverse</h1>
      <p className="mt-2 text-muted-foreground">
        People on Mastodon and other fediverse servers who follow you see your public prisms there.
        {user.federated
          ? null
          : " Follow from the fediverse is off in Profile Settings, so nobody can follow you now."}
      </p>
      {followers.isPending ? (
        <div role="status" aria-label="Loading followers..." className="mt-8 grid gap-3">
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
        </div>
      ) : followers.isError ? (
        <div className="mt-8">
          <LoadError
            message="We couldn't load your followers."
            onRetry={() => void followers.refetch()}
            retrying={followers.isFetching}
          />
        </div>
      ) : (
        <FollowerLists followers={followers.data} />
      )}
    </div>
  );
}

/** The waiting follows, then the followers, with how many of each. */
export function FollowerLists({ followers }: { followers: Follower[] }) {
  const waiting = followers.filter((follower) => follower.pending);
  const accepted = followers.filter((follower) => !follower.pending);
  return (
    <>
      {waiting.length > 0 ? (
        <section aria-labelledby="waiting-heading" className="mt-8">
          <h2 id="waiting-heading" className="text-lg font-semibold">
            Waiting for you ({waiting.length})
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            They see your prisms once you accept them.
          </p>
          <ul className="mt-3 grid gap-3">
            {waiting.map((follower) => (
              <FollowerRow key={follower.id} follower={follower}>
                <WaitingActions follower={follower} />
              </FollowerRow>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="followers-heading" className="mt-8">
        <h2 id="followers-heading" className="text-lg font-semibold">
          {accepted.length === 1 ? "1 follower" : `${accepted.length} followers`}
        </h2>
        {accepted.length === 0 ? (
          <p className="mt-1 text-sm text-muted-foreground">
            Nobody follows you from the fediverse yet.
          </p>
        ) : (
          <ul className="mt-3 grid gap-3">
            {accepted.map((follower) => (
              <FollowerRow key={follower.id} follower={follower}>
                <RemoveFollower follower={follower} />
              </FollowerRow>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** One follower: their handle, linked to their account, and their server; then its buttons. */
function FollowerRow({ follower, children }: { follower: Follower; children: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-xl border border-border p-4">
      <div className="min-w-0 flex-1">
        <a
          href={follower.actor}
          rel="nofollow noopener noreferrer"
          className="block break-all font-medium text-primary underline-offset-4 hover:underline"
        >
          {followerName(follower)}
        </a>
        <p className="text-sm text-muted-foreground">on {follower.server}</p>
      </div>
      <div className="flex gap-2">{children}</div>
    </li>
  );
}

function WaitingActions({ follower }: { follower: Follower }) {
  const accept = useAcceptFollower();
  const decline = useRemoveFollower();
  const busy = accept.isPending || decline.isPending;
  const name = followerName(follower);
  return (
    <>
      <Button size="sm" disabled={busy} onClick={() => accept.mutate(follower)}>
        Accept <span className="sr-only">{name}</span>
      </Button>
      <Button size="sm" variant="outline" disabled={busy} onClick={() => decline.mutate(follower)}>
        Decline <span className="sr-only">{name}</span>
      </Button>
    </>
  );
}

function RemoveFollower({ follower }: { follower: Follower }) {
  const remove = useRemoveFollower();
  const name = followerName(follower);
  return (
    <ConfirmDialog
      title={`Remove ${name}?`}
      description="Their server is told that they no longer follow you, and they stop receiving your prisms. They can follow you again."
      actionLabel="Remove"
      destructive
      onConfirm={() => remove.mutate(follower)}
    >
      <Button size="sm" variant="outline" disabled={remove.isPending}>
        Remove <span className="sr-only">{name}</span>
      </Button>
    </ConfirmDialog>
  );
}
