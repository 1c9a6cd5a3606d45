// /teams/{slug}: a team as its members see it. Every member with their prisms, each a link to it
// on the member's page, those a teammate changed since the member last looked marked "New"; the
// member's own count of responses waiting for them; its owners make, copy and revoke invite links
// and remove members; anyone leaves. Anyone not in the team gets the not-found page, as for a team that does not exist.
import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { prismLink } from "../../../contract/feeds.ts";
import { displayName } from "../../../contract/names.ts";
import type { TeamPage as Team } from "../../../contract/teams.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { copyLink } from "../../lib/clipboard.ts";
import { PageHead } from "../../lib/page-head.tsx";
import { useCurrentUser } from "../auth/auth-queries.ts";
import { NotFoundPage } from "../errors/not-found-page.tsx";
import { teamHref } from "./team-href.ts";
import {
  useCreateInvite,
  useMarkTeamSeen,
  useOpenInvites,
  useRemoveMember,
  useRevokeInvite,
  useTeam,
} from "./teams-queries.ts";

type Member = Team["members"][number];

export function TeamPage({ slug }: { slug: string }) {
  const team = useTeam(slug);
  if (team.isPending || team.isError) return <PageSpinner />;
  if (team.data === null) return <NotFoundPage />;
  return <TeamView team={team.data} />;
}

/**
 * The prisms marked new when the page opened stay marked while it is open, whatever a refetch
 * says after the visit was recorded; the visit is recorded once per page.
 */
function useNewSinceLastLook(team: Team): (prismId: number) => boolean {
  const [marked] = useState(
    () =>
      new Set(
        team.members.flatMap((member) => member.prisms.filter((p) => p.isNew).map((p) => p.id)),
      ),
  );
  const { mutate } = useMarkTeamSeen(team.slug);
  useEffect(() => mutate(), [mutate]);
  return (prismId) => marked.has(prismId);
}

function TeamView({ team }: { team: Team }) {
  const owner = team.role === "owner";
  const isNew = useNewSinceLastLook(team);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10">
      <PageHead
        title={`${team.name} | Prism`}
        robots="noindex, nofollow"
        path={teamHref(team.slug)}
      />
      <p className="text-sm text-muted-foreground">
        <Link to="/teams" className="underline-offset-4 hover:underline">
          Teams
        </Link>
      </p>
      <h1 className="mt-1 text-3xl font-semibold tracking-tight min-w-0 [overflow-wrap:anywhere]">
        {team.name}
      </h1>
      <p className="mt-2 text-muted-foreground">
        You are {owner ? "an owner" : "a member"} of this team · {team.members.length}{" "}
        {team.members.length === 1 ? "member" : "members"}
      </p>
      <section aria-labelledby="members-heading" className="mt-8">
        <h2 id="members-heading" className="text-xl font-semibold">
          Members
        </h2>
        <ul className="mt-4 grid gap-4">
          {team.members.map((member) => (
            <li key={member.username}>
              <MemberCard slug={team.slug} member={member} canRemove={owner} isNew={isNew} />
            </li>
          ))}
        </ul>
      </section>
      {owner ? <InviteLinks slug={team.slug} /> : null}
      <Leave slug={team.slug} />
    </div>
  );
}

