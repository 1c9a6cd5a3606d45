// /explore: members and the first prism on their page, and the most-hearted prisms, ten a page.
import { Heart, type LucideIcon, Sparkles, Users } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link, useSearchParams } from "wouter";
import type { ExplorePrism, ExploreUser } from "../../../contract/explore.ts";
import { displayName } from "../../../contract/names.ts";
import { prismPath } from "../../../contract/slug.ts";
import { Avatar } from "../../components/ui/avatar.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs.tsx";
import { readPage } from "../../lib/paging.ts";
import {
  EXPLORE_PAGE_SIZE,
  type ExploreEntries,
  type ExploreTab,
  useExploreList,
} from "./explore-queries.ts";

const SKELETON_ROWS = 5;
const LOAD_ERROR = "There was an error loading the explore page. Please try again later.";

interface Section<T extends ExploreTab> {
  label: string;
  icon: LucideIcon;
  title: string;
  description: string;
  empty: string;
  Row: (props: { entry: ExploreEntries[T] }) => ReactNode;
  keyOf: (entry: ExploreEntries[T]) => number;
}

/** Each tab: its trigger, its heading, its empty state, and how one entry shows. */
const sections: { [T in ExploreTab]: Section<T> } = {
  people: {
    label: "People",
    icon: Users,
    title: "Members & Their Ideas",
    description: "Recently active members and the first prism on their page.",
    empty: "No users found to explore.",
    Row: PersonRow,
    keyOf: (entry) => entry.user.id,
  },
  prisms: {
    label: "Prisms",
    icon: Sparkles,
    title: "Popular Prisms",
    description: "The most-hearted prisms, newest first among equals.",
    empty: "No prisms found to explore.",
    Row: PrismRow,
    keyOf: (entry) => entry.prism.id,
  },
};
const tabs = ["people", "prisms"] as const;

const heartsLabel = (count: number) => `${count} ${count === 1 ? "heart" : "hearts"}`;

export function ExplorePage() {
  // Tab and page live in the URL, so that coming back from a profile returns to the same page.
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: ExploreTab = searchParams.get("tab") === "prisms" ? "prisms" : "people";
  const page = readPage(searchParams.get("page"));

  function handleTabChange(value: string) {
    setSearchParams(value === "prisms" ? { tab: "prisms" } : {}, { replace: true });
  }

  function handlePageChange(next: number) {
    const params: Record<string, string> = next > 1 ? { page: String(next) } : {};
    if (tab === "prisms") params.tab = "prisms";
    setSearchParams(params, { replace: true });
    window.scrollTo({ top: 0 });
  }

  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <header className="text-center">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">
          Explore <span className="prism-gradient-text">Prism</span>
        </h1>
        <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
          Meet members through their ideas, and read the prisms people love most.
        </p>
      </header>

      <Tabs value={tab} onValueChange={handleTabChange} className="mt-10">
        <div className="flex justify-center">
          <TabsList className="max-w-sm">
            {tabs.map((name) => {
              const { label, icon: Icon } = sections[name];
              return (
                <TabsTrigger key={name} value={name} className="flex-1 gap-2">
                  <Icon aria-hidden="true" className="size-4" /> {label}
                </TabsTrigger>
              );
            })}
          </TabsList>
        </div>
        {tabs.map((name) => (
          <TabsContent key={name} value={name}>
            <ExploreSection tab={name} page={page} onPageChange={handlePageChange} />
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}

/** One tab's heading, list (or skeleton, error, empty state) and pager. */
function ExploreSection<T extends ExploreTab>({
  tab,
  page,
  onPageChange,
}: {
  tab: T;
  page: number;
  onPageChange: (page: number) => void;
}) {
  const query = useExploreList(tab, page);
  const { title, description, empty, Row, keyOf }: Section<T> = sections[tab];
  const headingId = useId();
  const items = query.data ?? [];
  return (
    <section aria-labelledby={headingId}>
      <div className="mb-5">
        <h2 id={headingId} className="text-xl font-semibold tracking-tight">
          {title}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      </div>

      {query.isPending ? (
        <SkeletonRows />
      ) : query.isError ? (
        <LoadError
          message={LOAD_ERROR}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : items.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-border p-12 text-center">
          <p className="text-muted-foreground">{empty}</p>
        </div>
      ) : (
        <ul aria-labelledby={headingId} className="grid gap-4">
          {items.map((entry) => (
            <Row key={keyOf(entry)} entry={entry} />
          ))}
        </ul>
      )}

      <nav aria-label={`${title} pages`} className="mt-8 flex items-center justify-center gap-4">
        <Button
          variant="outline"
          size="sm"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          Previous
        </Button>
        <span className="text-sm text-muted-foreground">Page {page}</span>
        <Button
          variant="outline"
          size="sm"
          disabled={items.length < EXPLORE_PAGE_SIZE}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </Button>
      </nav>
    </section>
  );
}

function SkeletonRows() {
  return (
    <>
      <p role="status" className="sr-only">
        Loading...
      </p>
      <div aria-hidden="true" className="grid gap-4">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <Card key={i} className="flex gap-4 p-5 motion-safe:animate-pulse">
            <div className="size-12 shrink-0 rounded-full bg-muted" />
            <div className="flex-1 space-y-3 py-1">
              <div className="h-4 w-1/3 rounded bg-muted" />
              <div className="h-3 w-1/4 rounded bg-muted" />
              <div className="h-3 w-full rounded bg-muted" />
              <div className="h-3 w-5/6 rounded bg-muted" />
            </div>
          </Card>
        ))}
      </div>
    </>
  );
}

