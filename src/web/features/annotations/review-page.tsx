// /review: the responses waiting for the owner's decision, across all their prisms, 50 to a page,
// the Spam folder (/review?status=spam) and the Flagged folder (/review?status=flagged: published
// responses readers flagged). Select some or the whole page and Approve, Reject or mark them as
// Spam at once (in the Spam folder, Not spam; in the Flagged one, Keep or Take down), or work from
// the keyboard: j and k move between responses, x selects one, * the page, a, r and s decide (n:
// not spam; p: keep, d: take down).
import { Check, EyeOff, ShieldAlert, ShieldCheck, Undo2, X } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "wouter";
import type { ReviewAction, ReviewItem, ReviewStatus } from "../../../contract/annotations.ts";
import { flagReasonLabels } from "../../../contract/flag-messages.ts";
import { ConfirmDialog } from "../../components/ui/alert-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { RelativeTime } from "../../lib/format.tsx";
import { useCurrentUser } from "../auth/auth-queries.ts";
import { useBulkDecision, useReviewQueue } from "./annotation-queries.ts";

const MOVES: [key: string, what: string][] = [
  ["j", "next response"],
  ["k", "previous response"],
  ["x", "select or clear the response"],
  ["*", "select or clear the whole page"],
];

/** Each action: its key, its button's words, what the page says it did, and its icon. */
const actions: Record<
  ReviewAction,
  { key: string; verb: string; done: string; what: string; icon: ReactNode }
> = {
  approve: { key: "a", verb: "Approve", done: "approved", what: "approve", icon: <Check /> },
  reject: { key: "r", verb: "Reject", done: "rejected", what: "reject", icon: <X /> },
  spam: {
    key: "s",
    verb: "Spam",
    done: "marked as spam",
    what: "mark as spam",
    icon: <ShieldAlert />,
  },
  "not-spam": {
    key: "n",
    verb: "Not spam",
    done: "moved back to review",
    what: "not spam",
    icon: <Undo2 />,
  },
  keep: { key: "p", verb: "Keep", done: "kept", what: "keep published", icon: <ShieldCheck /> },
  "take-down": {
    key: "d",
    verb: "Take down",
    done: "taken down",
    what: "take down",
    icon: <EyeOff />,
  },
};

/** What each folder offers: responses waiting for review, or the Spam folder. */
const folders: Record<
  ReviewStatus,
  { name: string; href: string; actions: ReviewAction[]; intro: string; empty: [string, string] }
> = {
  pending: {
    name: "Waiting",
    href: "/review",
    actions: ["approve", "reject", "spam"],
    intro:
      "Responses to your prisms wait here, oldest first. Only those you approve are shown to others.",
    empty: [
      "Nothing to review",
      "New responses to your prisms wait here until you approve or reject them.",
    ],
  },
  spam: {
    name: "Spam",
    href: "/review?status=spam",
    actions: ["not-spam"],
    intro:
      "Responses that look like spam are set aside here without telling you, and deleted after 30 days. Their authors see them as waiting for review. What you approve and what you mark as spam teach Prism what spam looks like to you; it stays on Prism.",
    empty: [
      "No spam",
      "Responses that look like spam are set aside here, not in your notifications.",
    ],
  },
  flagged: {
    name: "Flagged",
    href: "/review?status=flagged",
    actions: ["keep", "take-down"],
    intro:
      "Published responses that readers flagged wait here, with their reasons. Keep one to leave it published, or take it down to hide it from everyone but its author.",
    empty: ["Nothing flagged", "When readers flag a published response, it comes here."],
  },
};

/** What the dialog says before deciding on more than one. */
const consequences: Record<ReviewAction, string> = {
  approve: "Everyone who reads your prisms will see them. This can't be undone here.",
  reject: "Nobody but you and their authors will see them. This can't be undone here.",
  spam: "They move to your Spam folder, and are deleted after 30 days.",
  "not-spam": "They move back to the responses waiting for your review.",
  keep: "They stay published, and leave this folder.",
  "take-down": "Nobody but you and their authors will see them. This can't be undone here.",
};

const responses = (count: number) => `${count} ${count === 1 ? "response" : "responses"}`;

/** Who wrote the response, as owners see them ("Name (visitor)" for an anonymous one). */
const authorOf = (item: ReviewItem) => item.authorName ?? "Anonymous";

