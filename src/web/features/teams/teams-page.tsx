// The teams pages, in one script: /invites/{token}, where an invite link leads; /teams, the
// signed-in member's teams; and /teams/{slug}, one team's page. The last two load their own
// script when shown, so that the app's entry, which every visitor loads, names no more of them.
import { useParams } from "wouter";
import { lazyComponent } from "../../app/stale-scripts.ts";
import { InvitePage } from "./invite.tsx";

const TeamList = lazyComponent(() => import("./team-list.tsx"), "TeamList");
const TeamPage = lazyComponent(() => import("./team-view.tsx"), "TeamPage");

export function TeamsPage() {
  const { token, slug } = useParams<{ token?: string; slug?: string }>();
  if (token !== undefined) return <InvitePage />;
  return slug ? <TeamPage slug={slug} /> : <TeamList />;
}