/** The row's one link covers the whole card (its ::after), so the card is clickable. */
const stretchedLink =
  "rounded-sm after:absolute after:inset-0 after:rounded-2xl after:content-[''] focus-visible:outline-none";
const rowCard =
  "relative p-5 transition-shadow hover:border-primary/40 hover:shadow-md focus-within:ring-2 focus-within:ring-ring";

/** One entry of a list: a card that opens what it shows. */
function RowCard({ children }: { children: ReactNode }) {
  return (
    <li>
      <Card className={rowCard}>{children}</Card>
    </li>
  );
}

/** The row's heading, whose link is the one that covers the card. */
function RowTitle({
  to,
  className,
  children,
}: {
  to: string;
  className: string;
  children: string;
}) {
  return (
    <h3 className={className}>
      <Link to={to} className={stretchedLink}>
        {children}
      </Link>
    </h3>
  );
}

function PersonRow({ entry }: { entry: ExploreUser }) {
  const { user, firstPrism } = entry;
  return (
    <RowCard>
      <div className="flex gap-4">
        <Avatar user={user} size={48} className="size-12 text-base" />
        <div className="min-w-0 flex-1">
          <RowTitle to={`/${user.username}`} className="font-semibold leading-tight">
            {displayName(user)}
          </RowTitle>
          <p className="mt-0.5 text-sm text-muted-foreground">@{user.username}</p>
          {firstPrism ? (
            <div className="mt-3 border-l-2 border-primary/30 pl-3">
              <p className="font-medium">{firstPrism.title}</p>
              <p className="mt-1 text-sm text-muted-foreground">{firstPrism.content}</p>
            </div>
          ) : null}
        </div>
      </div>
    </RowCard>
  );
}

function PrismRow({ entry }: { entry: ExplorePrism }) {
  const { user, prism } = entry;
  return (
    <RowCard>
      <div className="flex items-start justify-between gap-4">
        <RowTitle
          to={prismPath(user.username, prism)}
          className="min-w-0 text-lg font-semibold leading-snug"
        >
          {prism.title}
        </RowTitle>
        <span className="inline-flex shrink-0 items-center gap-1 rounded-full border border-rose-200 bg-rose-50 px-2.5 py-0.5 text-sm font-medium text-rose-800">
          <Heart aria-hidden="true" className="size-3.5 fill-current" />
          <span aria-hidden="true">{prism.heartsCount}</span>
          <span className="sr-only">{heartsLabel(prism.heartsCount)}</span>
        </span>
      </div>
      <p className="mt-1 flex items-center gap-2 text-sm text-muted-foreground">
        <Avatar user={user} size={24} className="size-6 text-[0.625rem]" />
        <span>
          by <span className="font-medium text-foreground">{displayName(user)}</span> · @
          {user.username}
        </span>
      </p>
      <p className="mt-3 text-sm text-muted-foreground">{prism.content}</p>
    </RowCard>
  );
}