/** Keys typed into a field, or meant for a menu or dialog, are theirs, not the queue's. */
function isQueueKey(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest('input:not([type="checkbox"]), textarea, select, [contenteditable]')) {
    return false;
  }
  return !target?.closest('[role="menu"], [role="dialog"], [role="alertdialog"]');
}

/** Calls the handler of each key the queue answers to, wherever on the page it is pressed. */
function useQueueKeys(keys: Record<string, () => void>) {
  const keysRef = useRef(keys);
  keysRef.current = keys;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const handle = keysRef.current[event.key];
      if (!handle || !isQueueKey(event)) return;
      event.preventDefault();
      handle();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

export function ReviewPage() {
  const [searchParams] = useSearchParams();
  const asked = searchParams.get("status");
  const status: ReviewStatus = asked === "spam" || asked === "flagged" ? asked : "pending";
  // A folder of its own: its pages, its selection.
  return <ReviewFolder key={status} status={status} />;
}

function ReviewFolder({ status }: { status: ReviewStatus }) {
  const folder = folders[status];
  const { user } = useCurrentUser();
  // The cursors of the pages seen, the current one last: Previous goes back one.
  const [cursors, setCursors] = useState<(number | null)[]>([null]);
  const queue = useReviewQueue(status, cursors.at(-1) ?? null);
  const decide = useBulkDecision();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  // The dialog that asks before deciding on more than one, and its action (kept while it closes).
  const [confirm, setConfirm] = useState<{ open: boolean; action: ReviewAction }>({
    open: false,
    action: "approve",
  });
  const [announcement, setAnnouncement] = useState("");
  /**
   * The row to focus once the list shows what a decision left (the heading when none is left), the
   * decided responses gone from it. The decision can be settled while the list still shows them:
   * the live stream, hearing of the change, cancels the refetch the decision waits for and asks
   * again, and a row focused before that answer comes would be taken away with its response.
   */
  const [focusAfter, setFocusAfter] = useState<{
    row: number;
    decided: ReadonlySet<number>;
  } | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const items = queue.data?.items ?? [];
  const chosen = items.filter((item) => selected.has(item.id));
  const allChosen = items.length > 0 && chosen.length === items.length;

  const rowBoxes = () => [
    ...(listRef.current?.querySelectorAll<HTMLInputElement>("input[data-review-row]") ?? []),
  ];
  const focusedRow = () => {
    const index = rowBoxes().findIndex((box) =>
      box.closest("li")?.contains(document.activeElement),
    );
    return index < 0 ? null : index;
  };

  useEffect(() => {
    if (!focusAfter || items.some((item) => focusAfter.decided.has(item.id))) return;
    const boxes = rowBoxes();
    (boxes[Math.min(focusAfter.row, boxes.length - 1)] ?? headingRef.current)?.focus();
    setFocusAfter(null);
  });

  // A later page emptied by decisions: back to the first, where any left are.
  const emptyLaterPage = queue.isSuccess && items.length === 0 && cursors.length > 1;
  useEffect(() => {
    if (emptyLaterPage) setCursors([null]);
  }, [emptyLaterPage]);

  const toggle = (id: number) =>
    setSelected((old) => {
      const next = new Set(old);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = () =>
    setSelected(allChosen ? new Set() : new Set(items.map((item) => item.id)));

  /** Decides on `targets`; focus then goes to the row at `then` of what is left. */
  function run(action: ReviewAction, targets: ReviewItem[], then: number) {
    const ids = targets.map((item) => item.id);
    const prismIds = targets.map((item) => item.prismId);
    decide.mutate(
      { ids, action, prismIds },
      {
        onSuccess: (changed) => {
          setSelected(new Set());
          setAnnouncement(`${responses(changed)} ${actions[action].done}`);
          setFocusAfter({ row: then, decided: new Set(ids) });
        },
      },
    );
  }

  /** Acts on the selection (after asking, when it holds more than one), else on the focused row. */
  function act(action: ReviewAction) {
    if (decide.isPending) return;
    if (chosen.length > 1) {
      setConfirm({ open: true, action });
      return;
    }
    const focused = focusedRow();
    const [only] = chosen;
    const target = only ?? (focused === null ? undefined : items[focused]);
    if (target) run(action, [target], items.indexOf(target));
  }

  function moveFocus(step: 1 | -1) {
    const boxes = rowBoxes();
    const focused = focusedRow();
    const next = focused === null ? 0 : Math.max(0, Math.min(boxes.length - 1, focused + step));
    boxes[next]?.focus();
  }

  useQueueKeys({
    j: () => moveFocus(1),
    k: () => moveFocus(-1),
    x: () => {
      const focused = focusedRow();
      const item = focused === null ? undefined : items[focused];
      if (item) toggle(item.id);
    },
    "*": toggleAll,
    ...Object.fromEntries(folder.actions.map((action) => [actions[action].key, () => act(action)])),
  });

  function goTo(next: (number | null)[]) {
    setCursors(next);
    setSelected(new Set());
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 ref={headingRef} tabIndex={-1} className="text-3xl font-semibold tracking-tight">
        Review responses
      </h1>
      <nav aria-label="Folders" className="mt-4 flex gap-2">
        {(Object.keys(folders) as ReviewStatus[]).map((each) => (
          <Link
            key={each}
            to={folders[each].href}
            aria-current={each === status ? "page" : undefined}
            className="inline-flex min-h-11 items-center rounded-md border border-border px-4 text-sm font-medium hover:bg-muted aria-[current=page]:border-primary aria-[current=page]:bg-primary/10"
          >
            {folders[each].name}
            <FolderCount count={each === "spam" ? 0 : (queue.data?.counts[each] ?? 0)} />
          </Link>
        ))}
      </nav>
      <p className="mt-4 text-muted-foreground">{folder.intro}</p>
      <Shortcuts offered={folder.actions} />
      <Toolbar
        offered={folder.actions}
        allChosen={allChosen}
        chosen={chosen.length}
        empty={items.length === 0}
        busy={decide.isPending}
        onToggleAll={toggleAll}
        onAct={act}
      />
      <p role="status" className="min-h-6 py-2 text-sm font-medium">
        {announcement}
      </p>

      {queue.isPending ? (
        <p role="status" className="py-12 text-center text-muted-foreground">
          Loading...
        </p>
      ) : queue.isError ? (
        <LoadError
          message="The responses to review could not be loaded. Please try again."
          onRetry={() => void queue.refetch()}
          retrying={queue.isFetching}
        />
      ) : items.length === 0 ? (
        <EmptyState title={folder.empty[0]} description={folder.empty[1]} />
      ) : (
        <ul ref={listRef} aria-label="Responses to review" className="grid gap-3">
          {items.map((item, index) => (
            <ReviewRow
              key={item.id}
              offered={folder.actions}
              item={item}
              username={user?.username ?? ""}
              selected={selected.has(item.id)}
              onToggle={() => toggle(item.id)}
              onDecide={(action) => run(action, [item], index)}
              busy={decide.isPending}
            />
          ))}
        </ul>
      )}

      {cursors.length > 1 || queue.data?.nextCursor ? (
        <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-4">
          <Button
            variant="outline"
            disabled={cursors.length === 1}
            onClick={() => goTo(cursors.slice(0, -1))}
          >
            Previous
          </Button>
          <span className="text-sm text-muted-foreground">Page {cursors.length}</span>
          <Button
            variant="outline"
            disabled={!queue.data?.nextCursor}
            onClick={() => goTo([...cursors, queue.data?.nextCursor ?? null])}
          >
            Next
          </Button>
        </nav>
      ) : null}

      <ConfirmDialog
        open={confirm.open}
        onOpenChange={(open) => setConfirm((old) => ({ ...old, open }))}
        title={`${actions[confirm.action].verb} ${responses(chosen.length)}?`}
        description={consequences[confirm.action]}
        actionLabel={actions[confirm.action].verb}
        destructive={confirm.action === "reject" || confirm.action === "take-down"}
        onConfirm={() => run(confirm.action, chosen, 0)}
      />
    </div>
  );
}

/**
 * How many responses a folder holds, beside its name, following the page's stream (a reader's
 * flag, a new response); none when it is empty. The Spam folder shows none: spam asks for no
 * attention.
 */
function FolderCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <>
      <span
        aria-hidden="true"
        className="ml-2 rounded-full bg-primary px-2 text-xs font-semibold text-primary-foreground"
      >
        {count}
      </span>{" "}
      <span className="sr-only">({responses(count)})</span>
    </>
  );
}

/** Select all, how many are selected, and the folder's actions for them; it stays in view. */
function Toolbar({
  offered,
  allChosen,
  chosen,
  empty,
  busy,
  onToggleAll,
  onAct,
}: {
  offered: ReviewAction[];
  allChosen: boolean;
  chosen: number;
  empty: boolean;
  busy: boolean;
  onToggleAll: () => void;
  onAct: (action: ReviewAction) => void;
}) {
  return (
    <div className="sticky top-16 z-10 mt-6 flex flex-wrap items-center gap-2 border-b border-border bg-background py-3">
      <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg pr-2 text-sm">
        <input
          type="checkbox"
          className="size-5 accent-primary"
          checked={allChosen}
          disabled={empty}
          onChange={onToggleAll}
        />
        Select all on this page
      </label>
      <span className="text-sm text-muted-foreground">{chosen} selected</span>
      <div className="ml-auto flex gap-2">
        {offered.map((action, index) => (
          <Button
            key={action}
            variant={index === 0 ? "default" : "outline"}
            disabled={chosen === 0 || busy}
            onClick={() => onAct(action)}
          >
            <span aria-hidden="true">{actions[action].icon}</span>
            {actions[action].verb}
          </Button>
        ))}
      </div>
    </div>
  );
}

/** The keys the queue answers to, as the page lists them (not on a phone, where fingers work). */
function Shortcuts({ offered }: { offered: ReviewAction[] }) {
  const keys = [
    ...MOVES,
    ...offered.map((action) => [actions[action].key, actions[action].what] as const),
  ];
  return (
    <section
      aria-label="Keyboard shortcuts"
      className="mt-4 hidden text-sm text-muted-foreground sm:block"
    >
      <ul className="flex flex-wrap gap-x-4 gap-y-1">
        {keys.map(([key, what]) => (
          <li key={key}>
            <kbd className="rounded border border-border bg-muted px-1.5 font-mono text-xs text-foreground">
              {key}
            </kbd>{" "}
            {what}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ReviewRow({
  offered,
  item,
  username,
  selected,
  onToggle,
  onDecide,
  busy,
}: {
  offered: ReviewAction[];
  item: ReviewItem;
  username: string;
  selected: boolean;
  onToggle: () => void;
  onDecide: (action: ReviewAction) => void;
  busy: boolean;
}) {
  const author = authorOf(item);
  return (
    <li
      className={`flex gap-2 rounded-xl border p-3 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring sm:p-4 ${
        selected ? "border-primary bg-primary/5" : "border-border"
      }`}
    >
      <label className="flex size-11 shrink-0 cursor-pointer items-center justify-center rounded-lg">
        <input
          type="checkbox"
          data-review-row=""
          // Focus brings the row out from under the header and the toolbar that stay on screen.
          className="size-5 scroll-mt-48 scroll-mb-4 accent-primary"
          checked={selected}
          onChange={onToggle}
        />
        <span className="sr-only">
          Select the response by {author} on "{item.prismTitle}"
        </span>
      </label>
      <div className="min-w-0 flex-1 py-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
          <span className="font-medium">{author}</span>
          <RelativeTime iso={item.createdAt} className="text-xs text-muted-foreground" />
        </div>
        <p className="mt-1 text-xs text-muted-foreground">
          On{" "}
          <Link
            to={`/${username}?annotation=${item.id}`}
            className="rounded-sm text-foreground underline underline-offset-4"
          >
            {item.prismTitle}
          </Link>
        </p>
        <blockquote className="mt-2 border-l-4 border-amber-300 pl-3 font-serif text-sm italic text-muted-foreground">
          {item.selectedText}
        </blockquote>
        <p className="mt-2 whitespace-pre-wrap text-sm">{item.annotationText}</p>
        {item.flags.count > 0 ? <FlagsOf flags={item.flags} /> : null}
        {item.reasons.length > 0 ? (
          <ul className="mt-2 list-disc pl-5 text-xs text-muted-foreground">
            {item.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-2">
          {offered.map((action, index) => (
            <Button
              key={action}
              size="sm"
              variant={index === 0 ? "default" : "outline"}
              disabled={busy}
              onClick={() => onDecide(action)}
            >
              <span aria-hidden="true">{actions[action].icon}</span> {actions[action].verb}
              <span className="sr-only"> the response by {author}</span>
            </Button>
          ))}
        </div>
      </div>
    </li>
  );
}

/** How many people flagged a published response, and why: "Flagged by 3 people: Spam (2), …". */
function FlagsOf({ flags }: { flags: ReviewItem["flags"] }) {
  const people = flags.count === 1 ? "1 person" : `${flags.count} people`;
  return (
    <p className="mt-2 text-xs font-medium text-destructive">
      Flagged by {people}:{" "}
      {flags.reasons
        .map(({ reason, count }) => `${flagReasonLabels[reason]} (${count})`)
        .join(", ")}
    </p>
  );
}
