// /{username}: a member's public page, their prisms, and the owner's edit mode.
import { Eye, Flame, Globe, Highlighter, MessagesSquare, Pencil } from "lucide-react";
import { Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "wouter";
import { cardAlt, cardContent, cardPath } from "../../../contract/cards.ts";
import {
  displayName,
  fullName,
  profileDescription,
  profilePageTitle,
  shareTitle,
} from "../../../contract/names.ts";
import { isHttpUrl } from "../../../contract/url.ts";
import type { PublicUser } from "../../../contract/user.ts";
import { Avatar } from "../../components/ui/avatar.tsx";
import { Button } from "../../components/ui/button.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { whenIdle } from "../../lib/hydration.ts";
import { setHighlightsControl } from "../../lib/page-controls.ts";
import { PageHead } from "../../lib/page-head.tsx";
import { storageKeys } from "../../lib/storage.ts";
import type { AnnotationTarget } from "../annotations/annotation-dialog.tsx";
import { AnnotationDialog, ResponsesSidebar } from "../annotations/annotation-parts.ts";
import { useProfileAnnotations } from "../annotations/annotation-queries.ts";
import { useAnnotationLinks } from "../annotations/use-annotation-links.ts";
import { useCurrentUser } from "../auth/auth-queries.ts";
import { NotFoundPage } from "../errors/not-found-page.tsx";
import { CopyLinkButton } from "../prisms/copy-link-button.tsx";
import { PrismHistory } from "../prisms/owner-parts.ts";
import { PrismList } from "../prisms/prism-list.tsx";
import { usePrisms } from "../prisms/prism-queries.ts";
import { deepLinkedPrism, usePrismDeepLink } from "../prisms/use-prism-deep-link.ts";
import { ThisWeekPanel } from "../resonance/resonance-parts.ts";
import { useViewsBeacon } from "../resonance/resonance-queries.ts";
import { useProfile } from "./profile-queries.ts";
import { PrismListSkeleton, ProfileSkeleton } from "./profile-skeleton.tsx";

function LinkedInMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4 fill-current">
      <path d="M20.45 20.45h-3.56v-5.57c0-1.33-.02-3.04-1.85-3.04-1.86 0-2.14 1.45-2.14 2.94v5.67H9.35V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28ZM5.34 7.43a2.06 2.06 0 1 1 0-4.13 2.06 2.06 0 0 1 0 4.13ZM7.12 20.45H3.56V9h3.56v11.45ZM22.22 0H1.77C.79 0 0 .77 0 1.73v20.54C0 23.23.79 24 1.77 24h20.45c.98 0 1.78-.77 1.78-1.73V1.73C24 .77 23.2 0 22.22 0Z" />
    </svg>
  );
}

function XMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4 fill-current">
      <path d="M18.9 1.2h3.7l-8 9.2L24 22.8h-7.4l-5.8-7.6-6.6 7.6H.5L9 13 0 1.2h7.6l5.2 6.9 6.1-6.9Zm-1.3 19.4h2L6.5 3.3H4.3l13.3 17.3Z" />
    </svg>
  );
}

