// /{username}: a member's public page, their prisms, and the owner's edit mode. What the page
// remembers while open is in profile-state.ts; this file lays it out.

import type { QueryClient } from "@tanstack/react-query";
import { Eye, Flame, Highlighter, MessagesSquare, Pencil } from "lucide-react";
import { Suspense, useMemo } from "react";
import { useParams, useSearchParams } from "wouter";
import { cardAlt, cardContent, cardPath } from "../../../contract/cards.ts";
import { pagePath, prismLink, responseLink } from "../../../contract/feeds.ts";
import {
  displayName,
  fullName,
  profileDescription,
  profilePageTitle,
  shareTitle,
} from "../../../contract/names.ts";
import type { Prism } from "../../../contract/prisms.ts";
import type { PublicUser } from "../../../contract/user.ts";
import { Avatar } from "../../components/ui/avatar.tsx";
import { Button } from "../../components/ui/button.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { PageHead } from "../../lib/page-head.tsx";
import { AnnotationDialog, ResponsesSidebar } from "../annotations/annotation-parts.ts";
import { useProfileAnnotations } from "../annotations/annotation-queries.ts";
import { useCurrentUser } from "../auth/auth-queries.ts";
import { NotFoundPage } from "../errors/not-found-page.tsx";
import { CopyLinkButton } from "../prisms/copy-link-button.tsx";
import { PrismHistory } from "../prisms/owner-parts.ts";
import { PrismList } from "../prisms/prism-list.tsx";
import { prismsQuery, usePrisms } from "../prisms/prism-queries.ts";
import { deepLinkedPrism } from "../prisms/use-prism-deep-link.ts";
import { ThisWeekPanel } from "../resonance/resonance-parts.ts";
import { thisWeekQuery, useViewsBeacon } from "../resonance/resonance-queries.ts";
import { ProfileLinks } from "./profile-links.tsx";
import { profileQuery, useProfile } from "./profile-queries.ts";
import { PrismListSkeleton, ProfileSkeleton } from "./profile-skeleton.tsx";
import {
  useHighlights,
  useOpenPrism,
  usePrismHistory,
  useResonanceMap,
  useResponses,
} from "./profile-state.ts";

/**
 * Fetches a member's own page into the cache (sign-in does, before showing it): their profile,
 * their prisms, and their "This week" with its code, so that it does not move their prisms down
 * as it arrives. Never fails: a read that failed is read again by the page.
 */
export function prefetchOwnPage(client: QueryClient, username: string): Promise<unknown> {
  return Promise.all([
    client.prefetchQuery(profileQuery(username)),
    client.prefetchQuery(prismsQuery(username)),
    client.prefetchQuery(thisWeekQuery),
    ThisWeekPanel.preload().catch(() => undefined),
  ]);
}

export function ProfilePage() {
  const { username = "" } = useParams();
  const profile = useProfile(username);

  if (profile.isPending) return <ProfileSkeleton />;
  if (profile.data === null) return <NotFoundPage />;
  // A refetch that failed keeps the member shown (the page says why elsewhere, and catches up).
  if (profile.isLoadingError) {
    return (
      <div role="alert" className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-xl font-semibold">Error loading profile</h1>
        <p className="mt-2 text-muted-foreground">{profile.error.message}</p>
      </div>
    );
  }
  return <Profile key={profile.data.id} owner={profile.data} />;
}

/**
 * What a link to the page embeds on another site: the response it names (its oEmbed answer is
 * there only once the response is approved), else the prism, else the page.
 */
function embedOf(username: string, linked: Prism | undefined, annotation: string | null): string {
  if (annotation !== null && /^\d{1,10}$/.test(annotation)) {
    return responseLink(username, Number(annotation));
  }
  return linked ? prismLink(username, linked.id) : pagePath(username);
}

/** The page's head: title, description, and the card a link to it (or to one prism) shows. */
function ProfileHead({ owner, prisms }: { owner: PublicUser; prisms: Prism[] | undefined }) {
  const { prismSlug } = useParams();
  const [searchParams] = useSearchParams();
  // A link to one prism unfurls with that prism's card; the page's own shows its first prism.
  const linked = deepLinkedPrism(prisms ?? [], prismSlug, searchParams.get("prism"));
  const cardPrism = linked ?? prisms?.[0] ?? null;
  // Its excerpt reads the prism's whole text: once per prism, not at every render of the page.
  const card = useMemo(() => cardContent(owner, cardPrism), [owner, cardPrism]);
  return (
    <PageHead
      title={profilePageTitle(owner)}
      description={profileDescription(owner, prisms?.[0]?.title ?? null, prisms?.length ?? 0)}
      path={`/${encodeURIComponent(owner.username)}`}
      // An unlisted page is reached by its link alone: search engines neither index nor follow it.
      robots={owner.listed ? undefined : "noindex, nofollow"}
      profile={{
        username: owner.username,
        name: fullName(owner),
        shareTitle: shareTitle(owner),
        card: { path: cardPath(owner.username, linked?.id ?? null, card), alt: cardAlt(card) },
        // Only the head the server sends names the embed (see PageHead): no script needs it.
        embed: import.meta.env.SSR
          ? embedOf(owner.username, linked, searchParams.get("annotation"))
          : "",
        verifiedWebsite: owner.websiteVerified ? owner.websiteUrl : null,
      }}
    />
  );
}

