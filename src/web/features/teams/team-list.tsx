// /teams: the signed-in member's teams, each a link to its page, and a form that creates one.
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Link, useLocation } from "wouter";
import { type TeamInput, teamInputSchema } from "../../../contract/teams.ts";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { Field } from "../../components/ui/field.tsx";
import { bindFields, Form, FormError, SubmitButton } from "../../components/ui/form.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { PageHead } from "../../lib/page-head.tsx";
import { teamHref } from "./team-href.ts";
import { useCreateTeam, useMyTeams } from "./teams-queries.ts";

export function TeamList() {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10">
      <PageHead title="Teams | Prism" robots="noindex, nofollow" path="/teams" />
      <h1 className="text-3xl font-semibold tracking-tight">Teams</h1>
      <p className="mt-2 text-muted-foreground">
        Teammates on Prism read each other's pages in one place.
      </p>
      <MyTeams />
      <CreateTeam />
    </div>
  );
}

function MyTeams() {
  const teams = useMyTeams();
  if (teams.isPending) return <PageSpinner />;
  if (teams.isError) {
    return (
      <LoadError
        className="mt-6"
        message={teams.error.message}
        onRetry={() => teams.refetch()}
        retrying={teams.isFetching}
      />
    );
  }
  if (teams.data.length === 0) {
    return (
      <div className="mt-6">
        <EmptyState
          title="No teams yet"
          description="Create a team below, or open an invite link a teammate sent you."
        />
      </div>
    );
  }
  return (
    <ul className="mt-6 grid gap-3" aria-label="Your teams">
      {teams.data.map((team) => (
        <li key={team.slug}>
          <Card className="flex flex-wrap items-baseline justify-between gap-2 p-4">
            <Link
              to={teamHref(team.slug)}
              className="font-medium min-w-0 [overflow-wrap:anywhere] underline-offset-4 hover:underline"
            >
              {team.name}
            </Link>
            <span className="text-sm text-muted-foreground">
              {team.role === "owner" ? "Owner" : "Member"} · {team.memberCount}{" "}
              {team.memberCount === 1 ? "member" : "members"}
            </span>
          </Card>
        </li>
      ))}
    </ul>
  );
}

function CreateTeam() {
  const [, navigate] = useLocation();
  const form = useForm<TeamInput>({
    resolver: zodResolver(teamInputSchema),
    defaultValues: { name: "" },
  });
  const field = bindFields(form);
  const create = useCreateTeam((team) => navigate(teamHref(team.slug)));
  return (
    <Card className="mt-8 p-6">
      <h2 id="create-team-heading" className="text-lg font-semibold">
        Create team
      </h2>
      <Form
        form={form}
        mutation={create}
        aria-labelledby="create-team-heading"
        className="mt-4 gap-4"
      >
        <Field label="Team name" autoComplete="off" {...field("name")} />
        <FormError />
        <div className="flex justify-end">
          <SubmitButton pending={create.isPending} pendingLabel="Creating...">
            Create team
          </SubmitButton>
        </div>
      </Form>
    </Card>
  );
}