function MemberCard({
  slug,
  member,
  canRemove,
  isNew,
}: {
  slug: string;
  member: Member;
  canRemove: boolean;
  isNew: (prismId: number) => boolean;
}) {
  const { user } = useCurrentUser();
  const self = user?.username.toLowerCase() === member.username.toLowerCase();
  const name = displayName(member);
  const headingId = `member-${member.username}`;
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="min-w-0 font-medium [overflow-wrap:anywhere]">
          <Link
            to={`/${encodeURIComponent(member.username)}`}
            className="underline-offset-4 hover:underline"
          >
            {name}
          </Link>{" "}
          <span className="text-sm font-normal text-muted-foreground">@{member.username}</span>
        </h3>
        <span className="text-sm text-muted-foreground">
          {member.role === "owner" ? "Owner" : "Member"}
        </span>
      </div>
      {member.waitingCount !== null ? <Waiting count={member.waitingCount} /> : null}
      {member.prisms.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">No prisms yet.</p>
      ) : (
        <ul className="mt-2 grid gap-1" aria-label={`${name}'s prisms`}>
          {member.prisms.map((prism) => (
            <li key={prism.id} className="flex min-w-0 flex-wrap items-center gap-2">
              <Link
                to={prismLink(member.username, prism.id)}
                className="min-w-0 text-primary underline-offset-4 [overflow-wrap:anywhere] hover:underline"
              >
                {prism.title}
              </Link>
              {isNew(prism.id) ? (
                <Badge tone="primary">
                  New<span className="sr-only"> since you last looked</span>
                </Badge>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canRemove && !self ? <RemoveMember slug={slug} member={member} name={name} /> : null}
    </Card>
  );
}

/** The member's own count of responses waiting for their review: shown to them alone. */
function Waiting({ count }: { count: number }) {
  if (count === 0) {
    return <p className="mt-2 text-sm text-muted-foreground">No responses waiting for you.</p>;
  }
  return (
    <p className="mt-2 text-sm">
      <Link to="/review" className="text-primary underline-offset-4 hover:underline">
        {count.toLocaleString("en")} {count === 1 ? "response" : "responses"} waiting for you
      </Link>
    </p>
  );
}

function RemoveMember({ slug, member, name }: { slug: string; member: Member; name: string }) {
  const remove = useRemoveMember(slug);
  return (
    <div className="mt-3 flex flex-wrap items-center justify-end gap-2">
      {remove.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {remove.error.message}
        </p>
      ) : null}
      <Button
        variant="outline"
        size="sm"
        disabled={remove.isPending}
        onClick={() => remove.mutate(member.username)}
        aria-label={`Remove ${name} from the team`}
      >
        Remove
      </Button>
    </div>
  );
}

function InviteLinks({ slug }: { slug: string }) {
  const create = useCreateInvite(slug);
  const invites = useOpenInvites(slug);
  const revoke = useRevokeInvite(slug);
  return (
    <section aria-labelledby="invites-heading" className="mt-10">
      <h2 id="invites-heading" className="text-xl font-semibold">
        Invite links
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Anyone with a link joins the team as a member: up to 50 people, within 7 days.
      </p>
      <div className="mt-4 grid gap-3">
        <div>
          <Button onClick={() => create.mutate()} disabled={create.isPending}>
            Create invite link
          </Button>
        </div>
        {create.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {create.error.message}
          </p>
        ) : null}
        {create.data ? (
          <div className="grid gap-1.5">
            <Label htmlFor="new-invite-link">New invite link (shown this once)</Label>
            <div className="flex flex-wrap gap-2">
              <Input
                id="new-invite-link"
                readOnly
                value={create.data.url}
                className="min-w-0 flex-1 basis-56"
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button variant="outline" onClick={() => copyLink(create.data.url)}>
                Copy link
              </Button>
            </div>
          </div>
        ) : null}
      </div>
      <h3 className="mt-6 font-medium">Open links</h3>
      {invites.isPending ? (
        <PageSpinner />
      ) : invites.isError ? (
        <LoadError
          className="mt-2"
          message={invites.error.message}
          onRetry={() => invites.refetch()}
          retrying={invites.isFetching}
        />
      ) : invites.data.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">No open invite links.</p>
      ) : (
        <ul className="mt-2 grid gap-2" aria-label="Open invite links">
          {invites.data.map((invite) => (
            <li key={invite.id}>
              <Card className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
                <span className="min-w-0 [overflow-wrap:anywhere]">
                  {invite.createdBy ? `Made by @${invite.createdBy}` : "Made by a former member"} ·{" "}
                  {invite.uses} of {invite.maxUses} used · expires{" "}
                  {new Date(invite.expiresAt).toLocaleDateString("en", { dateStyle: "medium" })}
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(invite.id)}
                  aria-label={`Revoke the link made ${new Date(invite.createdAt).toLocaleString("en")}`}
                >
                  Revoke
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {revoke.isError ? (
        <p role="alert" className="mt-2 text-sm text-destructive">
          {revoke.error.message}
        </p>
      ) : null}
    </section>
  );
}

function Leave({ slug }: { slug: string }) {
  const { user } = useCurrentUser();
  const [, navigate] = useLocation();
  const leave = useRemoveMember(slug, () => navigate("/teams"));
  if (!user) return null;
  return (
    <section aria-labelledby="leave-heading" className="mt-10 border-t pt-6">
      <h2 id="leave-heading" className="sr-only">
        Leave the team
      </h2>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="outline"
          disabled={leave.isPending}
          onClick={() => leave.mutate(user.username)}
          aria-describedby={leave.isError ? "leave-error" : undefined}
        >
          Leave
        </Button>
        {leave.isError ? (
          <p id="leave-error" role="alert" className="text-sm text-destructive">
            {leave.error.message}
          </p>
        ) : null}
      </div>
    </section>
  );
}