function Profile({ owner }: { owner: PublicUser }) {
  const { user, isLoading: userLoading } = useCurrentUser();
  const prisms = usePrisms(owner.username);
  const isOwner = user?.username.toLowerCase() === owner.username.toLowerCase();
  const view = useOpenPrism(prisms.data, isOwner);

  const prismIds = (prisms.data ?? []).map((p) => p.id);
  // A prism open and in view of someone other than its owner counts a read.
  useViewsBeacon(view.activeId, !userLoading && !isOwner);

  const resonance = useResonanceMap(view.setActiveId);
  const annotations = useProfileAnnotations(prismIds);
  const approvedCount = [...annotations.byPrism.values()]
    .flat()
    .filter((a) => a.status === "approved").length;
  const highlights = useHighlights(isOwner, approvedCount);
  const responses = useResponses(owner.username, prisms.data, view.readPrism);
  const { history, historyPrism, openHistory, setOpen } = usePrismHistory(
    prisms.data,
    responses.closeSidebar,
  );
  const { sidebar } = responses;

  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <ProfileHead owner={owner} prisms={prisms.data} />

      <header className="flex flex-col items-center gap-4 text-center sm:flex-row sm:items-start sm:text-left">
        <Avatar user={owner} size={80} className="size-20 text-2xl" />
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-semibold tracking-tight">{fullName(owner)}</h1>
          <p className="mt-1 text-muted-foreground">@{owner.username}</p>
          <ProfileLinks owner={owner} />
        </div>
        <div className="flex flex-wrap justify-center gap-2">
          <CopyLinkButton
            path={`/${encodeURIComponent(owner.username)}`}
            label="Copy link to this page"
          />
          {highlights.offered ? (
            <Button
              variant="outline"
              size="sm"
              aria-pressed={highlights.on}
              onClick={highlights.toggle}
            >
              <Highlighter aria-hidden="true" />
              {highlights.on ? "Hide Highlights" : "Show Highlights"} ({approvedCount})
            </Button>
          ) : null}
          {isOwner && approvedCount > 0 ? (
            <span className="inline-flex h-8 items-center gap-1.5 px-2 text-sm text-muted-foreground">
              <MessagesSquare className="size-4" aria-hidden="true" />
              {approvedCount === 1 ? "1 annotation" : `${approvedCount} annotations`}
            </span>
          ) : null}
          {isOwner ? (
            <Button
              variant={resonance.on ? "secondary" : "outline"}
              size="sm"
              aria-pressed={resonance.on}
              onClick={() => resonance.setOn(!resonance.on)}
            >
              <Flame aria-hidden="true" />
              Resonance
            </Button>
          ) : null}
          {isOwner ? (
            <Button
              variant={view.editMode ? "default" : "outline"}
              size="sm"
              aria-pressed={view.editMode}
              onClick={() => view.setEditMode(!view.editMode)}
            >
              {view.editMode ? <Pencil aria-hidden="true" /> : <Eye aria-hidden="true" />}
              {view.editMode ? "Editing" : "Viewing"}
            </Button>
          ) : null}
        </div>
      </header>

      {isOwner ? (
        <Suspense fallback={null}>
          <ThisWeekPanel onShowOnMap={resonance.showOnMap} />
        </Suspense>
      ) : null}

      <div className="mt-10">
        {prisms.isPending ? (
          <PrismListSkeleton />
        ) : prisms.isLoadingError ? (
          <LoadError
            message="There was an error loading prisms. Please try again later."
            onRetry={() => void prisms.refetch()}
            retrying={prisms.isFetching}
          />
        ) : (
          <PrismList
            owner={owner}
            prisms={prisms.data}
            isOwner={isOwner}
            editMode={view.editMode}
            activeId={view.activeId}
            onActiveChange={view.setActiveId}
            annotations={annotations.byPrism}
            highlights={highlights.on}
            onAnnotate={responses.respond}
            onOpenResponses={responses.openSidebar}
            onOpenAnnotation={responses.openAnnotation}
            onOpenHistory={(prismId) => openHistory(prismId, null)}
            resonance={resonance.on}
          />
        )}
      </div>
      <AnnotationDialog
        target={responses.target}
        onClose={responses.closeDialog}
        onCreated={responses.responded}
      />
      <ResponsesSidebar
        open={sidebar !== null}
        onOpenChange={(open) => !open && responses.closeSidebar()}
        prismTitle={responses.sidebarPrism?.title ?? ""}
        annotations={sidebar ? (annotations.byPrism.get(sidebar.prismId) ?? []) : []}
        loadFailed={sidebar !== null && annotations.failed.has(sidebar.prismId)}
        onRetry={() => sidebar && annotations.retry(sidebar.prismId)}
        retrying={annotations.retrying}
        focusId={sidebar?.focusId ?? null}
        owner={{ name: displayName(owner), isViewer: isOwner }}
        onOpenRevision={
          isOwner && sidebar ? (revision) => openHistory(sidebar.prismId, revision) : undefined
        }
      />
      {isOwner && history && historyPrism ? (
        <PrismHistory
          key={history.opening}
          prism={historyPrism}
          username={owner.username}
          open={history.open}
          onOpenChange={setOpen}
          initialNumber={history.number}
        />
      ) : null}
    </article>
  );
}