function readHighlightsPreference(): boolean {
  try {
    return localStorage.getItem(storageKeys.highlights) === "true";
  } catch {
    return false;
  }
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

function Profile({ owner }: { owner: PublicUser }) {
  const { user, isLoading: userLoading } = useCurrentUser();
  const prisms = usePrisms(owner.username);
  const { prismSlug } = useParams();
  const [searchParams] = useSearchParams();
  const isOwner = user?.username.toLowerCase() === owner.username.toLowerCase();
  // The owner starts in edit mode; opening a deep link switches to view mode.
  const [editPreference, setEditPreference] = useState<boolean | null>(null);
  const editMode = isOwner && (editPreference ?? true);
  // Until the visitor opens or closes a section, the first one is open.
  const [chosen, setChosen] = useState<{ id: number | null } | null>(null);
  const activeId = chosen ? chosen.id : (prisms.data?.[0]?.id ?? null);

  usePrismDeepLink(prisms.data, (prismId) => {
    setChosen({ id: prismId });
    if (isOwner) setEditPreference(false);
  });

  const prismIds = (prisms.data ?? []).map((p) => p.id);
  // Once the page has shown its prisms to someone other than their owner, they count a view.
  useViewsBeacon(prisms.data && prismIds, !userLoading && !isOwner);

  // The owner's resonance map, off until they turn it on; "This week" turns it on for one prism.
  const [resonance, setResonance] = useState(false);
  const [shownOnMap, setShownOnMap] = useState<{ id: number } | null>(null);
  function showOnMap(prismId: number) {
    setResonance(true);
    setChosen({ id: prismId });
    setShownOnMap({ id: prismId });
  }
  // Once that prism is open, it comes into view with the keyboard's focus on its title.
  useEffect(() => {
    if (!shownOnMap) return;
    const section = document.getElementById(`prism-${shownOnMap.id}`);
    section?.querySelector<HTMLButtonElement>("button[aria-expanded]")?.focus();
    section?.scrollIntoView({ block: "start" });
    setShownOnMap(null);
  }, [shownOnMap]);
  const annotations = useProfileAnnotations(prismIds);
  const approvedCount = [...annotations.byPrism.values()]
    .flat()
    .filter((a) => a.status === "approved").length;
  // Highlights are for visitors: their choice is remembered and starts off. Owners see the
  // count, and their responses in the Responses sidebar.
  const [highlightsChosen, setHighlightsChosen] = useState<boolean | null>(null);
  // Read once mounted: the page may come rendered from the server, which knows no preference. A
  // choice the visitor made meanwhile stands.
  useEffect(
    () => whenIdle(() => setHighlightsChosen((chosen) => chosen ?? readHighlightsPreference())),
    [],
  );
  const highlights = !isOwner && (highlightsChosen ?? false);
  function toggleHighlights() {
    setHighlightsChosen(!highlights);
    try {
      localStorage.setItem(storageKeys.highlights, String(!highlights));
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this page only.
    }
  }

  const toggleRef = useRef(toggleHighlights);
  toggleRef.current = toggleHighlights;
  const offersHighlights = !isOwner && approvedCount > 0;
  useEffect(() => {
    setHighlightsControl(
      offersHighlights
        ? { count: approvedCount, on: highlights, toggle: () => toggleRef.current() }
        : null,
    );
  }, [offersHighlights, approvedCount, highlights]);
  useEffect(() => () => setHighlightsControl(null), []);

  const [target, setTarget] = useState<AnnotationTarget | null>(null);
  const [sidebar, setSidebar] = useState<{ prismId: number; focusId: number | null } | null>(null);
  const sidebarPrism = prisms.data?.find((p) => p.id === sidebar?.prismId);

  function openAnnotation(prismId: number, annotationId: number) {
    setChosen({ id: prismId });
    if (isOwner) setEditPreference(false);
    setSidebar({ prismId, focusId: annotationId });
  }
  useAnnotationLinks(owner.username, prisms.data !== undefined, openAnnotation);

  // The owner's History of one prism, at its current version or at a response's; each opening
  // starts afresh.
  const [history, setHistory] = useState<{
    prismId: number;
    number: number | null;
    opening: number;
    open: boolean;
  } | null>(null);
  const historyPrism = prisms.data?.find((p) => p.id === history?.prismId);
  function openHistory(prismId: number, number: number | null) {
    setSidebar(null);
    setHistory((last) => ({ prismId, number, opening: (last?.opening ?? 0) + 1, open: true }));
  }

  const title = fullName(owner);
  // A link to one prism unfurls with that prism's card; the page's own shows its first prism.
  const linked = deepLinkedPrism(prisms.data ?? [], prismSlug, searchParams.get("prism"));
  const cardPrism = linked ?? prisms.data?.[0] ?? null;
  // Its excerpt reads the prism's whole text: once per prism, not at every render of the page.
  const card = useMemo(() => cardContent(owner, cardPrism), [owner, cardPrism]);
  const description = profileDescription(
    owner,
    prisms.data?.[0]?.title ?? null,
    prisms.data?.length ?? 0,
  );
  const links = [
    {
      href: owner.websiteUrl,
      label: "Website",
      icon: <Globe className="size-4" aria-hidden="true" />,
    },
    { href: owner.twitterUrl, label: "X", icon: <XMark /> },
    { href: owner.linkedinUrl, label: "LinkedIn", icon: <LinkedInMark /> },
    // Only http(s) links are ever stored; one that is not is not shown either.
  ].filter((link): link is typeof link & { href: string } => isHttpUrl(link.href ?? ""));

  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <PageHead
        title={profilePageTitle(owner)}
        description={description}
        path={`/${encodeURIComponent(owner.username)}`}
        profile={{
          username: owner.username,
          shareTitle: shareTitle(owner),
          card: { path: cardPath(owner.username, linked?.id ?? null, card), alt: cardAlt(card) },
        }}
      />

      <header className="flex flex-col items-center gap-4 text-center sm:flex-row sm:items-start sm:text-left">
        <Avatar user={owner} className="size-20 text-2xl" />
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
          <p className="mt-1 text-muted-foreground">@{owner.username}</p>
          {links.length > 0 ? (
            <ul className="mt-3 flex justify-center gap-2 sm:justify-start">
              {links.map((link) => (
                <li key={link.label}>
                  <a
                    href={link.href}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    aria-label={`${link.label} (opens in a new tab)`}
                    className="inline-flex size-9 items-center justify-center rounded-full border border-border text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
                  >
                    {link.icon}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="flex flex-wrap justify-center gap-2">
          <CopyLinkButton
            path={`/${encodeURIComponent(owner.username)}`}
            label="Copy link to this page"
          />
          {offersHighlights ? (
            <Button
              variant="outline"
              size="sm"
              aria-pressed={highlights}
              onClick={toggleHighlights}
            >
              <Highlighter aria-hidden="true" />
              {highlights ? "Hide Highlights" : "Show Highlights"} ({approvedCount})
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
              variant={resonance ? "secondary" : "outline"}
              size="sm"
              aria-pressed={resonance}
              onClick={() => setResonance(!resonance)}
            >
              <Flame aria-hidden="true" />
              Resonance
            </Button>
          ) : null}
          {isOwner ? (
            <Button
              variant={editMode ? "default" : "outline"}
              size="sm"
              aria-pressed={editMode}
              onClick={() => setEditPreference(!editMode)}
            >
              {editMode ? <Pencil aria-hidden="true" /> : <Eye aria-hidden="true" />}
              {editMode ? "Editing" : "Viewing"}
            </Button>
          ) : null}
        </div>
      </header>

      {isOwner ? (
        <Suspense fallback={null}>
          <ThisWeekPanel onShowOnMap={showOnMap} />
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
            editMode={editMode}
            activeId={activeId}
            onActiveChange={(id) => setChosen({ id })}
            annotations={annotations.byPrism}
            highlights={highlights}
            onAnnotate={setTarget}
            onOpenResponses={(prismId) => setSidebar({ prismId, focusId: null })}
            onOpenAnnotation={openAnnotation}
            onOpenHistory={(prismId) => openHistory(prismId, null)}
            resonance={resonance}
          />
        )}
      </div>
      <AnnotationDialog
        target={target}
        onClose={() => setTarget(null)}
        onCreated={(annotation) => {
          setTarget(null);
          setSidebar({ prismId: annotation.prismId, focusId: annotation.id });
        }}
      />
      <ResponsesSidebar
        open={sidebar !== null}
        onOpenChange={(open) => !open && setSidebar(null)}
        prismTitle={sidebarPrism?.title ?? ""}
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
          onOpenChange={(open) => setHistory({ ...history, open })}
          initialNumber={history.number}
        />
      ) : null}
    </article>
  );
}
