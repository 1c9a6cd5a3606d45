// /invites/{token}: where a team's invite link leads. A signed-in member joins as they open it;
// anyone else is asked to sign in or create an account, and comes back here to join.
import { Users } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useParams } from "wouter";
import { Button } from "../../components/ui/button.tsx";
import { FormPage } from "../../components/ui/form-page.tsx";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { SuccessPanel } from "../../components/ui/success-panel.tsx";
import { usePageAddress } from "../../lib/router.tsx";
import { rememberPage } from "../../lib/storage.ts";
import { useCurrentUser } from "../auth/auth-queries.ts";
import { teamHref } from "./team-href.ts";
import { useJoinTeam } from "./teams-queries.ts";

export function InvitePage() {
  const { token = "" } = useParams<{ token: string }>();
  const { user, isLoading } = useCurrentUser();
  return (
    <FormPage heading="Join a team" lead="Teammates on Prism read each other's pages in one place.">
      {isLoading ? <PageSpinner /> : user ? <Join token={token} /> : <SignInFirst />}
    </FormPage>
  );
}

/** Signing in, or creating an account, comes back to this page, which then joins. */
function SignInFirst() {
  const page = usePageAddress();
  const remember = () => rememberPage(page);
  return (
    <div className="grid gap-3">
      <p className="text-center">Sign in or create an account to join the team.</p>
      <Button asChild className="w-full">
        <Link to="/sign-in" onClick={remember}>
          Sign in
        </Link>
      </Button>
      <Button asChild variant="outline" className="w-full">
        <Link to="/sign-in?tab=register" onClick={remember}>
          Create account
        </Link>
      </Button>
    </div>
  );
}

function Join({ token }: { token: string }) {
  const join = useJoinTeam(token);
  const { user } = useCurrentUser();
  const asked = useRef(false);
  const { mutate } = join;
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);
  if (join.isSuccess) {
    const { joined, team } = join.data;
    return (
      <SuccessPanel
        icon={Users}
        message={joined ? `You joined ${team.name}.` : `You are already a member of ${team.name}.`}
        action={{ label: "Go to the team", to: teamHref(team.slug) }}
      />
    );
  }
  if (join.isError) {
    return (
      <div className="grid gap-3 text-center">
        <p role="alert">{join.error.message}</p>
        <Button asChild variant="outline" className="w-full">
          <Link to={`/${user?.username ?? ""}`}>Go to your page</Link>
        </Button>
      </div>
    );
  }
  return (
    <p className="text-center" role="status">
      Joining the team...
    </p>
  );
}
